import { expectMessagesAcceptedByContract } from '../backend/translator-replay.spec-helper';
import { CURSOR_AGENT_DIALECT } from './stream-json.dialect';
import { replayEvents, replayFixture } from './stream-json-replay.spec-helper';

/**
 * Cursor agent is not installable offline: the fixtures follow Cursor's output-format reference and
 * frames recorded from cursor-agent 2026.08.x by public integrations (see __fixtures__/README.md).
 */
describe('Claude stream-json translator, Cursor agent dialect (documented frames)', () => {
  const sessionId = '5b0e9a3c-7d2f-4c61-9e8a-2f4d6b1c0a77';
  const shellCall = 'call-7c1d2e90-5b7a-4e0f-a1c3-9d8e6f5a4b21-0\nfc_3e6a9b12-44d0-9c1e-b7f2-0a5d8c3e1f96_0';
  const failingCall = 'call-7c1d2e90-5b7a-4e0f-a1c3-9d8e6f5a4b21-1\nfc_3e6a9b12-44d0-9c1e-b7f2-0a5d8c3e1f96_1';

  it('turns thinking, tool_call started/completed and text into timeline messages, in order', () => {
    const run = replayFixture('cursor-tool-call-then-text.jsonl', CURSOR_AGENT_DIALECT);

    expect(run.messages.map((message) => message.type)).toEqual(['status', 'thinking', 'text', 'tool-use', 'tool-result', 'tool-use', 'tool-result', 'text']);
    expect(run.messages[0]).toEqual({ type: 'status', sessionId, state: 'started' });
    expect(run.messages[1]).toEqual({ type: 'thinking', text: 'Writing the file with printf.' });
    expect(run.messages[2]).toEqual({ type: 'text', text: 'Writing `out.txt`.' });
    expect(run.messages[3]).toEqual({ type: 'tool-use', tool: 'shell', callId: shellCall, input: expect.objectContaining({ command: "printf '%s' 'hello from cursor' > out.txt" }) as unknown });
    expect(run.messages[6]).toEqual({ type: 'tool-result', callId: failingCall, tool: 'shell', output: 'cat: missing.txt: No such file or directory\n', status: 'error' });
    expect(run.messages[4]).toEqual({ type: 'tool-result', callId: shellCall, tool: 'shell', output: '', status: 'ok' });
    expect(run.messages[7]).toEqual({ type: 'text', text: 'Wrote `out.txt`; `missing.txt` does not exist.' });
    expect(run.malformed).toEqual([]);
  });

  it('reads the session id from init, usage from the camelCase result usage and the result text', () => {
    const run = replayFixture('cursor-tool-call-then-text.jsonl', CURSOR_AGENT_DIALECT);

    expect(run.sessionIds).toEqual([sessionId]);
    expect(run.usage).toEqual([{ provider: 'cursor', model: 'Auto', inputTokens: 12044, outputTokens: 87, cacheReadTokens: 3072, cacheWriteTokens: 0 }]);
    expect(run.results).toEqual([{ status: 'completed', output: 'Writing `out.txt`.Wrote `out.txt`; `missing.txt` does not exist.' }]);
  });

  it('names file tools by their kind and reads a rejected call as an error', () => {
    const run = replayFixture('cursor-file-tools.jsonl', CURSOR_AGENT_DIALECT);
    const results = run.messages.filter((message) => message.type === 'tool-result');

    expect(run.messages.filter((message) => message.type === 'tool-use').map((message) => message.tool)).toEqual(['edit', 'write', 'delete']);
    expect(results).toEqual([
      expect.objectContaining({ tool: 'edit', status: 'ok', output: 'Wrote contents to /tmp/cursor-run/work/notes.md' }),
      expect.objectContaining({ tool: 'write', status: 'ok', output: '{"path":"/tmp/cursor-run/work/todo.txt"}' }),
      expect.objectContaining({ tool: 'delete', callId: 'call-rejected-1', status: 'error', output: 'Outside the workspace' }),
    ]);
    expect(run.usage).toEqual([{ provider: 'cursor', model: 'gpt-5', inputTokens: 900, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 }]);
  });

  it('cannot tell an unknown --resume id: the CLI runs a fresh chat under that id, so nothing is rejected', () => {
    const run = replayFixture('cursor-resume-unknown-id.jsonl', CURSOR_AGENT_DIALECT);

    expect(run.sessionIds).toEqual(['00000000-0000-4000-8000-000000000000']);
    expect(run.resumeRejected).toBe(0);
    expect(run.results).toEqual([expect.objectContaining({ status: 'completed' })]);
  });

  it('reads a failed result and reports a tool_call of no known kind instead of dropping it', () => {
    const run = replayEvents(
      [
        { type: 'tool_call', subtype: 'started', call_id: 'call-x', tool_call: { somethingNew: {} }, session_id: sessionId },
        { type: 'result', subtype: 'error', is_error: true, result: 'Request failed: rate limited', session_id: sessionId },
      ],
      CURSOR_AGENT_DIALECT,
    );

    expect(run.malformed).toEqual(['tool_call without a known tool kind']);
    expect(run.messages).toEqual([expect.objectContaining({ type: 'status' }), { type: 'error', code: 'cursor_error', message: 'Request failed: rate limited' }]);
    expect(run.results).toEqual([{ status: 'failed', errorMessage: 'Request failed: rate limited' }]);
  });

  it('emits only messages the contract accepts', () => {
    for (const fixture of ['cursor-tool-call-then-text.jsonl', 'cursor-file-tools.jsonl', 'cursor-resume-unknown-id.jsonl']) {
      expectMessagesAcceptedByContract(replayFixture(fixture, CURSOR_AGENT_DIALECT).messages);
    }
  });
});
