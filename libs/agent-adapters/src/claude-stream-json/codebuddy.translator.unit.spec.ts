import { expectMessagesAcceptedByContract } from '../backend/translator-replay.spec-helper';
import { CODEBUDDY_DIALECT } from './stream-json.dialect';
import { replayFixture } from './stream-json-replay.spec-helper';

/**
 * CodeBuddy is not installable offline: the fixtures follow the Claude Code fork's stream-json as
 * public integrations of `codebuddy -p --output-format stream-json` parse it (see __fixtures__/README.md).
 */
describe('Claude stream-json translator, CodeBuddy dialect (documented frames)', () => {
  const sessionId = 'c7a3e1f0-2b4d-4e6a-8f9c-0d1e2f3a4b5c';

  it('turns a tool call, its result and the final answer into timeline messages, with its log line', () => {
    const run = replayFixture('codebuddy-tool-call-then-text.jsonl', CODEBUDDY_DIALECT);

    expect(run.messages).toEqual([
      { type: 'status', sessionId, state: 'started' },
      { type: 'log', level: 'warn', text: 'CODEBUDDY.md not found in /tmp/codebuddy-run/work' },
      { type: 'tool-use', tool: 'Bash', callId: 'toolu_cb_01', input: { command: "printf '%s' 'hello from codebuddy' > out.txt", description: 'Write out.txt' } },
      { type: 'tool-result', callId: 'toolu_cb_01', tool: 'Bash', output: '(Bash completed with no output)', status: 'ok' },
      { type: 'text', text: 'Wrote out.txt.' },
    ]);
    expect(run.sessionIds).toEqual([sessionId]);
    expect(run.results).toEqual([{ status: 'completed', output: 'Wrote out.txt.' }]);
    expect(run.malformed).toEqual([]);
  });

  it('takes usage per model from modelUsage on the result', () => {
    const run = replayFixture('codebuddy-tool-call-then-text.jsonl', CODEBUDDY_DIALECT);
    expect(run.usage).toEqual([
      { provider: 'tencent', model: 'claude-sonnet-4-20250514', inputTokens: 4280, outputTokens: 46, cacheReadTokens: 1800, cacheWriteTokens: 1800 },
    ]);
  });

  it('without modelUsage, takes the result usage for the model the result names', () => {
    const run = replayFixture('codebuddy-result-usage-without-model-usage.jsonl', CODEBUDDY_DIALECT);
    expect(run.usage).toEqual([{ provider: 'tencent', model: 'hunyuan-2.0', inputTokens: 100, outputTokens: 50, cacheReadTokens: 10, cacheWriteTokens: 5 }]);
    expect(run.results).toEqual([{ status: 'completed', output: 'Hello from codebuddy' }]);
  });

  it('reports an unknown --resume id (Claude wording, assumed for the fork) as rejected and failed', () => {
    const run = replayFixture('codebuddy-bogus-resume.jsonl', CODEBUDDY_DIALECT);
    const errorMessage = 'No conversation found with session ID: 00000000-0000-4000-8000-000000000000';

    expect(run.resumeRejected).toBe(1);
    expect(run.sessionIds).toEqual([]);
    expect(run.messages).toEqual([{ type: 'error', code: 'codebuddy_error_during_execution', message: errorMessage }]);
    expect(run.results).toEqual([{ status: 'failed', errorMessage }]);
  });

  it('emits only messages the contract accepts', () => {
    for (const fixture of ['codebuddy-tool-call-then-text.jsonl', 'codebuddy-result-usage-without-model-usage.jsonl', 'codebuddy-bogus-resume.jsonl']) {
      expectMessagesAcceptedByContract(replayFixture(fixture, CODEBUDDY_DIALECT).messages);
    }
  });
});
