import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { DEFAULT_MOCK_MODEL, startMockModelServer, type MockModelServer } from '@switchyard/testing';
import { collectRun, type CollectedRun } from '../backend/session-drain.spec-helper';
import { processesWithEnvironment, realCli } from '../conformance/real-cli.spec-helper';
import { stopDuringSlowAnswer } from '../conformance/slow-turn.spec-helper';
import { createCodexAppServerBackend } from './codex-app-server.backend';
import { writeCodexHome } from './codex-home.writer';

const API_KEY_VARIABLE = 'SWITCHYARD_MOCK_API_KEY';

/**
 * The real `codex app-server` (tests/agent-clis) against our mock Responses API on 127.0.0.1.
 * CODEX_HOME lives under the user's cache: Codex refuses helper binaries under /tmp and should not
 * sit inside a git repository.
 */
describe('Codex app-server adapter on the real Codex CLI', () => {
  let server: MockModelServer;
  let root: string;
  let codexHome: string;
  let workDirectory: string;
  const backend = createCodexAppServerBackend();

  beforeAll(async () => {
    server = await startMockModelServer({});
    const base = path.join(homedir(), '.cache', 'switchyard-codex');
    await mkdir(base, { recursive: true });
    root = await mkdtemp(path.join(base, 'conformance-'));
    codexHome = path.join(root, 'codex-home');
    workDirectory = path.join(root, 'work');
    await mkdir(workDirectory, { recursive: true });
    await writeCodexHome({
      directory: codexHome,
      baseUrl: `${server.url}/v1`,
      model: DEFAULT_MOCK_MODEL,
      apiKeyVariable: API_KEY_VARIABLE,
      approvalPolicy: 'never',
      codexExecutable: realCli('codex'),
    });
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  function environment(): Record<string, string> {
    return {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: root,
      CODEX_HOME: codexHome,
      [API_KEY_VARIABLE]: 'sk-mock-not-a-secret',
    };
  }

  async function run(prompt: string, resumeSessionId?: string): Promise<CollectedRun> {
    const session = await backend.execute(prompt, {
      cwd: workDirectory,
      env: environment(),
      executable: realCli('codex'),
      ...(resumeSessionId ? { resumeSessionId } : {}),
      timeouts: { idleMs: 30_000, totalMs: 60_000 },
    });
    return collectRun(session);
  }

  it('runs a real tool call that writes the file, then reports final text, usage and the thread id', async () => {
    const target = path.join(workDirectory, 'written-by-codex.txt');
    const { messages, result } = await run(`Write the file [[scenario:tool-write-file ${target} hello from the mock]]`);

    expect(readFileSync(target, 'utf8')).toBe('hello from the mock');
    expect(messages.filter((message) => message.type !== 'usage').map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
    expect(messages[1]).toMatchObject({ type: 'tool-use', tool: 'commandExecution', input: { command: expect.stringContaining('written-by-codex.txt') as string } });
    expect(result).toMatchObject({ status: 'completed', toolRan: true, resumeRejected: false, exitCode: 0 });
    expect(result.output).toContain('Mock model final answer');
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.usage).toEqual([expect.objectContaining({ provider: 'switchyard', model: DEFAULT_MOCK_MODEL })]);
    expect(result.usage[0]!.outputTokens).toBeGreaterThan(0);
    expect(result.diagnostics.malformedLines).toBe(0);
  }, 60_000);

  it('resumes its thread in a new process: the model sees the earlier turn', async () => {
    const first = await run('Remember this for later [[secret:tangerine]] [[scenario:text]]');
    expect(first.result.status).toBe('completed');

    const second = await run('What was the secret? [[scenario:text]]', first.result.sessionId);

    expect(second.result).toMatchObject({ status: 'completed', sessionId: first.result.sessionId, resumeRejected: false });
    expect(second.result.output).toContain('tangerine');
  }, 60_000);

  it('reports a bogus thread id as a rejected resume, without running any tool', async () => {
    const { result, messages } = await run('hello [[scenario:text]]', '00000000-0000-4000-8000-000000000000');

    expect(result).toMatchObject({ status: 'failed', resumeRejected: true, toolRan: false, error: { code: 'resume_rejected' } });
    expect(result.sessionId).toBeUndefined();
    expect(messages).toEqual([{ type: 'error', code: 'codex_resume_rejected', message: 'no rollout found for thread id 00000000-0000-4000-8000-000000000000' }]);
  }, 30_000);

  /** Stops a run while its model is mid-way through a slow answer, its messages being drained. */
  async function stopSlowTurn(marker: string, stop: 'cancel' | 'interrupt'): Promise<CollectedRun> {
    const session = await backend.execute(`Take your time [[scenario:slow 30000]] ${marker}`, {
      cwd: workDirectory,
      env: environment(),
      executable: realCli('codex'),
      timeouts: { idleMs: 30_000, totalMs: 60_000 },
    });
    return stopDuringSlowAnswer({ session, server, isSlowRequest: (request) => JSON.stringify(request.body).includes(marker), waitMs: 30_000, stop });
  }

  it('interrupt ends the turn in-band and the process exits', async () => {
    const { result } = await stopSlowTurn('interrupt me', 'interrupt');

    expect(result).toMatchObject({ status: 'failed', exitCode: 0, error: { code: 'cli_reported_failure', message: 'the turn was interrupted' } });
  }, 60_000);

  it('cancel during a slow turn ends the run and leaves no process behind', async () => {
    const { result } = await stopSlowTurn('cancel me', 'cancel');

    expect(result.status).toBe('cancelled');
    expect(processesWithEnvironment(`CODEX_HOME=${codexHome}`)).toEqual([]);
    expect(existsSync(workDirectory)).toBe(true);
  }, 60_000);
});
