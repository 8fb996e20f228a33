import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentSession, BackendExecuteOptions } from '../backend/backend.types';
import { isProcessAlive } from '../backend/fake-cli.spec-helper';
import { collectMessages } from '../backend/session-drain.spec-helper';
import { expectMessagesAcceptedByContract } from '../backend/translator-replay.spec-helper';
import { createOpenClawJsonlBackend, type OpenClawJsonlBackendOptions } from './openclaw-jsonl.backend';

const FAKE_OPENCLAW = path.join(__dirname, '__fixtures__', 'fake-openclaw.js');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Step = Record<string, unknown>;

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'fake-openclaw-'));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function run(steps: readonly Step[], overrides: Partial<BackendExecuteOptions> = {}, backendOptions: OpenClawJsonlBackendOptions = {}): Promise<AgentSession> {
  return createOpenClawJsonlBackend(backendOptions).execute('Create out.txt', {
    cwd: scratch,
    env: { FAKE_OPENCLAW_STEPS: JSON.stringify(steps), FAKE_OPENCLAW_PID_FILE: path.join(scratch, 'pid') },
    executable: process.execPath,
    launchArgs: [FAKE_OPENCLAW],
    timeouts: { idleMs: 10_000, toolBudgetMs: 10_000, totalMs: 30_000, exitGraceMs: 1_000 },
    ...overrides,
  });
}

async function launchArgs(steps: readonly Step[], overrides: Partial<BackendExecuteOptions>, backendOptions: OpenClawJsonlBackendOptions): Promise<{ args: string[]; session: AgentSession }> {
  const session = await run([{ printArgs: true }, { exit: 0 }, ...steps], overrides, backendOptions);
  const text = (await collectMessages(session)).find((message) => message.type === 'text');
  return { args: JSON.parse((text as { text: string }).text) as string[], session };
}

describe('OpenClaw agent --json backend (fake openclaw script)', () => {
  it('completes a recorded reply printed over many lines, with the minted session id reported at once', async () => {
    const session = await run([{ stderr: '[agent/embedded] diagnostics' }, { sleep: 50 }, { printFixture: 'tool-call-then-text.json' }, { exit: 0 }]);
    const messages = await collectMessages(session);
    const result = await session.result;

    expect(messages[0]).toMatchObject({ type: 'status', state: 'started' });
    const mintedId = (messages[0] as { sessionId: string }).sessionId;
    expect(mintedId).toMatch(UUID);
    expect(result).toMatchObject({ status: 'completed', output: 'Mock model final answer. Tool output: (no output)', toolRan: true, exitCode: 0 });
    // The recorded reply names the id it was recorded with; the reply's id is what the CLI used.
    expect(result.sessionId).toBe('5a1e2d4c-1111-4222-8333-444455556666');
    expect(result.usage).toEqual([{ provider: 'mock', model: 'mock-model', inputTokens: 29625, outputTokens: 25, cacheReadTokens: 0, cacheWriteTokens: 0 }]);
    expect(result.diagnostics).toMatchObject({ malformedLines: 0 });
    expectMessagesAcceptedByContract(messages);
  });

  it('launches agent --local --json with a minted session id and the brief before the prompt', async () => {
    const { args, session } = await launchArgs([], { model: 'mock/mock-model' }, { systemPrompt: 'You are on task 42.', agentId: 'main', timeoutSeconds: 120 });
    expect(args[0]).toBe('agent');
    expect(args.slice(1, 4)).toEqual(['--local', '--json', '--session-id']);
    expect(args[4]).toMatch(UUID);
    expect(args.slice(5)).toEqual(['--timeout', '120', '--agent', 'main', '--model', 'mock/mock-model', '--message=You are on task 42.\n\nCreate out.txt']);
    expect(await session.result).toMatchObject({ status: 'completed', sessionId: args[4] });
  });

  it('passes the resume id as the session id, and drops --local in gateway mode', async () => {
    const { args, session } = await launchArgs([], { resumeSessionId: 'task-7-session' }, { mode: 'gateway' });
    expect(args.slice(0, 4)).toEqual(['agent', '--json', '--session-id', 'task-7-session']);
    expect(await session.result).toMatchObject({ status: 'completed', sessionId: 'task-7-session', resumeRejected: false });
  });

  it('fails a run that exits non-zero without a reply', async () => {
    const session = await run([{ stderr: 'Error: provider unreachable' }, { exit: 1 }]);
    await collectMessages(session);
    const result = await session.result;
    expect(result).toMatchObject({ status: 'failed', exitCode: 1, error: { code: 'cli_exited_nonzero' } });
    expect(result.error?.stderrTail).toContain('provider unreachable');
  });

  it('fails a run whose reply says it failed, although the CLI exits 0', async () => {
    const session = await run([{ printFixture: 'timed-out-tool-loop.json' }, { exit: 0 }]);
    await collectMessages(session);
    expect(await session.result).toMatchObject({ status: 'failed', toolRan: true, error: { code: 'cli_reported_failure', message: '⚠️ Exec failed' } });
  });

  it('cancels a running turn and leaves no process behind', async () => {
    const session = await run([{ stderr: 'started' }, { hang: true }]);
    const iterator = session.messages[Symbol.asyncIterator]();
    await iterator.next();
    let pid: number | undefined;
    while (pid === undefined) {
      pid = await readFile(path.join(scratch, 'pid'), 'utf8').then(Number, () => undefined);
      if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await session.cancel();
    while (!(await iterator.next()).done);

    expect(isProcessAlive(pid)).toBe(false);
    expect(await session.result).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
  });
});
