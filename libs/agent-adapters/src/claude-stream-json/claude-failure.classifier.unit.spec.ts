import { describeRecordedFailureTable } from '../failure-classification/failure-table.spec-helper';
import { classifyClaudeFailure } from './claude-failure.classifier';

describe('Claude stream-json failure classifier on recorded real CLI output', () => {
  describeRecordedFailureTable({
    family: 'claude-stream-json',
    classify: classifyClaudeFailure,
    clis: ['claude-code', 'qwen-code'],
    // Qwen Code retries a 429 on its own past 90 s (7 calls when recorded): not recorded.
    gaps: { notRecorded: ['qwen-code.rate_limited'] },
  });
});
