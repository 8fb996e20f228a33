import { describeRecordedFailureTable } from '../failure-classification/failure-table.spec-helper';
import { classifyAcpFailure } from './acp-failure.classifier';

describe('ACP failure classifier on recorded real CLI output', () => {
  describeRecordedFailureTable({ family: 'acp', classify: classifyAcpFailure, clis: ['gemini-cli'] });

  it('given the retry delay Gemini CLI prints for a quota, carries it', () => {
    const failure = classifyAcpFailure({
      code: 'cli_reported_failure',
      message: 'session/prompt failed: You exceeded your current quota. Please retry in 1.5s.',
      stderrTail: '',
      errorTexts: [],
      exitCode: 0,
    });
    expect(failure).toMatchObject({ code: 'rate_limited', retryAfterMs: 1_500 });
  });
});
