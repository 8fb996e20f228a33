import type { AgentMessage } from '@switchyard/contracts';
import { expectMessagesAcceptedByContract, fixtureReader, replay as replayTranslator, type TranslatorRecording } from '../backend/translator-replay.spec-helper';
import { piDialect, type PiDialectId } from './pi-dialect';
import { createPiEventTranslator, type PiEventTranslatorOptions } from './pi-event.translator';

const fixtures = fixtureReader(__dirname);

const replayEvents = (events: readonly unknown[], options: PiEventTranslatorOptions = {}): TranslatorRecording =>
  replayTranslator((context) => createPiEventTranslator(context, options), events);

const replay = (name: string, options: PiEventTranslatorOptions = {}): TranslatorRecording => replayEvents(fixtures.jsonLines(name), options);

const withoutUsage = (messages: readonly AgentMessage[]): AgentMessage[] => messages.filter((message) => message.type !== 'usage');

describe('Pi JSON translator (recorded frames of Pi 0.73.1 against the mock model)', () => {
  it('turns a tool call and its final answer into timeline messages, session, usage and result', () => {
    const run = replay('pi-tool-call-then-text.jsonl');
    const sessionId = '01a22a6d-35af-700a-aa9a-a4b1a69c372b';
    const callId = 'call_d1b6d296fd994251b9289a39';
    const finalText = 'Mock model final answer. Tool output: (no output)';

    expect(withoutUsage(run.messages)).toEqual([
      { type: 'status', sessionId, state: 'started' },
      { type: 'tool-use', tool: 'bash', callId, input: { command: "printf '%s' 'hello' > '/tmp/pi-work-hp0die/out.txt'" } },
      { type: 'tool-result', callId, tool: 'bash', output: '(no output)', status: 'ok' },
      { type: 'text', text: finalText },
    ]);
    expect(run.sessionIds).toEqual([sessionId]);
    // One running total per model, summed over the model calls of the run.
    expect(run.usage.at(-1)).toEqual({ provider: 'mock', model: 'mock-model', inputTokens: 1411 + 1487, outputTokens: 17 + 13, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(run.messages.filter((message) => message.type === 'usage')).toHaveLength(2);
    expect(run.results).toEqual([{ status: 'completed', output: finalText }]);
    expect(run.malformed).toEqual([]);
  });

  it('keeps the session id of a resumed run and does not call it rejected', () => {
    const run = replay('pi-resumed-text.jsonl', { resumeSessionId: '01a22a6d-4e99-735b-a480-75602b0d290a' });

    expect(run.sessionIds).toEqual(['01a22a6d-4e99-735b-a480-75602b0d290a']);
    expect(run.resumeRejected).toBe(0);
    expect(run.results).toEqual([{ status: 'completed', output: 'Mock model reply. Remembered from earlier turns: tangerine.' }]);
  });

  it('calls a resume rejected when Pi opens another session than the one asked for', () => {
    const run = replay('pi-resumed-text.jsonl', { resumeSessionId: '01a22a6d-ffff' });

    expect(run.resumeRejected).toBe(1);
    expect(run.messages).toContainEqual({ type: 'log', level: 'warn', text: 'pi opened session 01a22a6d-4e99-735b-a480-75602b0d290a instead of 01a22a6d-ffff' });
  });

  it('accepts a session id prefix, as Pi resolves ids by prefix', () => {
    expect(replay('pi-resumed-text.jsonl', { resumeSessionId: '01a22a6d-4e99' }).resumeRejected).toBe(0);
  });

  it('reports a model error as an error message and leaves the result to the exit, since Pi may still retry', () => {
    const run = replay('pi-model-error.jsonl');

    expect(withoutUsage(run.messages)).toEqual([
      { type: 'status', sessionId: '01a22a6d-8a9c-719f-8913-e881426e21d2', state: 'started' },
      { type: 'error', code: 'pi_error', message: '400 Mock model error scenario: HTTP 400.' },
    ]);
    expect(run.results).toEqual([]);
    expect(run.usage).toEqual([]);
  });

  it('narrates automatic retries and reports no result when they are exhausted', () => {
    const run = replay('pi-retries-exhausted.jsonl');

    expect(run.messages.filter((message) => message.type === 'error')).toHaveLength(4);
    expect(run.messages.filter((message) => message.type === 'log').map((message) => (message as { text: string }).text)).toEqual([
      'pi retries the model call (attempt 1 of 3, in 50 ms): 503 Mock model error scenario: HTTP 503.',
      'pi retries the model call (attempt 2 of 3, in 100 ms): 503 Mock model error scenario: HTTP 503.',
      'pi retries the model call (attempt 3 of 3, in 200 ms): 503 Mock model error scenario: HTTP 503.',
      'pi gave up retrying after attempt 3: 503 Mock model error scenario: HTTP 503.',
    ]);
    expect(run.results).toEqual([]);
    expect(run.malformed).toEqual([]);
  });

  it('a run cancelled mid-stream announced its session and reports nothing else', () => {
    const run = replay('pi-cancelled-mid-stream.jsonl');

    expect(run.messages).toEqual([{ type: 'status', sessionId: '01a22a6f-bfc6-708a-96e5-b5e78ca394dd', state: 'started' }]);
    expect(run.results).toEqual([]);
  });

  it('a retry that succeeds completes the run with the later answer', () => {
    const recorded = (fixtures.jsonLines('pi-retries-exhausted.jsonl') as Array<{ type: string }>).slice(0, 10); // header ... first agent_end, auto_retry_start
    const answer = { role: 'assistant', content: [{ type: 'text', text: 'Recovered.' }], provider: 'mock', model: 'mock-model', usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0 }, stopReason: 'stop' };
    const run = replayEvents([
      ...recorded,
      { type: 'agent_start' },
      { type: 'message_end', message: answer },
      { type: 'auto_retry_end', success: true, attempt: 1 },
      { type: 'agent_end', messages: [answer] },
    ]);

    expect(recorded.at(-1)?.type).toBe('auto_retry_start');
    expect(run.results).toEqual([{ status: 'completed', output: 'Recovered.' }]);
    expect(run.messages).toContainEqual({ type: 'log', level: 'info', text: 'pi model call succeeded on retry 1' });
  });

  it('emits thinking as whole text, skips redacted thinking, and reports an aborted call as an error', () => {
    const run = replayEvents([
      {
        type: 'message_end',
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Let me think.' },
            { type: 'thinking', thinking: '', redacted: true },
            { type: 'text', text: 'Partial' },
          ],
          provider: 'mock',
          model: 'mock-model',
          stopReason: 'aborted',
          errorMessage: 'Request was aborted',
        },
      },
    ]);

    expect(withoutUsage(run.messages)).toEqual([
      { type: 'thinking', text: 'Let me think.' },
      { type: 'text', text: 'Partial' },
      { type: 'error', code: 'pi_aborted', message: 'Request was aborted' },
    ]);
  });

  it('reports a failed tool as an error result and reads a bare string result', () => {
    const run = replayEvents([
      { type: 'tool_execution_start', toolCallId: 't1', toolName: 'bash', args: { command: 'false' } },
      { type: 'tool_execution_end', toolCallId: 't1', toolName: 'bash', result: { content: [{ type: 'text', text: 'Command exited with code 1' }] }, isError: true },
      { type: 'tool_execution_end', toolCallId: 't2', toolName: 'read', result: 'ENOENT', isError: true },
    ]);

    expect(run.messages).toEqual([
      { type: 'tool-use', tool: 'bash', callId: 't1', input: { command: 'false' } },
      { type: 'tool-result', callId: 't1', tool: 'bash', output: 'Command exited with code 1', status: 'error' },
      { type: 'tool-result', callId: 't2', tool: 'read', output: 'ENOENT', status: 'error' },
    ]);
  });

  it('reports an unknown event type instead of dropping it', () => {
    const run = replayEvents([{ type: 'brand_new_event' }, 'not an object']);
    expect(run.malformed).toEqual(['unknown pi event type brand_new_event', 'unknown pi event type undefined']);
  });

  it('emits only messages the contract accepts', () => {
    const fixtures: Array<[string, PiDialectId]> = [
      ['pi-tool-call-then-text.jsonl', 'pi'],
      ['pi-resumed-text.jsonl', 'pi'],
      ['pi-model-error.jsonl', 'pi'],
      ['pi-retries-exhausted.jsonl', 'pi'],
      ['pi-cancelled-mid-stream.jsonl', 'pi'],
      ['omp-tool-call-then-text.jsonl', 'omp'],
      ['omp-retries-exhausted.jsonl', 'omp'],
    ];
    for (const [name, dialect] of fixtures) {
      expectMessagesAcceptedByContract(replay(name, { dialect }).messages);
    }
  });

  it('recognises the refusals Pi prints for an unknown session and for a session of another cwd', () => {
    const pattern = piDialect('pi').resumeRejectedPattern;
    expect(pattern.test(fixtures.text('pi-bogus-resume.stderr.txt'))).toBe(true);
    expect(pattern.test(fixtures.text('pi-foreign-session.stderr.txt'))).toBe(true);
    expect(pattern.test('Error: 400 Mock model error scenario')).toBe(false);
  });
});

/** omp frames written in the format of omp 18.3.4's print mode (`printableEvent`); omp needs Bun, not installed here. */
describe('Pi JSON translator, omp dialect (documented frames of omp 18.3.4)', () => {
  it('reads the slimmed stream, thinking, tool call, usage with cache reads and the terminal agent_end', () => {
    const run = replay('omp-tool-call-then-text.jsonl', { dialect: 'omp' });

    expect(withoutUsage(run.messages)).toEqual([
      { type: 'status', sessionId: '019a7c2e-5b1d-7f3a-9c44-2f8e6d1b0a77', state: 'started' },
      { type: 'thinking', text: 'I should write the file.' },
      { type: 'tool-use', tool: 'bash', callId: 'call_omp_1', input: { command: "printf '%s' 'hello' > '/work/project/out.txt'" } },
      { type: 'tool-result', callId: 'call_omp_1', tool: 'bash', output: '(no output)', status: 'ok' },
      { type: 'text', text: 'Mock model final answer. Tool output: (no output)' },
      { type: 'log', level: 'warn', text: 'omp notice: context files truncated' },
    ]);
    expect(run.usage.at(-1)).toEqual({ provider: 'switchyard', model: 'mock-model', inputTokens: 2500, outputTokens: 32, cacheReadTokens: 100, cacheWriteTokens: 0 });
    expect(run.results).toEqual([{ status: 'completed', output: 'Mock model final answer. Tool output: (no output)' }]);
    expect(run.malformed).toEqual([]);
  });

  it('waits through a non-terminal agent_end and fails at the terminal one', () => {
    const run = replay('omp-retries-exhausted.jsonl', { dialect: 'omp' });

    expect(run.results).toEqual([{ status: 'failed', errorMessage: '503 Mock model error scenario: HTTP 503.' }]);
    expect(run.messages.filter((message) => message.type === 'error')).toEqual([
      { type: 'error', code: 'omp_error', message: '503 Mock model error scenario: HTTP 503.' },
      { type: 'error', code: 'omp_error', message: '503 Mock model error scenario: HTTP 503.' },
    ]);
    expect(run.malformed).toEqual([]);
  });

  it('resumes with --resume and recognises its refusal, which Pi words differently', () => {
    const omp = piDialect('omp');
    expect(omp.resumeFlag).toBe('--resume');
    expect(omp.resumeRejectedPattern.test(fixtures.text('omp-bogus-resume.stderr.txt'))).toBe(true);
    expect(piDialect('pi').resumeRejectedPattern.test(fixtures.text('omp-bogus-resume.stderr.txt'))).toBe(false);
  });

  it('omp-only events are unknown to the pi dialect', () => {
    const run = replayEvents([{ type: 'tool_stream_update', toolCallId: 'x', toolName: 'bash' }], { dialect: 'pi' });
    expect(run.malformed).toEqual(['unknown pi event type tool_stream_update']);
  });
});
