import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentSession } from '../backend/backend.types';
import { collectRun, type CollectedRun } from '../backend/session-drain.spec-helper';
import { expectMessagesAcceptedByContract } from '../backend/translator-replay.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { processesWithEnvironment, realCli } from '../conformance/real-cli.spec-helper';
import { stopDuringSlowAnswer } from '../conformance/slow-turn.spec-helper';
import { createQwenCodeBackend } from './qwen-code.backend';
import { qwenModelEnvironment, writeQwenHome, type QwenHome } from './qwen-home.writer';

/** The real Qwen Code CLI (tests/agent-clis) against our mock OpenAI Chat Completions API on 127.0.0.1. */
describe('Claude stream-json family on the real Qwen Code CLI', () => {
  const workspace = useMockModelWorkspace('qwen');
  let qwenHome: QwenHome;
  const backend = createQwenCodeBackend();

  beforeAll(async () => {
    qwenHome = await writeQwenHome({ home: workspace.home });
  });

  function environment(): Record<string, string> {
    return {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: workspace.home,
      ...qwenHome.env,
      ...qwenModelEnvironment({ baseUrl: `${workspace.server.url}/v1`, apiKey: 'sk-mock-not-a-secret', model: 'mock-model' }),
    };
  }

  function start(prompt: string, resumeSessionId?: string): Promise<AgentSession> {
    return backend.execute(prompt, {
      cwd: workspace.workDirectory,
      env: environment(),
      executable: realCli('qwen'),
      ...(resumeSessionId ? { resumeSessionId } : {}),
      // A loaded machine can slow Qwen's exit after its result past the default 5 s grace.
      timeouts: { idleMs: 90_000, totalMs: 180_000, exitGraceMs: 30_000 },
    });
  }

  async function run(prompt: string, resumeSessionId?: string): Promise<CollectedRun> {
    return collectRun(await start(prompt, resumeSessionId));
  }

  it('runs a real shell tool call that writes the file, then reports final text, usage and the session id', async () => {
    const target = path.join(workspace.workDirectory, 'written-by-qwen.txt');
    const { messages, result } = await run(`Write the file [[scenario:tool-write-file ${target} hello from the mock]]`);

    expect(readFileSync(target, 'utf8')).toBe('hello from the mock');
    expect(messages.map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
    expect(messages[1]).toMatchObject({ type: 'tool-use', tool: 'run_shell_command' });
    expect(messages[2]).toMatchObject({ type: 'tool-result', tool: 'run_shell_command', status: 'ok' });
    expectMessagesAcceptedByContract(messages);
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
    const { result } = await stopDuringSlowAnswer({
      session: await start('Take your time [[scenario:slow 30000]]'),
      server: workspace.server,
      isSlowRequest: (request) => JSON.stringify(request.body).includes('Take your time'),
      waitMs: 90_000,
      stop: 'cancel',
    });

    expect(result.status).toBe('cancelled');
    await workspace.server.waitForRequest((request) => request.outcome === 'client-disconnected', 10_000);
    expect(processesWithEnvironment(`HOME=${workspace.home}`)).toEqual([]);
    expect(existsSync(workspace.workDirectory)).toBe(true);
  });
});
