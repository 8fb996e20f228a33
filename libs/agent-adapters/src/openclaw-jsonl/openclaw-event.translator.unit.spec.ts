import { expectMessagesAcceptedByContract, fixtureReader, replay, type TranslatorRecording } from '../backend/translator-replay.spec-helper';
import { createOpenClawDocumentAssembler } from './openclaw-document.assembler';
import { createOpenClawEventTranslator, type OpenClawEventTranslatorOptions } from './openclaw-event.translator';
import { openClawMessage } from './openclaw-jsonl.backend';

const fixtures = fixtureReader(__dirname);

/** Feeds stdout text line by line, as the session does with `lineFormat: 'text'`. */
const replayText = (stdout: string, options: OpenClawEventTranslatorOptions = {}): TranslatorRecording =>
  replay(
    (context) => createOpenClawEventTranslator(context, options),
    stdout.split('\n').filter((text) => text.trim() !== ''),
  );

/** Replays stdout recorded from the real openclaw 2026.9.6 (`agent --local --json`) run offline against the mock model server. */
const replayFixture = (name: string, options: OpenClawEventTranslatorOptions = {}): TranslatorRecording => replayText(fixtures.text(name), options);

const RECORDED = ['tool-call-then-text.json', 'resumed-text.json', 'timed-out-tool-loop.json'];

describe('OpenClaw agent --json translator (recorded replies of openclaw 2026.9.6)', () => {
  it('turns the reply of a run with a shell call into text, usage, tool activity, session and result', () => {
    const sessionId = '5a1e2d4c-1111-4222-8333-444455556666';
    const run = replayFixture('tool-call-then-text.json', { sessionId });

    expect(run.messages).toEqual([
      { type: 'status', sessionId, state: 'started' },
      { type: 'usage', provider: 'mock', model: 'mock-model', inputTokens: 29625, outputTokens: 25, cacheReadTokens: 0, cacheWriteTokens: 0 },
      { type: 'log', level: 'info', text: 'openclaw ran 1 tool call(s): exec; 0 failed' },
      { type: 'text', text: 'Mock model final answer. Tool output: (no output)' },
    ]);
    expect(run.sessionIds).toEqual([sessionId]);
    expect(run.usage).toEqual([{ provider: 'mock', model: 'mock-model', inputTokens: 29625, outputTokens: 25, cacheReadTokens: 0, cacheWriteTokens: 0 }]);
    expect(run.toolsStarted).toEqual(['openclaw-tool-summary']);
    expect(run.results).toEqual([{ status: 'completed', output: 'Mock model final answer. Tool output: (no output)' }]);
    expect(run.malformed).toEqual([]);
  });

  it('reads the session id from the reply when none was given', () => {
    const run = replayFixture('resumed-text.json');
    expect(run.sessionIds).toEqual(['5a1e2d4c-1111-4222-8333-444455556666']);
    expect(run.toolsStarted).toEqual([]);
    expect(run.results).toEqual([{ status: 'completed', output: 'Mock model reply.' }]);
  });

  it('fails a run that left only an error payload (a timeout in the middle of a tool loop)', () => {
    const run = replayFixture('timed-out-tool-loop.json');
    expect(run.messages).toContainEqual({ type: 'error', code: 'openclaw_reply_error', message: '⚠️ Exec failed' });
    expect(run.results).toEqual([{ status: 'failed', errorMessage: '⚠️ Exec failed' }]);
    expect(run.toolsStarted).toEqual(['openclaw-tool-summary']);
  });

  it('emits only messages the contract accepts', () => {
    for (const name of RECORDED) {
      expectMessagesAcceptedByContract(replayFixture(name, { sessionId: 's-1' }).messages);
    }
  });

  // Shapes from the package source: formatCliJsonFailure (dist/failure-output-*.mjs), the Gateway
  // response (dist/agent-via-gateway-*.mjs) and the envelope's meta.error / aborted fields.
  it('reads a CLI failure, a Gateway response, an aborted run and a reasoning payload', () => {
    const failure = replayText(JSON.stringify({ ok: false, error: { type: 'cli_error', message: '--session-id must not be blank' } }, undefined, 2));
    expect(failure.messages).toEqual([{ type: 'error', code: 'openclaw_cli_error', message: '--session-id must not be blank' }]);
    expect(failure.results).toEqual([{ status: 'failed', errorMessage: '--session-id must not be blank' }]);

    const gateway = replayText(JSON.stringify({ runId: 'r-1', status: 'ok', result: { payloads: [{ text: 'Via gateway.' }], meta: { agentMeta: { sessionId: 'g-1' } } } }));
    expect(gateway.sessionIds).toEqual(['g-1']);
    expect(gateway.results).toEqual([{ status: 'completed', output: 'Via gateway.' }]);

    const timedOut = replayText(JSON.stringify({ runId: 'r-2', status: 'timeout', result: { payloads: [], meta: {} } }));
    expect(timedOut.results).toEqual([{ status: 'failed', errorMessage: 'the openclaw run ended with status timeout' }]);

    const aborted = replayText(JSON.stringify({ payloads: [{ text: 'Partial.' }], meta: { aborted: true } }, undefined, 2));
    expect(aborted.results).toEqual([{ status: 'failed', errorMessage: 'the openclaw run was aborted' }]);

    const withError = replayText(JSON.stringify({ payloads: [{ text: 'Quota exceeded', isError: true }], meta: { error: { message: 'provider failed', kind: 'provider' } } }, undefined, 2));
    expect(withError.results).toEqual([{ status: 'failed', errorMessage: 'provider failed: Quota exceeded' }]);

    const reasoning = replayText(JSON.stringify({ payloads: [{ text: 'Thinking...', isReasoning: true }, { text: 'Answer.' }, { text: '  ', mediaUrl: null }], meta: { stopReason: 'stop' } }, undefined, 2));
    expect(reasoning.messages).toEqual([
      { type: 'thinking', text: 'Thinking...' },
      { type: 'text', text: 'Answer.' },
    ]);
    expectMessagesAcceptedByContract([failure, gateway, timedOut, aborted, withError, reasoning].flatMap((run) => run.messages));
  });

  it('reports text outside a JSON document and a document that is no reply, instead of dropping them', () => {
    const run = replayText('Gateway agent connection closed during handshake\n{"unrelated": true}\n');
    expect(run.malformed).toEqual(['text outside a JSON document', 'not an openclaw reply']);
    expect(run.results).toEqual([]);
  });
});

describe('OpenClaw document assembler', () => {
  it('joins a pretty-printed document and reads a compact one at once', () => {
    const assemble = createOpenClawDocumentAssembler();
    const lines = JSON.stringify({ payloads: [{ text: 'a\n}' }], meta: { nested: { deep: [1, { x: '}' }] } } }, undefined, 2).split('\n');
    const kinds = lines.map((line) => assemble(line).kind);
    expect(kinds.slice(0, -1).every((kind) => kind === 'pending')).toBe(true);
    expect(kinds.at(-1)).toBe('document');
    expect(assemble('{"payloads":[]}')).toEqual({ kind: 'document', value: { payloads: [] } });
  });
});

describe('OpenClaw message', () => {
  it('puts the runtime brief before the prompt', () => {
    expect(openClawMessage('Fix the bug', 'You are working on task 42.')).toBe('You are working on task 42.\n\nFix the bug');
    expect(openClawMessage('Fix the bug', undefined)).toBe('Fix the bug');
    expect(openClawMessage('Fix the bug', '  ')).toBe('Fix the bug');
  });
});
