import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_MOCK_MODEL, estimateTokens } from '@switchyard/testing';
import type { BackendExecuteOptions } from '../backend/backend.types';
import { collectRun, type CollectedRun } from '../backend/session-drain.spec-helper';
import { expectMessagesAcceptedByContract } from '../backend/translator-replay.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { processesWithEnvironment, realCli } from '../conformance/real-cli.spec-helper';
import { stopDuringSlowAnswer } from '../conformance/slow-turn.spec-helper';
import { createCopilotJsonlBackend } from './copilot-jsonl.backend';
import { copilotEnvironment } from './copilot.environment';

const BOGUS_SESSION_ID = '00000000-0000-4000-8000-000000000000';

/** The real GitHub Copilot CLI (tests/agent-clis) against our mock Chat Completions API on 127.0.0.1. */
describe('Copilot JSONL adapter on the real Copilot CLI', () => {
  const workspace = useMockModelWorkspace('copilot');
  let usageFileDirectory: string;
  let backend: ReturnType<typeof createCopilotJsonlBackend>;

  beforeAll(async () => {
    usageFileDirectory = await mkdtemp(path.join(tmpdir(), 'switchyard-copilot-usage-'));
    backend = createCopilotJsonlBackend({ usageFileDirectory });
    // The first launch unpacks the CLI's package into ~/.cache/copilot; let that happen here.
    const first = await run('hello [[scenario:text]]');
    expect(first.result.status).toBe('completed');
  }, 180_000);
  afterAll(async () => {
    if (usageFileDirectory) await rm(usageFileDirectory, { recursive: true, force: true });
  });

  function executeOptions(resumeSessionId?: string): BackendExecuteOptions {
    return {
      cwd: workspace.workDirectory,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: workspace.home,
        ...copilotEnvironment({ baseUrl: `${workspace.server.url}/v1`, apiKey: 'sk-mock-not-a-secret', model: DEFAULT_MOCK_MODEL }),
      },
      executable: realCli('copilot'),
      ...(resumeSessionId ? { resumeSessionId } : {}),
      timeouts: { idleMs: 60_000, totalMs: 120_000 },
    };
  }

  async function run(prompt: string, resumeSessionId?: string): Promise<CollectedRun> {
    const session = await backend.execute(prompt, executeOptions(resumeSessionId));
    return collectRun(session);
  }

  it('runs a real tool call that writes the file, then reports final text, usage and the session id', async () => {
    const target = path.join(workspace.workDirectory, 'written-by-copilot.txt');
    const { messages, result } = await run(`Write the file [[scenario:tool-write-file ${target} hello from the mock]]`);

    expect(readFileSync(target, 'utf8')).toBe('hello from the mock');
    expect(messages.filter((message) => message.type !== 'log').map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
    expect(messages).toContainEqual(expect.objectContaining({ type: 'tool-result', tool: 'bash', status: 'ok' }));
    expectMessagesAcceptedByContract(messages);
    expect(result).toMatchObject({ status: 'completed', toolRan: true, resumeRejected: false, exitCode: 0 });
    expect(result.output).toContain('Mock model final answer');
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(messages[0]).toEqual({ type: 'status', sessionId: result.sessionId, state: 'started' });
    expect(result.usage).toEqual([expect.objectContaining({ provider: 'github', model: DEFAULT_MOCK_MODEL })]);
    expect(result.usage[0]!.inputTokens).toBeGreaterThan(0);
    expect(result.usage[0]!.outputTokens).toBeGreaterThan(0);
  });

  it('resumes its session: the model sees the earlier turn', async () => {
    const first = await run('Remember this for later [[secret:tangerine]] [[scenario:text]]');
    expect(first.result.status).toBe('completed');

    const second = await run('What was the secret? [[scenario:text]]', first.result.sessionId);

    expect(second.result).toMatchObject({ status: 'completed', sessionId: first.result.sessionId, resumeRejected: false });
    expect(second.result.output).toContain('tangerine');
    // The usage file counts the whole session; the run reports only its own model call.
    expect(second.result.usage).toEqual([expect.objectContaining({ model: DEFAULT_MOCK_MODEL, outputTokens: estimateTokens(second.result.output) })]);
  });

  it('reports a bogus session id as a rejected resume, without running any tool', async () => {
    const { result } = await run('hello [[scenario:text]]', BOGUS_SESSION_ID);
    expect(result).toMatchObject({ status: 'failed', resumeRejected: true, toolRan: false });
  });

  it('cancel during a slow turn ends the run as cancelled and leaves no process behind', async () => {
    const { result, slowRequest: slow } = await stopDuringSlowAnswer({
      session: await backend.execute('Take your time [[scenario:slow 30000]]', executeOptions()),
      server: workspace.server,
      isSlowRequest: (request) => JSON.stringify(request.body).includes('Take your time'),
      waitMs: 60_000,
      stop: 'cancel',
    });

    expect(result.status).toBe('cancelled');
    await workspace.server.waitForRequest((request) => request.sequence === slow.sequence && request.outcome === 'client-disconnected', 10_000);
    expect(processesWithEnvironment(`HOME=${workspace.home}`)).toEqual([]);
    expect(existsSync(workspace.workDirectory)).toBe(true);
  });
});
