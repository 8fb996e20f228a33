import { expectMessagesAcceptedByContract, fixtureReader, replay, type TranslatorRecording } from '../backend/translator-replay.spec-helper';
import { createAcpEventTranslator } from './acp-event.translator';
import type { AcpTrafficEvent } from './acp-wire.types';

const fixtures = fixtureReader(__dirname);

const replayEvents = (events: readonly unknown[]): TranslatorRecording => replay((context) => createAcpEventTranslator(context, { provider: 'google' }), events);

/** Replays a conversation recorded from the real Gemini CLI 0.61.0 (`gemini --acp`) against the mock model server. */
const replayFixture = (fixture: string): TranslatorRecording => replayEvents(fixtures.jsonLines(fixture));

const FIXTURES = [
  'gemini-tool-call-then-text.jsonl',
  'gemini-load-then-text.jsonl',
  'gemini-bogus-load.jsonl',
  'gemini-same-minute-load.jsonl',
  'gemini-cancelled.jsonl',
];

const agent = (frame: object): AcpTrafficEvent => ({ from: 'agent', frame: { jsonrpc: '2.0', ...frame } as AcpTrafficEvent['frame'] });
const client = (frame: object): AcpTrafficEvent => ({ from: 'client', frame: { jsonrpc: '2.0', ...frame } as AcpTrafficEvent['frame'] });
const update = (sessionUpdate: string, fields: object): AcpTrafficEvent =>
  agent({ method: 'session/update', params: { sessionId: 's-1', update: { sessionUpdate, ...fields } } });
const opening = [client({ id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }), agent({ id: 1, result: { sessionId: 's-1' } }), client({ id: 2, method: 'session/prompt', params: {} })];

describe('ACP event translator (recorded frames of Gemini CLI 0.61.0)', () => {
  it('turns a permission-gated shell call and the streamed answer into timeline messages, session, usage and result', () => {
    const run = replayFixture('gemini-tool-call-then-text.jsonl');
    const sessionId = 'eb5c36c7-8a4c-4da6-b3da-8803574f95c2';
    const callId = 'run_shell_command__run_shell_command_1795994342417_0';

    expect(run.messages.map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
    expect(run.messages[0]).toEqual({ type: 'status', sessionId, state: 'started' });
    // No tool_call preceded the permission request: the request opened the tool.
    expect(run.messages[1]).toEqual({ type: 'tool-use', tool: 'execute', callId, input: { title: "printf '%s' 'hello from the mock' > '/tmp/acp-scratch/w1/out.txt'" } });
    expect(run.messages[2]).toEqual({ type: 'tool-result', callId, tool: 'execute', output: '', status: 'ok' });
    // Five live chunks become one text block.
    expect(run.messages[3]).toEqual({
      type: 'text',
      text: 'Mock model final answer. Tool output: <untrusted_context>\nOutput: (empty)\nProcess Group PGID: 24524\n</untrusted_context>',
    });
    expect(run.sessionIds).toEqual([sessionId]);
    expect(run.usage).toEqual([
      { provider: 'google', model: 'gemini-3.8-flash', inputTokens: 11571, outputTokens: 20 },
      { provider: 'google', model: 'auto', inputTokens: 11691, outputTokens: 30 },
    ]);
    expect(run.results).toEqual([{ status: 'completed' }]);
    expect(run.malformed).toEqual([]);
  });

  it('keeps the loaded session id and leaves the replayed history out of the new timeline', () => {
    const run = replayFixture('gemini-load-then-text.jsonl');
    expect(run.sessionIds).toEqual(['eb5c36c7-8a4c-4da6-b3da-8803574f95c2']);
    expect(run.messages).toEqual([
      { type: 'status', sessionId: 'eb5c36c7-8a4c-4da6-b3da-8803574f95c2', state: 'resumed' },
      { type: 'log', level: 'debug', text: 'acp replayed 6 earlier update(s) on load' },
      { type: 'text', text: 'Mock model reply. Remembered from earlier turns: tangerine.' },
    ]);
    expect(run.toolsStarted).toEqual([]);
    expect(run.results).toEqual([{ status: 'completed' }]);
    expect(run.malformed).toEqual([]);
  });

  it('reports a bogus session id as a rejected resume and a failed run, without adopting the id', () => {
    const run = replayFixture('gemini-bogus-load.jsonl');
    expect(run.resumeRejected).toBe(1);
    expect(run.sessionIds).toEqual([]);
    expect(run.results).toHaveLength(1);
    expect(run.results[0]).toMatchObject({ status: 'failed', errorMessage: expect.stringContaining('Invalid session identifier "00000000-0000-4000-8000-000000000000"') as string });
    expect(run.messages).toEqual([{ type: 'error', code: 'acp_resume_rejected', message: run.results[0]!.errorMessage }]);
  });

  it('reports the same-minute load bug of Gemini CLI 0.61 as a rejected resume', () => {
    const run = replayFixture('gemini-same-minute-load.jsonl');
    expect(run.resumeRejected).toBe(1);
    expect(run.results).toEqual([{ status: 'failed', errorMessage: 'session/load failed: Internal error: No previous sessions found for this project.' }]);
  });

  it('emits the text streamed before a cancel, and no result: the session reports the cancel', () => {
    const run = replayFixture('gemini-cancelled.jsonl');
    expect(run.messages.map((message) => message.type)).toEqual(['status', 'text', 'status']);
    expect((run.messages[1] as { text: string }).text).toMatch(/^slow 1 slow 2 .*slow 24 $/);
    expect(run.messages[2]).toEqual({ type: 'status', state: 'cancelled' });
    expect(run.results).toEqual([]);
  });

  it('emits only messages the contract accepts', () => {
    for (const fixture of FIXTURES) {
      expectMessagesAcceptedByContract(replayFixture(fixture).messages);
    }
  });
});

describe('ACP event translator (protocol cases Gemini did not show)', () => {
  it('splits thought and message chunks into thinking and text, and closes a failed tool call', () => {
    const run = replayEvents([
      ...opening,
      update('agent_thought_chunk', { content: { type: 'text', text: 'Let me ' } }),
      update('agent_thought_chunk', { content: { type: 'text', text: 'think.' } }),
      update('agent_message_chunk', { content: { type: 'text', text: 'Reading.' } }),
      update('tool_call', { toolCallId: 'c-1', title: 'Read a.txt', kind: 'read', status: 'pending', rawInput: { path: 'a.txt' }, locations: [{ path: '/w/a.txt' }] }),
      update('tool_call_update', { toolCallId: 'c-1', status: 'in_progress' }),
      update('tool_call_update', { toolCallId: 'c-1', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'ENOENT' } }] }),
      update('agent_message_chunk', { content: { type: 'text', text: 'Done.' } }),
      agent({ id: 2, result: { stopReason: 'end_turn' } }),
    ]);
    expect(run.messages.slice(1)).toEqual([
      { type: 'thinking', text: 'Let me think.' },
      { type: 'text', text: 'Reading.' },
      { type: 'tool-use', tool: 'read', callId: 'c-1', input: { title: 'Read a.txt', rawInput: { path: 'a.txt' }, locations: ['/w/a.txt'] } },
      { type: 'tool-result', callId: 'c-1', tool: 'read', output: 'ENOENT', status: 'error' },
      { type: 'text', text: 'Done.' },
    ]);
    expect(run.results).toEqual([{ status: 'completed' }]);
  });

  it.each([
    ['refusal', 'the agent refused to continue'],
    ['max_tokens', 'the model reached its output token limit'],
  ])('fails the run on stop reason %s', (stopReason, errorMessage) => {
    const run = replayEvents([...opening, agent({ id: 2, result: { stopReason } })]);
    expect(run.results).toEqual([{ status: 'failed', errorMessage }]);
    expect(run.messages.at(-1)).toEqual({ type: 'error', code: `acp_${stopReason}`, message: errorMessage });
  });

  it('reports unknown updates and stray responses instead of dropping them', () => {
    const run = replayEvents([...opening, update('brand_new_update', {}), agent({ id: 99, result: null }), { frame: 'nope' }]);
    expect(run.malformed).toEqual(['unknown acp session update brand_new_update', 'acp response to no known request', 'not a JSON-RPC frame']);
  });
});
