import type { AgentMessage, TokenUsage } from '@switchyard/contracts';
import { MAX_JSON_DEPTH } from './agent-message.guard';
import { createAgentSession, type CreateAgentSessionOptions } from './agent-session';
import type { AgentSession } from './backend.types';
import { fakeCliRun, isProcessAlive, passThroughTranslator, type FakeCliStep } from './fake-cli.spec-helper';
import { collectMessages } from './session-drain.spec-helper';
import { expectMessagesAcceptedByContract } from './translator-replay.spec-helper';
import type { TranslatorFactory, TranslatorResult } from './translator.types';

function startSession(steps: FakeCliStep[], overrides: Partial<CreateAgentSessionOptions> & { timeouts?: CreateAgentSessionOptions['run']['timeouts']; signal?: AbortSignal } = {}): AgentSession {
  const { timeouts, signal, ...rest } = overrides;
  const launch = fakeCliRun(steps);
  return createAgentSession({
    run: {
      cwd: launch.cwd,
      env: {},
      executable: launch.executable,
      launchArgs: launch.launchArgs,
      timeouts: { idleMs: 5000, toolBudgetMs: 10_000, totalMs: 30_000, exitGraceMs: 300, ...timeouts },
      ...(signal ? { signal } : {}),
    },
    adapterArgs: launch.adapterArgs,
    createTranslator: passThroughTranslator,
    killGraceMs: 300,
    ...rest,
  });
}

/**
 * Like a translator that casts native fields unchecked: every event is emitted as it is, and the
 * fact events hand their values over as they are.
 */
const uncheckedTranslator: TranslatorFactory = (context) => (event) => {
  const record = event as Record<string, unknown>;
  if (record['type'] === 'session') context.reportSessionId(record['id'] as string);
  else if (record['type'] === 'usage-report') context.reportUsage(record['usage'] as TokenUsage);
  else if (record['type'] === 'result') context.reportResult(record['result'] as TranslatorResult);
  else if (record['type'] === 'malformed') context.reportMalformed(record['reason'] as string, record['line'] as string);
  else context.emit(event as AgentMessage);
};

const text = (value: string): FakeCliStep => ({ print: { type: 'text', text: value } });
const result = (output: string): FakeCliStep => ({ print: { type: 'result', output } });

describe('agent session', () => {
  it('streams unified messages and assembles the result from reported facts', async () => {
    const session = startSession([
      { print: { type: 'session', id: 'session-1' } },
      text('working'),
      { print: { type: 'usage-report', model: 'model-a', input: 1, output: 2 } },
      { print: { type: 'usage-report', model: 'model-a', input: 10, output: 20 } },
      { print: { type: 'usage-report', model: 'model-b', input: 3, output: 4 } },
      result('all done'),
    ]);
    const messages = await collectMessages(session);
    const outcome = await session.result;

    expect(messages).toEqual([{ type: 'text', text: 'working' }]);
    expect(outcome).toMatchObject({ status: 'completed', output: 'all done', sessionId: 'session-1', resumeRejected: false, toolRan: false, exitCode: 0 });
    expect(outcome.usage).toEqual([
      { model: 'model-a', inputTokens: 10, outputTokens: 20 },
      { model: 'model-b', inputTokens: 3, outputTokens: 4 },
    ]);
    expect(outcome.error).toBeUndefined();
  });

  describe('a resume refused in prose (resumeRejectedPattern)', () => {
    const refusal: FakeCliStep[] = [{ stderr: 'No saved session found with ID abc\n' }, { printRaw: 'Error: Session not found\n' }, { exit: 1 }];
    const startResume = (resumeSessionId: string | undefined, pattern: RegExp): AgentSession => {
      const launch = fakeCliRun(refusal);
      return createAgentSession({
        run: { cwd: launch.cwd, env: {}, executable: launch.executable, launchArgs: launch.launchArgs, ...(resumeSessionId ? { resumeSessionId } : {}) },
        adapterArgs: launch.adapterArgs,
        createTranslator: passThroughTranslator,
        resumeRejectedPattern: pattern,
      });
    };

    it('counts stderr matching the pattern as a rejected resume when a resume was asked', async () => {
      const session = startResume('abc', /No saved session found/);
      await collectMessages(session);
      expect(await session.result).toMatchObject({ status: 'failed', resumeRejected: true, error: { code: 'resume_rejected' } });
    });

    it('also reads plain-text stdout lines', async () => {
      const session = startResume('abc', /Session not found/);
      await collectMessages(session);
      expect(await session.result).toMatchObject({ status: 'failed', resumeRejected: true });
    });

    it('ignores the pattern when no resume was asked', async () => {
      const session = startResume(undefined, /Session not found/);
      await collectMessages(session);
      expect(await session.result).toMatchObject({ status: 'failed', resumeRejected: false, error: { code: 'cli_exited_nonzero' } });
    });
  });

  it('places profile launch arguments before the adapter arguments', async () => {
    const launch = fakeCliRun([{ printArgs: true }, result('')]);
    const session = createAgentSession({
      run: { cwd: launch.cwd, env: {}, executable: launch.executable, launchArgs: [...launch.launchArgs, '--profile-flag'] },
      adapterArgs: ['--adapter-flag', ...launch.adapterArgs],
      createTranslator: passThroughTranslator,
    });
    const [status] = await collectMessages(session);
    expect(JSON.parse((status as { progress: string }).progress)).toEqual({ type: 'args', args: ['--profile-flag', '--adapter-flag'] });
  });

  it('delivers the prompt through stdin, never argv, and closes stdin once the result is in', async () => {
    const session = startSession([{ echoStdin: true }, result('echoed')], {
      start: (input) => input.writeStdin('{"prompt":"fix the bug"}\n'),
      createTranslator: (context) => {
        const translate = passThroughTranslator(context);
        return (event) => {
          translate(event);
          if ((event as { type: string }).type === 'stdin') context.reportResult({ status: 'completed', output: 'echoed' });
        };
      },
    });
    const messages = await collectMessages(session);
    expect(messages).toEqual([{ type: 'status', state: 'stdin', progress: JSON.stringify({ type: 'stdin', line: '{"prompt":"fix the bug"}' }) }]);
    await expect(session.result).resolves.toMatchObject({ status: 'completed', output: 'echoed' });
  });

  it('turns malformed, invalid UTF-8 and oversized lines into counted diagnostics and keeps reading', async () => {
    const session = startSession(
      [
        { printRaw: 'not json at all\n' },
        { printBytes: [0xff, 0xfe, 0x0a] },
        { printRaw: '\n' },
        { bigLine: 2 * 1024 * 1024 },
        { printBytes: [...Buffer.from('{"type":"text","text":"a'), 0xff, ...Buffer.from('b"}\n')] },
        { print: { type: 'unknown-vendor-event' } },
        result('done'),
      ],
      { maxLineBytes: 1024 * 1024 },
    );
    const messages = await collectMessages(session);
    const outcome = await session.result;

    expectMessagesAcceptedByContract(messages);
    expect(messages.filter((message) => message.type === 'log')).toHaveLength(3);
    expect(messages).toContainEqual(expect.objectContaining({ type: 'error', code: 'output_line_too_long' }));
    expect(messages).toContainEqual({ type: 'text', text: 'a\uFFFDb' });
    expect(outcome).toMatchObject({ status: 'completed', diagnostics: { malformedLines: 3, oversizedLines: 1, blankLines: 1 } });
  });

  it('reports a missing CLI as a failed run with cli_not_found', async () => {
    const session = createAgentSession({
      run: { cwd: process.cwd(), env: { PATH: '/usr/bin:/bin' }, executable: 'switchyard-missing-agent' },
      adapterArgs: [],
      createTranslator: passThroughTranslator,
    });
    await expect(collectMessages(session)).resolves.toEqual([]);
    await expect(session.result).resolves.toMatchObject({ status: 'failed', error: { code: 'cli_not_found', message: expect.stringContaining('switchyard-missing-agent') } });
  });

  it('fails a non-zero exit without a result and attaches the stderr tail', async () => {
    const session = startSession([text('partial'), { stderr: 'API key rejected' }, { exit: 2 }]);
    const outcome = await session.result;
    expect(outcome).toMatchObject({ status: 'failed', exitCode: 2, output: 'partial', error: { code: 'cli_exited_nonzero' } });
    expect(outcome.error?.stderrTail).toContain('API key rejected');
  });

  it('fails a clean exit that never reported a result', async () => {
    const session = startSession([text('hello')]);
    await expect(session.result).resolves.toMatchObject({ status: 'failed', exitCode: 0, error: { code: 'cli_exited_without_result' } });
  });

  it('ends a silent CLI with idle_timeout and kills it', async () => {
    const session = startSession([{ spawnGrandchild: {} }, { hang: true }], { timeouts: { idleMs: 300 } });
    const [grandchild] = await collectMessages(session);
    const outcome = await session.result;
    expect(outcome).toMatchObject({ status: 'timeout', error: { code: 'idle_timeout' }, exitSignal: 'SIGTERM' });
    expect(isProcessAlive((JSON.parse((grandchild as { progress: string }).progress) as { pid: number }).pid)).toBe(false);
  });

  it('allows the longer tool budget while a tool call is open', async () => {
    const session = startSession(
      [
        { print: { type: 'tool-use', tool: 'bash', callId: 'call-1', input: { command: 'make' } } },
        { sleep: 2_500 },
        { print: { type: 'tool-result', callId: 'call-1', output: 'built', status: 'ok' } },
        result('built it'),
      ],
      // The idle window also covers the fake CLI's start, which a loaded CI machine stretched past 200 ms.
      { timeouts: { idleMs: 1_500, toolBudgetMs: 10_000 } },
    );
    await expect(session.result).resolves.toMatchObject({ status: 'completed', toolRan: true, output: 'built it' });
  });

  it('ends a tool call that stays silent past the tool budget with tool_timeout', async () => {
    const session = startSession([{ print: { type: 'tool-use', tool: 'bash', callId: 'call-1', input: null } }, { hang: true }], { timeouts: { idleMs: 1_500, toolBudgetMs: 2_500 } });
    await expect(session.result).resolves.toMatchObject({ status: 'timeout', toolRan: true, error: { code: 'tool_timeout' } });
  });

  it('keeps a reported result completed when the CLI lingers and has to be killed on its way out', async () => {
    const session = startSession([{ ignoreSigterm: true }, result('finished'), { hang: true }], { timeouts: { idleMs: 60_000, exitGraceMs: 200 } });
    const outcome = await session.result;
    expect(outcome).toMatchObject({ status: 'completed', output: 'finished', exitSignal: 'SIGKILL' });
    expect(outcome.error).toBeUndefined();
  });

  it('cancels: kills the tree, ends the stream and reports cancelled', async () => {
    const session = startSession([{ spawnGrandchild: { ignoreSigterm: true } }, { hang: true }]);
    const iterator = session.messages[Symbol.asyncIterator]();
    const first = await iterator.next();
    const grandchildPid = (JSON.parse((first.value as { progress: string }).progress) as { pid: number }).pid;

    await session.cancel();

    expect(isProcessAlive(grandchildPid)).toBe(false);
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
    await expect(session.result).resolves.toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
  });

  it('reports an aborted signal as aborted', async () => {
    const controller = new AbortController();
    const session = startSession([{ hang: true }], { signal: controller.signal });
    controller.abort();
    await expect(session.result).resolves.toMatchObject({ status: 'aborted', error: { code: 'aborted' } });
  });

  it('reports a rejected resume with no tool run, so the caller may retry fresh', async () => {
    const session = startSession([{ print: { type: 'resume-rejected' } }, { print: { type: 'result', status: 'failed' } }, { exit: 1 }]);
    await expect(session.result).resolves.toMatchObject({ status: 'failed', resumeRejected: true, toolRan: false, error: { code: 'resume_rejected' } });
  });

  it('loses nothing when the consumer is slower than the CLI', async () => {
    const steps: FakeCliStep[] = Array.from({ length: 300 }, (_, index) => text(`line ${index}`));
    const session = startSession([...steps, result('done')], { messageHighWaterMark: 10 });
    const received: string[] = [];
    for await (const message of session.messages) {
      if (message.type === 'text') received.push(message.text);
      if (received.length % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(received).toEqual(steps.map((_, index) => `line ${index}`));
    await expect(session.result).resolves.toMatchObject({ status: 'completed' });
  });

  describe('messages outside the contract', () => {
    const completedResult = (result: Record<string, unknown> = {}): FakeCliStep => ({ print: { type: 'result', result: { status: 'completed', ...result } } });

    it('replaces each by a counted error naming the field, keeps reading and completes; a number never becomes the output', async () => {
      const session = startSession(
        [
          text('kept'),
          { print: { type: 'text', text: 42 } },
          { print: { type: 'tool-use', tool: { not: 'a string' }, callId: 7, input: 'x' } },
          { print: { type: 'tool-result', callId: null, output: 5, status: 'ok' } },
          text('after the wrong types'),
          completedResult(),
        ],
        { createTranslator: uncheckedTranslator },
      );
      const messages = await collectMessages(session);
      const outcome = await session.result;

      expectMessagesAcceptedByContract(messages);
      expect(messages).toEqual([
        { type: 'text', text: 'kept' },
        { type: 'error', code: 'agent_message_invalid', message: expect.stringMatching(/^dropped a text message outside the contract: text: /) },
        { type: 'error', code: 'agent_message_invalid', message: expect.stringMatching(/^dropped a tool-use message outside the contract: tool: /) },
        { type: 'error', code: 'agent_message_invalid', message: expect.stringMatching(/^dropped a tool-result message outside the contract: callId: /) },
        { type: 'text', text: 'after the wrong types' },
      ]);
      expect(outcome).toMatchObject({ status: 'completed', output: 'after the wrong types', toolRan: false, diagnostics: { invalidMessages: 3, malformedLines: 0 } });
    });

    it('keeps a tool call whose input is nested 10 000 levels deep, with a placeholder input, so pairing and the tool budget hold', async () => {
      const deepInput = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      const session = startSession(
        [
          { printRaw: `{"type":"tool-use","tool":"bash","callId":"call-deep","input":${deepInput}}\n` },
          // Longer than the idle timeout: only the open tool call's budget lets the run go on.
          { sleep: 2_500 },
          { print: { type: 'tool-result', callId: 'call-deep', output: 'done', status: 'ok' } },
          completedResult({ output: 'built it' }),
        ],
        { createTranslator: uncheckedTranslator, timeouts: { idleMs: 1_500, toolBudgetMs: 10_000 } },
      );
      const messages = await collectMessages(session);

      expectMessagesAcceptedByContract(messages);
      expect(messages).toEqual([
        { type: 'tool-use', tool: 'bash', callId: 'call-deep', input: { unreadable: `input is nested deeper than ${MAX_JSON_DEPTH} levels` } },
        { type: 'tool-result', callId: 'call-deep', output: 'done', status: 'ok' },
      ]);
      await expect(session.result).resolves.toMatchObject({ status: 'completed', toolRan: true, diagnostics: { invalidMessages: 1 } });
    });

    it('refuses wrong-typed facts (session id, usage, result output) with a counted error, and the result holds only what fits', async () => {
      const session = startSession(
        [
          { print: { type: 'session', id: 99 } },
          { print: { type: 'usage-report', usage: { model: 'model-a', inputTokens: 'many', outputTokens: null } } },
          { print: { type: 'usage-report', usage: { model: 'model-b', inputTokens: 1, outputTokens: 2 } } },
          text('the answer'),
          completedResult({ output: 42 }),
        ],
        { createTranslator: uncheckedTranslator },
      );
      const messages = await collectMessages(session);
      const outcome = await session.result;

      expectMessagesAcceptedByContract(messages);
      expect(messages.filter((message) => message.type === 'error').map((message) => message.type === 'error' && message.message)).toEqual([
        'dropped a session id outside the contract: the session id is a number, not a string',
        expect.stringMatching(/^dropped a usage report outside the contract: inputTokens: /),
        'dropped part of the result outside the contract: output: a number, not a string',
      ]);
      expect(outcome).toMatchObject({ status: 'completed', output: 'the answer', usage: [{ model: 'model-b', inputTokens: 1, outputTokens: 2 }], diagnostics: { invalidMessages: 3 } });
      expect(outcome.sessionId).toBeUndefined();
    });

    it('keeps the diagnostic of a malformed report whose line is not text', async () => {
      const session = startSession([{ print: { type: 'malformed', reason: 'odd', line: 42 } }, completedResult()], { createTranslator: uncheckedTranslator });
      const messages = await collectMessages(session);

      expect(messages).toEqual([{ type: 'log', level: 'warn', text: 'unreadable CLI output (odd): 42' }]);
      await expect(session.result).resolves.toMatchObject({ status: 'completed', diagnostics: { malformedLines: 1, invalidMessages: 0 } });
    });
  });
});
