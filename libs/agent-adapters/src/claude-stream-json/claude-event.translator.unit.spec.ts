import { expectMessagesAcceptedByContract } from '../backend/translator-replay.spec-helper';
import { replayEvents, replayFixture } from './stream-json-replay.spec-helper';

/** Frames recorded from the real Claude Code 2.1.197 against the mock model server. */

describe('Claude stream-json translator (recorded frames of Claude Code 2.1.197)', () => {
  it('turns a tool call and its final answer into timeline messages, session, usage and result', () => {
    const run = replayFixture('tool-call-then-text.jsonl');
    const sessionId = '7e275cec-83a5-4811-8803-e0a366c1c245';

    expect(run.messages.map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
    expect(run.messages[0]).toEqual({ type: 'status', sessionId, state: 'started' });
    expect(run.messages[1]).toMatchObject({ type: 'tool-use', tool: 'Bash', input: { command: expect.stringContaining('out.txt') as string } });
    const callId = (run.messages[1] as { callId: string }).callId;
    expect(run.messages[2]).toEqual({ type: 'tool-result', callId, tool: 'Bash', output: '(Bash completed with no output)', status: 'ok' });
    expect(run.messages[3]).toEqual({ type: 'text', text: 'Mock model final answer. Tool output: (Bash completed with no output)' });
    expect(run.sessionIds).toEqual([sessionId]);
    expect(run.usage).toEqual([{ provider: 'anthropic', model: 'claude-opus-4-8[1m]', inputTokens: 38099, outputTokens: 36, cacheReadTokens: 0, cacheWriteTokens: 0 }]);
    expect(run.results).toEqual([{ status: 'completed', output: 'Mock model final answer. Tool output: (Bash completed with no output)' }]);
    expect(run.malformed).toEqual([]);
  });

  it('keeps the session id of a resumed run', () => {
    const run = replayFixture('resumed-text.jsonl');
    expect(run.sessionIds).toEqual(['7e275cec-83a5-4811-8803-e0a366c1c245']);
    expect(run.results).toEqual([{ status: 'completed', output: 'Mock model reply.' }]);
  });

  it('reports a bogus resume as rejected and failed, and does not adopt the bogus id', () => {
    const run = replayFixture('bogus-resume.jsonl');
    expect(run.resumeRejected).toBe(1);
    expect(run.sessionIds).toEqual([]);
    expect(run.results).toEqual([{ status: 'failed', errorMessage: 'No conversation found with session ID: 00000000-0000-4000-8000-000000000000' }]);
    expect(run.messages).toEqual([{ type: 'error', code: 'claude_error_during_execution', message: 'No conversation found with session ID: 00000000-0000-4000-8000-000000000000' }]);
  });

  it('emits only messages the contract accepts', () => {
    for (const fixture of ['tool-call-then-text.jsonl', 'resumed-text.jsonl', 'bogus-resume.jsonl', 'permission-prompt-allowed.jsonl']) {
      expectMessagesAcceptedByContract(replayFixture(fixture).messages);
    }
  });

  it('notes a permission prompt in the timeline and reads the rest of the run as usual', () => {
    const run = replayFixture('permission-prompt-allowed.jsonl');

    expect(run.messages.map((message) => message.type)).toEqual(['status', 'tool-use', 'log', 'tool-result', 'text']);
    expect(run.messages[2]).toEqual({ type: 'log', level: 'info', text: 'claude asked permission for Bash: allowed by policy' });
    expect(run.malformed).toEqual([]);
    expect(run.results).toEqual([expect.objectContaining({ status: 'completed' })]);
  });

  it('reports an unknown event type instead of dropping it', () => {
    const run = replayEvents([{ type: 'brand_new_event' }]);
    expect(run.malformed).toEqual(['unknown claude event type brand_new_event']);
  });
});
