import type { AgentMessage } from '@switchyard/contracts';
import { expectMessagesAcceptedByContract, fixtureReader, replay as replayEvents, type TranslatorRecording } from '../backend/translator-replay.spec-helper';
import { CODEX_ADAPTER_ID, createCodexEventTranslator } from './codex-event.translator';

const FIXTURES = ['tool-call-then-text.jsonl', 'approval-request.jsonl', 'resumed-text.jsonl', 'bogus-resume.jsonl', 'interrupted-turn.jsonl'];

const fixtures = fixtureReader(__dirname);

/**
 * Replays stdout frames recorded from the real `codex app-server` 0.171.0 against the mock model
 * server. Lines shaped `{"direction":"sent",...}` are what the client wrote; they are skipped.
 */
function replay(fixture: string): TranslatorRecording {
  const received = fixtures.jsonLines(fixture).filter((frame) => (frame as { direction?: string }).direction !== 'sent');
  return replayEvents(createCodexEventTranslator, received);
}

const withoutUsage = (messages: readonly AgentMessage[]): AgentMessage[] => messages.filter((message) => message.type !== 'usage');

describe('Codex app-server translator (recorded frames of Codex 0.171.0)', () => {
  it('turns a shell call and the final answer into timeline messages, session, usage and result', () => {
    const run = replay('tool-call-then-text.jsonl');
    const threadId = '01a22999-d871-78a2-ad5b-cf916913cf12';
    const callId = 'call_808839dd999f4f14912fb0ac';
    const finalText = 'Mock model final answer. Tool output: Chunk ID: 693d8f\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 0\nOutput:';

    expect(withoutUsage(run.messages)).toEqual([
      { type: 'status', sessionId: threadId, state: 'started' },
      {
        type: 'tool-use',
        tool: 'commandExecution',
        callId,
        input: { command: `/bin/bash -lc "printf '%s' 'hello from the mock' > '/root/.cache/switchyard-codex/work1/out.txt'"`, cwd: '/root/.cache/switchyard-codex/work1' },
      },
      { type: 'tool-result', callId, tool: 'commandExecution', output: '', status: 'ok', metadata: { [CODEX_ADAPTER_ID]: { exitCode: 0, durationMs: 0, status: 'completed' } } },
      { type: 'text', text: finalText },
    ]);
    expect(run.sessionIds).toEqual([threadId]);
    expect(run.usage.at(-1)).toEqual({ provider: 'mock', model: 'mock-model', inputTokens: 19252, outputTokens: 58, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(run.messages.filter((message) => message.type === 'usage')).toHaveLength(2);
    expect(run.results).toEqual([{ status: 'completed', output: finalText }]);
    expect(run.malformed).toEqual([]);
  });

  it('shows the same tool call when Codex asked for approval first (the request itself is the connection’s)', () => {
    const run = replay('approval-request.jsonl');
    expect(withoutUsage(run.messages).map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
    expect(run.results).toEqual([{ status: 'completed', output: expect.stringContaining('Mock model final answer') as string }]);
    expect(run.malformed).toEqual([]);
  });

  it('takes the session id of a resumed thread from the thread/resume response', () => {
    const run = replay('resumed-text.jsonl');
    expect(run.sessionIds).toEqual(['01a22999-e260-7170-be08-e12eeb58048c']);
    expect(withoutUsage(run.messages)).toEqual([
      { type: 'status', sessionId: '01a22999-e260-7170-be08-e12eeb58048c', state: 'started' },
      { type: 'text', text: 'Mock model reply. Remembered from earlier turns: tangerine.' },
    ]);
    expect(run.results).toEqual([{ status: 'completed', output: 'Mock model reply. Remembered from earlier turns: tangerine.' }]);
    expect(run.malformed).toEqual([]);
  });

  it('adopts nothing from a bogus resume: the error response is left to the backend', () => {
    const run = replay('bogus-resume.jsonl');
    expect(run).toEqual({ messages: [], sessionIds: [], usage: [], results: [], resumeRejected: 0, toolsStarted: [], toolsFinished: [], malformed: [] });
  });

  it('reports an interrupted turn as a failed result, emitting no partial text', () => {
    const run = replay('interrupted-turn.jsonl');
    expect(run.messages).toEqual([
      { type: 'status', sessionId: '01a22999-ec72-7dd3-b117-da635a0d3c51', state: 'started' },
      { type: 'status', sessionId: '01a22999-ec72-7dd3-b117-da635a0d3c51', state: 'interrupted' },
    ]);
    expect(run.results).toEqual([{ status: 'failed', errorMessage: 'the turn was interrupted' }]);
  });

  it('never reports a rejected resume itself: that is left to the backend', () => {
    for (const fixture of FIXTURES) expect(replay(fixture).resumeRejected).toBe(0);
  });

  it('emits only messages the contract accepts', () => {
    for (const fixture of FIXTURES) {
      expectMessagesAcceptedByContract(replay(fixture).messages);
    }
  });

  it('reports a failed turn with its error once, and unknown notifications and items instead of dropping them', () => {
    const replayed = replayEvents(createCodexEventTranslator, [
      { method: 'error', params: { error: { message: 'stream disconnected' }, willRetry: true, threadId: 't', turnId: 'u' } },
      { method: 'error', params: { error: { message: 'quota exceeded' }, willRetry: false, threadId: 't', turnId: 'u' } },
      { method: 'turn/completed', params: { threadId: 't', turn: { id: 'u', status: 'failed', error: { message: 'quota exceeded' } } } },
      { method: 'brand/new', params: {} },
      { method: 'item/completed', params: { item: { type: 'hologram', id: 'x' }, threadId: 't', turnId: 'u' } },
    ]);

    expect(replayed.messages).toEqual([
      { type: 'log', level: 'warn', text: 'codex will retry: stream disconnected' },
      { type: 'error', code: 'codex_error', message: 'quota exceeded' },
    ]);
    expect(replayed.results).toEqual([{ status: 'failed', errorMessage: 'quota exceeded' }]);
    expect(replayed.malformed).toEqual(['unknown codex notification brand/new', 'unknown codex item type hologram']);
    expect(replayed.resumeRejected).toBe(0);
  });
});
