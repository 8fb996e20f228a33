import { describeRecordedFailureTable } from '../failure-classification/failure-table.spec-helper';
import { classifyCodexFailure } from './codex-failure.classifier';

describe('Codex failure classifier on recorded real CLI output', () => {
  describeRecordedFailureTable({ family: 'codex-app-server', classify: classifyCodexFailure, clis: ['codex'] });

  it('given only its own retry chatter, names no reason', () => {
    expect(classifyCodexFailure({ code: 'cli_reported_failure', message: 'turn failed', stderrTail: '', errorTexts: ['codex will retry: Reconnecting... 1/5'], exitCode: 0 })).toBeUndefined();
  });
});
