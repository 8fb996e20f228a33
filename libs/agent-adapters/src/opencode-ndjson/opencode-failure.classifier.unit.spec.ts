import { describeRecordedFailureTable } from '../failure-classification/failure-table.spec-helper';
import { classifyOpenCodeFailure } from './opencode-failure.classifier';

describe('OpenCode failure classifier on recorded real CLI output', () => {
  describeRecordedFailureTable({
    family: 'opencode-ndjson',
    classify: classifyOpenCodeFailure,
    clis: ['opencode'],
    // OpenCode retries a 5xx for minutes (not recorded); a plain 400 prints no status to read.
    gaps: { notRecorded: ['opencode.provider_error'], unclassified: { 'opencode.invalid_request': 'cli_reported_failure' } },
  });
});
