import { createRecordingContext, expectMessagesAcceptedByContract, fixtureReader, type TranslatorRecording } from '../backend/translator-replay.spec-helper';
import { createOpenCodeEventTranslator, OPENCODE_RESUME_REJECTED, type OpenCodeRunVerdict, type OpenCodeTranslatorOptions } from './opencode-event.translator';

const fixtures = fixtureReader(__dirname);

function replay(lines: readonly string[], options: OpenCodeTranslatorOptions = { model: 'switchyard/mock-model' }): TranslatorRecording & { readonly verdict: OpenCodeRunVerdict } {
  const { recording, context } = createRecordingContext();
  const translate = createOpenCodeEventTranslator(context, options);
  for (const line of lines) translate(JSON.parse(line));
  return { ...recording, verdict: translate.verdict() };
}

const ALL_FIXTURES = ['tool-call-then-text.jsonl', 'remember-text.jsonl', 'resumed-text.jsonl', 'api-error.jsonl', 'deveco-reasoning-tool-error.jsonl'];

describe('OpenCode run --format json translator (frames recorded from OpenCode 1.18.33)', () => {
  it('turns a tool call and its final answer into timeline messages, the session id and summed usage', () => {
    const run = replay(fixtures.lines('tool-call-then-text.jsonl'));
    const sessionId = 'ses_dd596372bffePFGjYCmDVWJbP1';

    expect(run.messages.map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
    expect(run.messages[0]).toEqual({ type: 'status', sessionId, state: 'started' });
    expect(run.messages[1]).toEqual({
      type: 'tool-use',
      tool: 'bash',
      callId: 'call_492d38f9f0ba4f7384e754e5',
      input: { command: "printf '%s' 'hello from the mock' > '/tmp/oc-explore/w/out.txt'" },
    });
    expect(run.messages[2]).toEqual({ type: 'tool-result', callId: 'call_492d38f9f0ba4f7384e754e5', tool: 'bash', output: '(no output)', status: 'ok' });
    expect(run.messages[3]).toEqual({ type: 'text', text: 'Mock model final answer. Tool output: (no output)' });
    expect(run.sessionIds).toEqual([sessionId]);
    // Two steps, two model calls: 7695 + 7774 in, 20 + 13 out; the last report is the run's total.
    expect(run.usage.at(-1)).toEqual({ provider: 'switchyard', model: 'mock-model', inputTokens: 15469, outputTokens: 33, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(run.results).toEqual([]);
    expect(run.verdict).toEqual({ finished: true });
    expect(run.malformed).toEqual([]);
  });

  it('does not count a stream cut after a tool-calls step as finished', () => {
    const run = replay(fixtures.lines('tool-call-then-text.jsonl').slice(0, 3));
    expect(run.verdict).toEqual({ finished: false, reason: 'the CLI exited while its last step still needed another model call' });
  });

  it('does not count a stream cut inside a step as finished', () => {
    const run = replay(fixtures.lines('tool-call-then-text.jsonl').slice(0, 5));
    expect(run.verdict).toEqual({ finished: false, reason: 'the CLI exited with a step still open' });
  });

  it('reads a resumed run like any other, keeping the session id', () => {
    const run = replay(fixtures.lines('resumed-text.jsonl'));
    expect(run.sessionIds).toEqual(['ses_dd58cf86bffea6zYoJH8Mmgwwo']);
    expect(run.messages.at(-1)).toEqual({ type: 'text', text: 'Mock model reply. Remembered from earlier turns: tangerine.' });
    expect(run.verdict.finished).toBe(true);
  });

  it('reports an error event as an error message and a failed result', () => {
    const run = replay(fixtures.lines('api-error.jsonl'));
    expect(run.messages).toEqual([
      { type: 'status', sessionId: 'ses_dd58c3c5effeJtZbbnzEjWoQGA', state: 'started' },
      { type: 'error', code: 'opencode_APIError', message: 'Mock model error scenario: HTTP 400.' },
    ]);
    expect(run.results).toEqual([{ status: 'failed', errorMessage: 'Mock model error scenario: HTTP 400.' }]);
    expect(run.verdict).toEqual({ finished: false, reason: 'Mock model error scenario: HTTP 400.' });
  });

  it('books usage to "unknown" when the run names no model', () => {
    const run = replay(fixtures.lines('remember-text.jsonl'), {});
    expect(run.usage.at(-1)).toMatchObject({ model: 'unknown' });
    expect(run.usage.at(-1)).not.toHaveProperty('provider');
  });

  it('recognizes the bogus-session refusal OpenCode prints on stderr', () => {
    expect(fixtures.text('bogus-resume.stderr.txt')).toMatch(OPENCODE_RESUME_REJECTED);
  });

  it('emits only messages the contract accepts', () => {
    for (const fixture of ALL_FIXTURES) {
      expectMessagesAcceptedByContract(replay(fixtures.lines(fixture)).messages);
    }
  });

  it('reports an unknown event type instead of dropping it', () => {
    const run = replay(['{"type":"brand_new_event","sessionID":"ses_x"}']);
    expect(run.malformed).toEqual(['unknown opencode event type brand_new_event']);
  });
});

describe('OpenCode-family frames in the documented format (DevEco Code, CodeArts Agent)', () => {
  it('turns reasoning into thinking, a failed tool into an error result, and a done event into the result', () => {
    const run = replay(fixtures.lines('deveco-reasoning-tool-error.jsonl'), { model: 'huawei/pangu' });

    expect(run.messages.map((message) => message.type)).toEqual(['status', 'thinking', 'tool-use', 'tool-result', 'text']);
    expect(run.messages[1]).toEqual({ type: 'thinking', text: 'The file may not exist; read it first.' });
    expect(run.messages[3]).toEqual({ type: 'tool-result', callId: 'call_read_1', tool: 'read', output: 'File not found: /work/missing.ets', status: 'error' });
    expect(run.results).toEqual([{ status: 'completed' }]);
    expect(run.verdict.finished).toBe(true);
  });

  it('adds reasoning tokens to output only for releases that report them apart', () => {
    const apart = replay(fixtures.lines('deveco-reasoning-tool-error.jsonl'), { model: 'huawei/pangu', reasoningReportedApart: true });
    const included = replay(fixtures.lines('deveco-reasoning-tool-error.jsonl'), { model: 'huawei/pangu', reasoningReportedApart: false });

    expect(apart.usage.at(-1)).toEqual({ provider: 'huawei', model: 'pangu', inputTokens: 2480, outputTokens: 60, cacheReadTokens: 1900, cacheWriteTokens: 16 });
    expect(included.usage.at(-1)).toMatchObject({ outputTokens: 42 });
  });

  it('does not count a step that produced nothing at all as a finished run', () => {
    const run = replay([
      '{"type":"step_start","sessionID":"ses_void","part":{"type":"step-start"}}',
      '{"type":"step_finish","sessionID":"ses_void","part":{"type":"step-finish","reason":"unknown","tokens":{"total":0,"input":0,"output":0,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}}',
    ]);
    expect(run.verdict).toEqual({ finished: false, reason: 'the last step produced no text, no tool call and no tokens' });
  });
});
