import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentMessageSchema, type AgentMessage } from '@switchyard/contracts';
import { startMockModelServer, type MockModelServer } from '@switchyard/testing';
import type { AgentRunResult } from '../backend/backend.types';
import { processesWithEnvironment, realCli } from '../conformance/real-cli.spec-helper';
import { createQwenCodeBackend } from './qwen-code.backend';
import { qwenModelEnvironment, writeQwenHome, type QwenHome } from './qwen-home.writer';

/** The real Qwen Code CLI (tests/agent-clis) against our mock OpenAI Chat Completions API on 127.0.0.1. */
describe('Claude stream-json family on the real Qwen Code CLI', () => {
  let server: MockModelServer;
  let home: string;
  let qwenHome: QwenHome;
  let workDirectory: string;
  const backend = createQwenCodeBackend();

  beforeAll(async () => {
    server = await startMockModelServer({});
    home = await mkdtemp(path.join(tmpdir(), 'switchyard-qwen-home-'));
    workDirectory = await mkdtemp(path.join(tmpdir(), 'switchyard-qwen-work-'));
    qwenHome = await writeQwenHome({ home });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(home, { recursive: true, force: true });
    await rm(workDirectory, { recursive: true, force: true });
  });

  function environment(): Record<string, string> {
    return {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      ...qwenHome.env,
      ...qwenModelEnvironment({ baseUrl: `${server.url}/v1`, apiKey: 'sk-mock-not-a-secret', model: 'mock-model' }),
    };
  }

  async function run(prompt: string, resumeSessionId?: string): Promise<{ messages: AgentMessage[]; result: AgentRunResult }> {
    const session = await backend.execute(prompt, {
      cwd: workDirectory,
      env: environment(),
      executable: realCli('qwen'),
      ...(resumeSessionId ? { resumeSessionId } : {}),
      timeouts: { idleMs: 90_000, totalMs: 180_000 },
    });
    const messages: AgentMessage[] = [];
    for await (const message of session.messages) messages.push(message);
    return { messages, result: await session.result };
  }

  it('runs a real shell tool call that writes the file, then reports final text, usage and the session id', async () => {
    const target = path.join(workDirectory, 'written-by-qwen.txt');
    const { messages, result } = await run(`Write the file [[scenario:tool-write-file ${target} hello from the mock]]`);

    expect(readFileSync(target, 'utf8')).toBe('hello from the mock');
    expect(messages.map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
    expect(messages[1]).toMatchObject({ type: 'tool-use', tool: 'run_shell_command' });
    expect(messages[2]).toMatchObject({ type: 'tool-result', tool: 'run_shell_command', status: 'ok' });
    for (const message of messages) expect(agentMessageSchema.safeParse(message).success).toBe(true);
    expect(result).toMatchObject({ status: 'completed', toolRan: true, resumeRejected: false, exitCode: 0 });
    expect(result.output).toContain('Mock model final answer');
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.usage).toEqual([expect.objectContaining({ provider: 'qwen', model: 'mock-model' })]);
    expect(result.usage[0]!.inputTokens).toBeGreaterThan(0);
    expect(result.usage[0]!.outputTokens).toBeGreaterThan(0);
  });

  it('resumes its session: the model sees the earlier turn', async () => {
    const first = await run('Remember this for later [[secret:tangerine]] [[scenario:text]]');
    expect(first.result.status).toBe('completed');

    const second = await run('What was the secret? [[scenario:text]]', first.result.sessionId);

    expect(second.result).toMatchObject({ status: 'completed', sessionId: first.result.sessionId, resumeRejected: false });
    expect(second.result.output).toContain('tangerine');
  });

  it('reports a bogus session id as a rejected resume, without running any tool', async () => {
    const { messages, result } = await run('hello [[scenario:text]]', '00000000-0000-4000-8000-000000000000');

    expect(result).toMatchObject({ status: 'failed', resumeRejected: true, toolRan: false, exitCode: 1 });
    expect(result.error).toMatchObject({ code: 'resume_rejected' });
    expect(result.error?.stderrTail).toContain('No saved session found with ID');
    expect(messages).toEqual([]);
  });

  it('cancel during a slow turn ends the run and leaves no process behind', async () => {
    const session = await backend.execute('Take your time [[scenario:slow 30000]]', {
      cwd: workDirectory,
      env: environment(),
      executable: realCli('qwen'),
      timeouts: { idleMs: 90_000, totalMs: 180_000 },
    });
    const draining = (async () => {
      for await (const message of session.messages) void message;
    })();
    await server.waitForRequest((request) => request.outcome === 'pending' && JSON.stringify(request.body).includes('Take your time'), 90_000);

    await session.cancel();
    const result = await session.result;
    await draining;

    expect(result.status).toBe('cancelled');
    await server.waitForRequest((request) => request.outcome === 'client-disconnected', 10_000);
    expect(processesWithEnvironment(`HOME=${home}`)).toEqual([]);
    expect(existsSync(workDirectory)).toBe(true);
  });
});
