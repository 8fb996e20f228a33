import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_MOCK_MODEL, startMockModelServer, type MockModelServer } from '@switchyard/testing';
import type { AgentSession } from '../backend/backend.types';
import { collectRun, type CollectedRun } from '../backend/session-drain.spec-helper';
import { expectMessagesAcceptedByContract } from '../backend/translator-replay.spec-helper';
import { processesWithEnvironment, realCli } from '../conformance/real-cli.spec-helper';
import { stopDuringSlowAnswer } from '../conformance/slow-turn.spec-helper';
import { createPiBackend } from './pi-json.backend';
import { writePiHome, type PiHome } from './pi-home.writer';

const API_KEY_VARIABLE = 'SWITCHYARD_MOCK_API_KEY';

/** The real Pi CLI (tests/agent-clis) against our mock Chat Completions API on 127.0.0.1. */
describe('Pi JSON adapter on the real Pi CLI', () => {
  let server: MockModelServer;
  let home: string;
  let piHome: PiHome;
  let workDirectory: string;
  const backend = createPiBackend();

  beforeAll(async () => {
    server = await startMockModelServer({});
    home = await mkdtemp(path.join(tmpdir(), 'switchyard-pi-home-'));
    workDirectory = path.join(home, 'work');
    await mkdir(workDirectory);
    piHome = await writePiHome({ directory: path.join(home, '.pi', 'agent'), baseUrl: `${server.url}/v1`, model: DEFAULT_MOCK_MODEL, apiKeyVariable: API_KEY_VARIABLE });
  });
  afterAll(async () => {
    await server?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  function environment(): Record<string, string> {
    return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, ...piHome.env, [API_KEY_VARIABLE]: 'sk-mock-not-a-secret' };
  }

  async function start(prompt: string, options: { resumeSessionId?: string; cwd?: string } = {}): Promise<AgentSession> {
    return backend.execute(prompt, {
      cwd: options.cwd ?? workDirectory,
      env: environment(),
      executable: realCli('pi'),
      model: DEFAULT_MOCK_MODEL,
      ...(options.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}),
      timeouts: { idleMs: 60_000, totalMs: 120_000 },
    });
  }

  async function run(prompt: string, options: { resumeSessionId?: string; cwd?: string } = {}): Promise<CollectedRun> {
    return collectRun(await start(prompt, options));
  }

  it('runs a real tool call that writes the file, then reports final text, usage and the session id', async () => {
    const target = path.join(workDirectory, 'written-by-pi.txt');
    const { messages, result } = await run(`Write the file [[scenario:tool-write-file ${target} hello from the mock]]`);

    expect(readFileSync(target, 'utf8')).toBe('hello from the mock');
    expect(messages.filter((message) => message.type !== 'usage').map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
    expect(messages).toContainEqual(expect.objectContaining({ type: 'tool-use', tool: 'bash', input: { command: expect.stringContaining('written-by-pi.txt') as string } }));
    expect(messages).toContainEqual(expect.objectContaining({ type: 'tool-result', tool: 'bash', status: 'ok' }));
    expectMessagesAcceptedByContract(messages);
    expect(result).toMatchObject({ status: 'completed', toolRan: true, resumeRejected: false, exitCode: 0 });
    expect(result.output).toMatch(/^Mock model final answer\./);
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.usage).toEqual([expect.objectContaining({ provider: piHome.provider, model: DEFAULT_MOCK_MODEL })]);
    expect(result.usage[0]!.inputTokens).toBeGreaterThan(0);
    expect(result.usage[0]!.outputTokens).toBeGreaterThan(0);
    // The session file the id resumes from lives in the agent directory, under the cwd's folder.
    const sessionFolders = await readdir(path.join(piHome.directory, 'sessions'));
    const sessionFiles = (await Promise.all(sessionFolders.map((folder) => readdir(path.join(piHome.directory, 'sessions', folder))))).flat();
    expect(sessionFiles).toContainEqual(expect.stringContaining(`_${result.sessionId!}.jsonl`));
  });

  it('resumes its session: the model sees the earlier turn', async () => {
    const first = await run('Remember this for later [[secret:tangerine]] [[scenario:text]]');
    expect(first.result.status).toBe('completed');

    const second = await run('What was the secret? [[scenario:text]]', { resumeSessionId: first.result.sessionId! });

    expect(second.result).toMatchObject({ status: 'completed', sessionId: first.result.sessionId, resumeRejected: false });
    expect(second.result.output).toContain('tangerine');
  });

  it('reports a bogus session id as a rejected resume, without running any tool', async () => {
    const { result } = await run('hello [[scenario:text]]', { resumeSessionId: '00000000-0000-4000-8000-000000000000' });

    expect(result).toMatchObject({ status: 'failed', resumeRejected: true, toolRan: false, exitCode: 1 });
    expect(result.error?.code).toBe('resume_rejected');
    expect(result.error?.stderrTail).toContain('No session found matching');
  });

  it('refuses a session of another working directory instead of forking it unattended', async () => {
    const first = await run('Remember [[secret:plum]] [[scenario:text]]');
    const elsewhere = path.join(home, 'elsewhere');
    await mkdir(elsewhere, { recursive: true });

    const { result } = await run('What was it? [[scenario:text]]', { resumeSessionId: first.result.sessionId!, cwd: elsewhere });

    expect(result).toMatchObject({ status: 'failed', resumeRejected: true, toolRan: false });
  });

  it('a model error fails the run with the error Pi reported, although Pi exits 0', async () => {
    const { messages, result } = await run('fail please [[scenario:error 400]]');

    expect(result).toMatchObject({ status: 'failed', exitCode: 0, resumeRejected: false });
    // The mock answers in OpenAI's words (provider-failure.replies.ts).
    expect(result.error).toMatchObject({ code: 'cli_reported_failure', message: expect.stringContaining("Invalid 'messages[2].tool_calls'") as string });
    expect(messages).toContainEqual(expect.objectContaining({ type: 'error', code: 'pi_error' }));
  });

  it('cancel during a slow turn ends the run and leaves no process behind', async () => {
    const { result, messages } = await stopDuringSlowAnswer({
      session: await start('Take your time [[scenario:slow 30000]]'),
      server,
      isSlowRequest: (request) => JSON.stringify(request.body).includes('Take your time'),
      waitMs: 60_000,
      stop: 'cancel',
    });

    expect(result.status).toBe('cancelled');
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(messages[0]).toEqual({ type: 'status', sessionId: result.sessionId, state: 'started' });
    await server.waitForRequest((request) => request.outcome === 'client-disconnected', 10_000);
    expect(processesWithEnvironment(`HOME=${home}`)).toEqual([]);
    expect(existsSync(workDirectory)).toBe(true);
  });
});
