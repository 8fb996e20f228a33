import { expectMessagesAcceptedByContract } from '../backend/translator-replay.spec-helper';
import { QWEN_CODE_DIALECT } from './stream-json.dialect';
import { replayEvents, replayFixture, streamJsonFixtures } from './stream-json-replay.spec-helper';

/** Frames recorded from the real Qwen Code 0.15.10 against the mock model server. */
describe('Claude stream-json translator, Qwen Code dialect (recorded frames of Qwen Code 0.15.10)', () => {
  const sessionId = '1719cdb1-75c8-409b-a8dc-dfa7fb08df8e';

  it('turns a shell tool call and its final answer into timeline messages, session and result', () => {
    const run = replayFixture('qwen-tool-call-then-text.jsonl', QWEN_CODE_DIALECT);
    const callId = 'call_6f473a003ddb44d1b8dca707';
    const finalText = expect.stringContaining('Mock model final answer. Tool output: Command: printf') as string;

    expect(run.messages.map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
    expect(run.messages[0]).toEqual({ type: 'status', sessionId, state: 'started' });
    expect(run.messages[1]).toEqual({ type: 'tool-use', tool: 'run_shell_command', callId, input: { command: expect.stringContaining('out.txt') as string } });
    expect(run.messages[2]).toEqual({ type: 'tool-result', callId, tool: 'run_shell_command', output: expect.stringContaining('Exit Code: 0') as string, status: 'ok' });
    expect(run.messages[3]).toEqual({ type: 'text', text: finalText });
    expect(run.sessionIds).toEqual([sessionId]);
    expect(run.results).toEqual([{ status: 'completed', output: finalText }]);
    expect(run.malformed).toEqual([]);
  });

  it('counts usage per model call: the running total of the assistant events, not the result', () => {
    const run = replayFixture('qwen-tool-call-then-text.jsonl', QWEN_CODE_DIALECT);
    expect(run.usage.at(-1)).toEqual({ provider: 'qwen', model: 'mock-model', inputTokens: 16023 + 16151, outputTokens: 18 + 51, cacheReadTokens: 0 });
  });

  it('a resumed run keeps its session id and counts only its own calls (the result total includes the earlier run)', () => {
    const run = replayFixture('qwen-resumed-text.jsonl', QWEN_CODE_DIALECT);
    const lines = streamJsonFixtures.text('qwen-resumed-text.jsonl').trim().split('\n');
    const resultUsage = (JSON.parse(lines.at(-1)!) as { usage: { input_tokens: number } }).usage;

    expect(run.sessionIds).toEqual(['77e6f17c-6e25-43e4-9d86-68b454eef945']);
    expect(run.results).toEqual([{ status: 'completed', output: 'Mock model reply. Remembered from earlier turns: tangerine.' }]);
    expect(run.usage).toEqual([{ provider: 'qwen', model: 'mock-model', inputTokens: 16057, outputTokens: 15, cacheReadTokens: 0 }]);
    expect(resultUsage.input_tokens).toBeGreaterThan(16057);
  });

  it('a cancelled run shows only its start: no result, so the session reports the cancel', () => {
    const run = replayFixture('qwen-cancelled.jsonl', QWEN_CODE_DIALECT);
    expect(run.messages).toEqual([{ type: 'status', sessionId: '534fe216-4d0f-42d9-a36d-dc40326023da', state: 'started' }]);
    expect(run.results).toEqual([]);
  });

  it('recognises the prose refusal of an unknown --resume id that Qwen prints on stderr', () => {
    const stderr = streamJsonFixtures.text('qwen-bogus-resume.stderr.txt');
    expect(QWEN_CODE_DIALECT.resumeRejectedInProse?.test(stderr)).toBe(true);
    expect(QWEN_CODE_DIALECT.resumeRejectedInProse?.test('No conversation found with session ID: x')).toBe(false);
  });

  it('reads a failed result from its error message', () => {
    const failed = { type: 'result', subtype: 'error_during_execution', is_error: true, usage: { input_tokens: 0, output_tokens: 0 }, error: { message: 'Model stream ended unexpectedly' } };
    const replay = replayEvents([failed], QWEN_CODE_DIALECT);
    expect(replay.results).toEqual([{ status: 'failed', errorMessage: 'Model stream ended unexpectedly' }]);
    expect(replay.messages).toEqual([{ type: 'error', code: 'qwen_error_during_execution', message: 'Model stream ended unexpectedly' }]);
    expect(replay.resumeRejected).toBe(0);
  });

  it('emits only messages the contract accepts', () => {
    for (const fixture of ['qwen-tool-call-then-text.jsonl', 'qwen-resumed-text.jsonl', 'qwen-cancelled.jsonl']) {
      expectMessagesAcceptedByContract(replayFixture(fixture, QWEN_CODE_DIALECT).messages);
    }
  });
});
