import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentRunResult, BackendExecuteOptions } from '../backend/backend.types';
import { collectRun, type CollectedRun } from '../backend/session-drain.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { processesWithEnvironment, realCli } from '../conformance/real-cli.spec-helper';
import { stopDuringSlowAnswer } from '../conformance/slow-turn.spec-helper';
import { createGeminiAcpBackend } from './acp.backend';
import { writeGeminiHome } from './gemini-home.writer';

const BOGUS_SESSION_ID = '00000000-0000-4000-8000-000000000000';

/** The real Gemini CLI (tests/agent-clis) over ACP against our mock Gemini API on 127.0.0.1. */
describe('ACP adapter on the real Gemini CLI (gemini --acp)', () => {
  const workspace = useMockModelWorkspace('gemini');
  const backend = createGeminiAcpBackend();
  // The session the resume test loads, created first so that the other tests use up most of the
  // wait the backend makes before loading a session started in the current minute.
  let remembered: AgentRunResult;

  beforeAll(async () => {
    await writeGeminiHome({ home: workspace.home });
    const first = await run('Remember this for later [[secret:tangerine]] [[scenario:text]]');
    remembered = first.result;
  });

  function executeOptions(resumeSessionId?: string): BackendExecuteOptions {
    return {
      cwd: workspace.workDirectory,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: workspace.home,
        GOOGLE_GEMINI_BASE_URL: workspace.server.url,
        GEMINI_API_KEY: 'mock-not-a-secret',
        // Without it the CLI relaunches itself and the parent we hold ignores SIGINT/SIGTERM.
        GEMINI_CLI_NO_RELAUNCH: 'true',
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
      },
      executable: realCli('gemini'),
      ...(resumeSessionId ? { resumeSessionId } : {}),
      timeouts: { idleMs: 60_000, totalMs: 120_000 },
    };
  }

  async function run(prompt: string, resumeSessionId?: string): Promise<CollectedRun> {
    const session = await backend.execute(prompt, executeOptions(resumeSessionId));
    return collectRun(session);
  }

  it('runs a real, permission-gated shell call that writes the file, then reports final text, usage and the session id', async () => {
    const target = path.join(workspace.workDirectory, 'written-by-gemini.txt');
    const { messages, result } = await run(`Write the file [[scenario:tool-write-file ${target} hello from the mock]]`);

    expect(readFileSync(target, 'utf8')).toBe('hello from the mock');
    expect(messages.filter((message) => message.type !== 'log').map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
    expect(messages.find((message) => message.type === 'tool-result')).toMatchObject({ status: 'ok', tool: 'execute' });
    expect(result).toMatchObject({ status: 'completed', toolRan: true, resumeRejected: false, exitCode: 0 });
    expect(result.output).toContain('Mock model final answer');
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.usage.length).toBeGreaterThan(0);
    expect(result.usage[0]!.outputTokens).toBeGreaterThan(0);
  });

  it('reports a bogus session id as a rejected resume, without running any tool', async () => {
    const { result } = await run('hello [[scenario:text]]', BOGUS_SESSION_ID);
    expect(result).toMatchObject({ status: 'failed', resumeRejected: true, toolRan: false });
    expect(result.sessionId).toBeUndefined();
    expect(result.error?.message).toContain('Invalid session identifier');
  });

  it('cancel during a slow turn ends the run as cancelled and leaves no process behind', async () => {
    const { result, messages, slowRequest: streaming } = await stopDuringSlowAnswer({
      session: await backend.execute('Take your time [[scenario:slow 30000]]', executeOptions()),
      server: workspace.server,
      // The router's generateContent call carries the prompt too: wait for the slow streaming answer.
      isSlowRequest: (request) => request.path.endsWith(':streamGenerateContent') && JSON.stringify(request.body).includes('Take your time'),
      waitMs: 60_000,
      stop: 'cancel',
    });

    expect(result.status).toBe('cancelled');
    // The agent ended the turn on session/cancel before the process group was ended.
    expect(messages).toContainEqual({ type: 'status', state: 'cancelled' });
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await workspace.server.waitForRequest((request) => request.sequence === streaming.sequence && request.outcome === 'client-disconnected', 10_000);
    expect(processesWithEnvironment(`HOME=${workspace.home}`)).toEqual([]);
  });

  it('interrupt stops the turn with session/cancel and the run ends as cancelled', async () => {
    const { result, messages } = await stopDuringSlowAnswer({
      session: await backend.execute('Interrupt me [[scenario:slow 30000]]', executeOptions()),
      server: workspace.server,
      isSlowRequest: (request) => request.path.endsWith(':streamGenerateContent') && JSON.stringify(request.body).includes('Interrupt me'),
      waitMs: 60_000,
      stop: 'interrupt',
    });

    expect(result.status).toBe('cancelled');
    expect(messages).toContainEqual({ type: 'status', state: 'cancelled' });
    expect(processesWithEnvironment(`HOME=${workspace.home}`)).toEqual([]);
  });

  it('resumes its session with session/load: the model sees the earlier turn', async () => {
    expect(remembered.status).toBe('completed');
    // Gemini CLI 0.61 wipes a session loaded in the minute it was started ("No previous sessions
    // found for this project.", fixture gemini-same-minute-load): the backend waits that out first.
    const second = await run('What was the secret? [[scenario:text]]', remembered.sessionId);

    expect(second.result).toMatchObject({ status: 'completed', sessionId: remembered.sessionId, resumeRejected: false });
    expect(second.result.output).toContain('tangerine');
    // The replayed history is not part of this run's timeline.
    expect(second.messages.filter((message) => message.type === 'text')).toHaveLength(1);
  }, 120_000);

  it('leaves no Gemini process behind', () => {
    expect(processesWithEnvironment(`HOME=${workspace.home}`)).toEqual([]);
    expect(existsSync(workspace.workDirectory)).toBe(true);
  });
});
