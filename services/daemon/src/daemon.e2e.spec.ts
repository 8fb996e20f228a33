import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { STREAM_CATALOG } from '@switchyard/contracts';
import { readStream } from '@switchyard/messaging';
import { sampleAgentSnapshot } from '@switchyard/testing';
import { startDaemonE2eStack, type DaemonE2eStack } from './daemon-e2e.spec-helper';

const DAEMON_ID = 'daemon-e2e';

/**
 * End to end, every part real: the queue and the daemon as built processes, real NATS and
 * Postgres, the real Claude Code, Codex, Gemini CLI, Qwen Code, OpenCode, Pi and Copilot CLIs against the mock model. A task enqueued over NATS is claimed
 * on the queue's nudge, runs, and its timeline lands on JetStream in seq order.
 */
describe('enqueue → queue → daemon → real agent CLIs → timeline on JetStream', () => {
  let stack: DaemonE2eStack;

  beforeAll(async () => {
    stack = await startDaemonE2eStack();
    await stack.startDaemon({ daemonId: DAEMON_ID });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const RUNTIMES = [
    { identity: 'claude-code', model: null, env: (url: string) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'sk-mock-not-a-secret' }) },
    { identity: 'codex', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) },
    { identity: 'gemini-cli', model: null, env: (url: string) => ({ GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'mock-not-a-secret' }) },
    { identity: 'qwen-code', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) },
    { identity: 'opencode', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) },
    { identity: 'pi', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) },
    { identity: 'copilot', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) },
  ] as const;

  it.each(RUNTIMES)('runs a task on the real $identity and streams its timeline in seq order, then completes', async ({ identity, model: agentModel, env }) => {
    const target = path.join(stack.home, `proof-of-${identity}.txt`);
    const taskId = await stack.enqueue({
      agentId: `agent-${identity}`,
      agent: sampleAgentSnapshot({ model: agentModel, env: env(stack.model.url) }),
      runtimeId: `${DAEMON_ID}-${identity}`,
      prompt: `Write the proof [[scenario:tool-write-file ${target} done by ${identity}]]`,
    });

    expect(await stack.waitForTask(taskId, ['completed', 'failed'])).toMatchObject({ status: 'completed' });
    expect(await readFile(target, 'utf8')).toBe(`done by ${identity}`);

    const timeline = await stack.timeline(taskId);
    expect(timeline.map((entry) => entry.seq)).toEqual(timeline.map((_, index) => index));
    const types = timeline.map((entry) => entry.message.type);
    // Every CLI shows the tool call, its result and a final text, in that order.
    const toolUse = types.indexOf('tool-use');
    expect(toolUse).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('tool-result', toolUse)).toBeGreaterThan(toolUse);
    expect(types.lastIndexOf('text')).toBeGreaterThan(types.indexOf('tool-result', toolUse));
    // The CLI's session was pinned for the next task to resume.
    const pinned = (await readStream(stack.connection, STREAM_CATALOG.SESSION_EVENTS.name))
      .map((message) => JSON.parse(message.text) as { type: string; payload: { taskId: string; workDir: string } })
      .filter((event) => event.type === 'session.pinned' && event.payload.taskId === taskId);
    expect(pinned).toHaveLength(1);
    expect(pinned[0]!.payload.workDir).toContain(path.join(stack.home, 'workspaces'));
  }, 180_000);
});
