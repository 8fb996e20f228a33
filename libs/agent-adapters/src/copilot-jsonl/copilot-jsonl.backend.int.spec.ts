import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentMessage } from '@switchyard/contracts';
import type { AgentSession, BackendExecuteOptions } from '../backend/backend.types';
import { isProcessAlive } from '../backend/fake-cli.spec-helper';
import { collectMessages } from '../backend/session-drain.spec-helper';
import { expectMessagesAcceptedByContract, fixtureReader } from '../backend/translator-replay.spec-helper';
import { createCopilotJsonlBackend } from './copilot-jsonl.backend';

const FAKE_COPILOT = path.join(__dirname, '__fixtures__', 'fake-copilot.js');
const SESSION_ID = '59a933fa-1362-4d10-b8d2-16b12ff92598';

type Step = Record<string, unknown>;

let usageFileDirectory: string;
beforeEach(async () => {
  usageFileDirectory = await mkdtemp(path.join(tmpdir(), 'copilot-usage-'));
});
afterEach(async () => {
  await rm(usageFileDirectory, { recursive: true, force: true });
});

function run(steps: readonly Step[], overrides: Partial<BackendExecuteOptions> = {}): Promise<AgentSession> {
  return createCopilotJsonlBackend({ usageFileDirectory }).execute('Create out.txt', {
    cwd: tmpdir(),
    env: { FAKE_COPILOT_STEPS: JSON.stringify(steps) },
    executable: process.execPath,
    launchArgs: [FAKE_COPILOT],
    timeouts: { idleMs: 10_000, toolBudgetMs: 10_000, totalMs: 30_000, exitGraceMs: 1_000 },
    ...overrides,
  });
}

const argsOf = (messages: readonly AgentMessage[]): string[] => {
  const line = messages.find((message) => message.type === 'log' && message.text.startsWith('copilot: ["'));
  return JSON.parse((line as { text: string }).text.slice('copilot: '.length)) as string[];
};

const fixtures = fixtureReader(__dirname);

const recorded = (name: string): Step[] => fixtures.jsonLines(name).map((event) => ({ print: event }));

const USAGE_FILE = { modelMetrics: { 'gpt-5.4': { usage: { inputTokens: 26019, outputTokens: 41, cacheReadTokens: 0, cacheWriteTokens: 0 } } } };

describe('Copilot JSONL backend (fake copilot script)', () => {
  it('completes a recorded run, with the launch flags, the usage file and the session id', async () => {
    const session = await run([{ printArgs: true }, ...recorded('tool-call-then-text.jsonl'), { writeUsageFile: USAGE_FILE }, { exit: 0 }], { model: 'gpt-5.4' });
    const messages = await collectMessages(session);
    const result = await session.result;

    const args = argsOf(messages);
    expect(args.slice(0, 6)).toEqual(['--prompt=Create out.txt', '--output-format', 'json', '--allow-all', '--no-ask-user', '--usage-output-file']);
    expect(args).toEqual(expect.arrayContaining(['--model', 'gpt-5.4', '--session-id']));
    const mintedId = args[args.indexOf('--session-id') + 1];
    expect(messages[0]).toEqual({ type: 'status', sessionId: mintedId, state: 'started' });
    expect(result).toMatchObject({
      status: 'completed',
      output: 'Mock model final answer. Tool output: <shellId: 0 completed with exit code 0>',
      sessionId: SESSION_ID,
      toolRan: true,
      resumeRejected: false,
      exitCode: 0,
    });
    expect(result.usage).toEqual([{ provider: 'github', model: 'gpt-5.4', inputTokens: 26019, outputTokens: 41, cacheReadTokens: 0, cacheWriteTokens: 0 }]);
    expect(readdirSync(usageFileDirectory)).toEqual([]);
    expectMessagesAcceptedByContract(messages);
  });

  it('passes the resume id instead of minting one', async () => {
    const session = await run([{ printArgs: true }, ...recorded('resumed-text.jsonl'), { exit: 0 }], { resumeSessionId: SESSION_ID });
    const messages = await collectMessages(session);
    const args = argsOf(messages);

    expect(args[args.indexOf('--resume') + 1]).toBe(SESSION_ID);
    expect(args).not.toContain('--session-id');
    expect(await session.result).toMatchObject({ status: 'completed', sessionId: SESSION_ID, output: 'Mock model reply.' });
  });

  it('reports only what a resumed run added to the whole-session usage file', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'copilot-home-'));
    const sessionDirectory = path.join(home, '.copilot', 'session-state', SESSION_ID);
    await mkdir(sessionDirectory, { recursive: true });
    const shutdown = { type: 'session.shutdown', data: { accountingSnapshot: { modelMetrics: { 'gpt-5.4': { usage: { inputTokens: 26000, outputTokens: 40 } } } } } };
    await writeFile(path.join(sessionDirectory, 'events.jsonl'), `${JSON.stringify({ type: 'session.start', data: { sessionId: SESSION_ID } })}\n${JSON.stringify(shutdown)}\n`);
    try {
      const total = { modelMetrics: { 'gpt-5.4': { usage: { inputTokens: 38044, outputTokens: 55 } } } };
      const steps = [...recorded('resumed-text.jsonl'), { writeUsageFile: total }, { exit: 0 }];
      const session = await run(steps, { resumeSessionId: SESSION_ID, env: { FAKE_COPILOT_STEPS: JSON.stringify(steps), HOME: home } });
      await collectMessages(session);
      expect((await session.result).usage).toEqual([{ provider: 'github', model: 'gpt-5.4', inputTokens: 12044, outputTokens: 15 }]);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('reads a refused resume from stderr', async () => {
    const refusal = "Error: No session, task, or name matched '00000000-0000-4000-8000-000000000000'.";
    const session = await run([{ stderr: refusal }, { exit: 1 }], { resumeSessionId: '00000000-0000-4000-8000-000000000000' });
    await collectMessages(session);
    expect(await session.result).toMatchObject({ status: 'failed', resumeRejected: true, error: { code: 'resume_rejected' } });
  });

  it('fails a run that exits non-zero without a result', async () => {
    const session = await run([...recorded('tool-call-then-text.jsonl').slice(0, 12), { stderr: 'boom' }, { exit: 3 }]);
    await collectMessages(session);
    const result = await session.result;
    expect(result).toMatchObject({ status: 'failed', exitCode: 3, toolRan: true, error: { code: 'cli_exited_nonzero' } });
    expect(result.error?.stderrTail).toContain('boom');
  });

  it('fails a run whose result reports the model error', async () => {
    const session = await run([...recorded('model-error.jsonl'), { exit: 1 }]);
    await collectMessages(session);
    expect(await session.result).toMatchObject({ status: 'failed', error: { code: 'cli_reported_failure', message: '400 Mock model error scenario: HTTP 400.' } });
  });

  it('cancels a running turn and leaves no process behind', async () => {
    const session = await run([{ printPid: true }, { print: { type: 'assistant.turn_start', data: { turnId: '0' } } }, { hang: true }]);
    const iterator = session.messages[Symbol.asyncIterator]();
    let pid: number | undefined;
    while (pid === undefined) {
      const next = await iterator.next();
      if (next.done) break;
      if (next.value.type === 'log' && next.value.text.startsWith('copilot: ') && /^\d+$/.test(next.value.text.slice('copilot: '.length))) pid = Number(next.value.text.slice('copilot: '.length));
    }
    await session.cancel();
    while (!(await iterator.next()).done);

    expect(pid).toBeDefined();
    expect(isProcessAlive(pid as number)).toBe(false);
    expect(await session.result).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    expect(existsSync(usageFileDirectory) && readdirSync(usageFileDirectory)).toEqual([]);
  });
});
