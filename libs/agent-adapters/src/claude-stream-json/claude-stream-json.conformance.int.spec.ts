import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentSession } from '../backend/backend.types';
import { collectRun, type CollectedRun } from '../backend/session-drain.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { processesWithEnvironment, realCli } from '../conformance/real-cli.spec-helper';
import { stopDuringSlowAnswer } from '../conformance/slow-turn.spec-helper';
import { createClaudeStreamJsonBackend } from './claude-stream-json.backend';

/** The real Claude Code CLI (tests/agent-clis) against our mock Anthropic API on 127.0.0.1. */
describe('Claude stream-json adapter on the real Claude Code CLI', () => {
  const workspace = useMockModelWorkspace('claude');
  const backend = createClaudeStreamJsonBackend();

  function environment(): Record<string, string> {
    return {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: workspace.home,
      ANTHROPIC_BASE_URL: workspace.server.url,
      ANTHROPIC_API_KEY: 'sk-mock-not-a-secret',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      // Running as root, bypassPermissions is refused unless the CLI is told it is sandboxed.
      IS_SANDBOX: '1',
    };
  }

  function start(prompt: string, resumeSessionId?: string, using = backend): Promise<AgentSession> {
    return using.execute(prompt, {
      cwd: workspace.workDirectory,
      env: environment(),
      executable: realCli('claude'),
      ...(resumeSessionId ? { resumeSessionId } : {}),
      timeouts: { idleMs: 60_000, totalMs: 120_000 },
    });
  }

  async function run(prompt: string, resumeSessionId?: string, using = backend): Promise<CollectedRun> {
    return collectRun(await start(prompt, resumeSessionId, using));
  }

  it('runs a real tool call that writes the file, then reports final text, usage and the session id', async () => {
    const target = path.join(workspace.workDirectory, 'written-by-claude.txt');
    const { messages, result } = await run(`Write the file [[scenario:tool-write-file ${target} hello from the mock]]`);

    expect(readFileSync(target, 'utf8')).toBe('hello from the mock');
    expect(messages.map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
    expect(result).toMatchObject({ status: 'completed', toolRan: true, resumeRejected: false });
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.usage.length).toBeGreaterThan(0);
    expect(result.usage[0]!.outputTokens).toBeGreaterThan(0);
  });

  it('answers the permission prompt the CLI sends over stdin, per policy', async () => {
    const asking = createClaudeStreamJsonBackend({ permissionMode: 'default', permissionPolicy: 'allow' });
    const target = path.join(workspace.workDirectory, 'written-after-asking.txt');
    const { messages, result } = await run(`Write the file [[scenario:tool-write-file ${target} allowed]]`, undefined, asking);

    expect(result.status).toBe('completed');
    expect(readFileSync(target, 'utf8')).toBe('allowed');
    expect(messages).toContainEqual(expect.objectContaining({ type: 'log', text: expect.stringMatching(/asked permission for \w+: allowed by policy/) }));
  });

  it('a denying policy keeps the file from being written and the run still ends', async () => {
    const denying = createClaudeStreamJsonBackend({ permissionMode: 'default', permissionPolicy: 'deny' });
    const target = path.join(workspace.workDirectory, 'never-written.txt');
    const { messages, result } = await run(`Write the file [[scenario:tool-write-file ${target} denied]]`, undefined, denying);

    expect(result.status).toBe('completed');
    expect(existsSync(target)).toBe(false);
    expect(messages).toContainEqual(expect.objectContaining({ type: 'tool-result', status: 'error', output: expect.stringContaining('denied') }));
  });

  it('resumes its session: the model sees the earlier turn', async () => {
    const first = await run('Remember this for later [[secret:tangerine]] [[scenario:text]]');
    expect(first.result.status).toBe('completed');

    const second = await run('What was the secret? [[scenario:text]]', first.result.sessionId);

    expect(second.result).toMatchObject({ status: 'completed', sessionId: first.result.sessionId, resumeRejected: false });
    expect(second.result.output).toContain('tangerine');
  });

  it('reports a bogus session id as a rejected resume, without running any tool', async () => {
    const { result } = await run('hello [[scenario:text]]', '00000000-0000-4000-8000-000000000000');
    expect(result).toMatchObject({ status: 'failed', resumeRejected: true, toolRan: false });
  });

  it('cancel during a slow turn ends the run and leaves no process behind', async () => {
    const { result } = await stopDuringSlowAnswer({
      session: await start('Take your time [[scenario:slow 30000]]'),
      server: workspace.server,
      isSlowRequest: (request) => JSON.stringify(request.body).includes('Take your time'),
      waitMs: 60_000,
      stop: 'cancel',
    });

    expect(result.status).toBe('cancelled');
    await workspace.server.waitForRequest((request) => request.outcome === 'client-disconnected', 10_000);
    expect(processesWithEnvironment(`HOME=${workspace.home}`)).toEqual([]);
    expect(existsSync(workspace.workDirectory)).toBe(true);
  });
});
