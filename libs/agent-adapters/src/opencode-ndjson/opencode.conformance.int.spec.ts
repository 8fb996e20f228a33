import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_MOCK_MODEL } from '@switchyard/testing';
import type { AgentSession, Backend } from '../backend/backend.types';
import { collectRun, type CollectedRun } from '../backend/session-drain.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { processesWithEnvironment, realCli } from '../conformance/real-cli.spec-helper';
import { stopDuringSlowAnswer } from '../conformance/slow-turn.spec-helper';
import { createOpenCodeBackend } from './opencode-ndjson.backend';
import { writeOpenCodeHome, type OpenCodeHome } from './opencode-home.writer';

const API_KEY_VARIABLE = 'SWITCHYARD_MOCK_API_KEY';
const RUN_TIMEOUT_MS = 180_000;

/** The real OpenCode CLI (tests/agent-clis) against our mock Chat Completions API on 127.0.0.1. */
describe('OpenCode NDJSON adapter on the real OpenCode CLI', () => {
  const workspace = useMockModelWorkspace('opencode');
  let openCodeHome: OpenCodeHome;
  let cliVersion: string;
  let backend: Backend;

  beforeAll(async () => {
    openCodeHome = await writeOpenCodeHome({ directory: workspace.home, baseUrl: `${workspace.server.url}/v1`, model: DEFAULT_MOCK_MODEL, apiKeyVariable: API_KEY_VARIABLE });
    // What the daemon does at detection time.
    cliVersion = execFileSync(realCli('opencode'), ['--version'], { env: environment(), encoding: 'utf8', timeout: 60_000 }).trim();
    backend = createOpenCodeBackend({ cliVersion });
  }, RUN_TIMEOUT_MS);

  function environment(): Record<string, string> {
    return {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: workspace.home,
      [API_KEY_VARIABLE]: 'sk-mock-not-a-secret',
      ...openCodeHome.env,
    };
  }

  function start(prompt: string, resumeSessionId?: string, using = backend): Promise<AgentSession> {
    return using.execute(prompt, {
      cwd: workspace.workDirectory,
      env: environment(),
      executable: realCli('opencode'),
      model: openCodeHome.model,
      ...(resumeSessionId ? { resumeSessionId } : {}),
      timeouts: { idleMs: 120_000, totalMs: RUN_TIMEOUT_MS },
    });
  }

  async function run(prompt: string, resumeSessionId?: string, using = backend): Promise<CollectedRun> {
    return collectRun(await start(prompt, resumeSessionId, using));
  }

  it(
    'runs a real tool call that writes the file, then reports final text, usage and the session id',
    async () => {
      expect(cliVersion).toBe('1.18.33');
      const target = path.join(workspace.workDirectory, 'written-by-opencode.txt');
      const { messages, result } = await run(`Write the file [[scenario:tool-write-file ${target} hello from the mock]]`);

      expect(readFileSync(target, 'utf8')).toBe('hello from the mock');
      expect(messages.map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
      expect(messages.at(-1)).toEqual({ type: 'text', text: 'Mock model final answer. Tool output: (no output)' });
      expect(result).toMatchObject({ status: 'completed', exitCode: 0, toolRan: true, resumeRejected: false, output: 'Mock model final answer. Tool output: (no output)' });
      expect(result.sessionId).toMatch(/^ses_\w+$/);
      expect(result.usage).toEqual([expect.objectContaining({ provider: 'switchyard', model: DEFAULT_MOCK_MODEL })]);
      expect(result.usage[0]!.inputTokens).toBeGreaterThan(0);
      expect(result.usage[0]!.outputTokens).toBeGreaterThan(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'works in the run directory without a known version (no --dir: process cwd and PWD)',
    async () => {
      const { result } = await run('Write a relative file [[scenario:tool-write-file relative-by-opencode.txt relative]]', undefined, createOpenCodeBackend());
      expect(result.status).toBe('completed');
      expect(readFileSync(path.join(workspace.workDirectory, 'relative-by-opencode.txt'), 'utf8')).toBe('relative');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'resumes its session: the model sees the earlier turn',
    async () => {
      const first = await run('Remember this for later [[secret:tangerine]] [[scenario:text]]');
      expect(first.result.status).toBe('completed');

      const second = await run('What was the secret? [[scenario:text]]', first.result.sessionId);

      expect(second.result).toMatchObject({ status: 'completed', sessionId: first.result.sessionId, resumeRejected: false });
      expect(second.result.output).toContain('tangerine');
    },
    RUN_TIMEOUT_MS * 2,
  );

  it(
    'reports a bogus session id as a rejected resume, without running any tool',
    async () => {
      const { result, messages } = await run('hello [[scenario:text]]', 'ses_00000000000000000000000000');
      expect(result).toMatchObject({ status: 'failed', exitCode: 1, resumeRejected: true, toolRan: false, error: { code: 'resume_rejected' } });
      expect(result.error?.stderrTail).toContain('Session not found');
      expect(messages).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'reports a model API error as a failed run with the error in the timeline',
    async () => {
      const { result, messages } = await run('fail please [[scenario:error 400]]');
      // The mock answers in OpenAI's words (provider-failure.replies.ts).
      const providerMessage = "Invalid 'messages[2].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.";
      expect(result).toMatchObject({ status: 'failed', error: { code: 'cli_reported_failure', message: providerMessage } });
      expect(messages).toContainEqual({ type: 'error', code: 'opencode_APIError', message: providerMessage });
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'cancel during a slow turn ends the run and leaves no process behind',
    async () => {
      const { result } = await stopDuringSlowAnswer({
        session: await start('Take your time [[scenario:slow 30000]]'),
        server: workspace.server,
        isSlowRequest: (request) => JSON.stringify(request.body).includes('Take your time') && JSON.stringify(request.body).includes('"tools"'),
        waitMs: 120_000,
        stop: 'cancel',
      });

      expect(result.status).toBe('cancelled');
      expect(result.toolRan).toBe(false);
      await workspace.server.waitForRequest((request) => request.outcome === 'client-disconnected', 10_000);
      expect(processesWithEnvironment(`HOME=${workspace.home}`)).toEqual([]);
      expect(existsSync(workspace.workDirectory)).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );
});
