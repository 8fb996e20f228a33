import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { collectRun, type CollectedRun } from '../backend/session-drain.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { realCli } from '../conformance/real-cli.spec-helper';
import { createQwenCodeBackend } from './qwen-code.backend';
import { qwenModelEnvironment, writeQwenHome, type QwenHome } from './qwen-home.writer';

const thinkingFolders = async (): Promise<string[]> => (await readdir(tmpdir())).filter((name) => name.startsWith('switchyard-thinking-'));

/** The agent's thinking level through the real Qwen Code CLI, as the Chat Completions API receives it. */
describe('Qwen Code thinking level on the real CLI', () => {
  const workspace = useMockModelWorkspace('qwen-thinking');
  let qwenHome: QwenHome;
  const backend = createQwenCodeBackend();

  beforeAll(async () => {
    qwenHome = await writeQwenHome({ home: workspace.home });
  });

  async function runWith(thinkingLevel: string): Promise<{ run: CollectedRun; bodies: Array<Record<string, unknown>> }> {
    workspace.server.reset();
    const session = await backend.execute('hello [[scenario:text]]', {
      cwd: workspace.workDirectory,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: workspace.home,
        ...qwenHome.env,
        ...qwenModelEnvironment({ baseUrl: `${workspace.server.url}/v1`, apiKey: 'sk-mock-not-a-secret', model: 'mock-model' }),
      },
      executable: realCli('qwen'),
      thinkingLevel,
      timeouts: { idleMs: 90_000, totalMs: 180_000, exitGraceMs: 30_000 },
    });
    const run = await collectRun(session);
    return { run, bodies: workspace.server.requests().filter((request) => request.api === 'openai-chat').map((request) => request.body as Record<string, unknown>) };
  }

  it('"high" arrives as reasoning.effort, and the run\'s settings file is gone after it', async () => {
    const before = await thinkingFolders();
    const { run, bodies } = await runWith('high');

    expect(run.result.status).toBe('completed');
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) expect(body['reasoning']).toEqual({ effort: 'high' });
    // Removed once the result resolved, which collectRun waited for.
    expect((await thinkingFolders()).filter((name) => !before.includes(name))).toEqual([]);
  }, 180_000);

  it('"off" sends no reasoning', async () => {
    const { run, bodies } = await runWith('off');

    expect(run.result.status).toBe('completed');
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) expect(body).not.toHaveProperty('reasoning');
  }, 180_000);

  it('"max" is not delivered and the timeline says why, first', async () => {
    const { run, bodies } = await runWith('max');

    expect(run.result.status).toBe('completed');
    expect(run.messages[0]).toEqual({ type: 'log', level: 'warn', text: expect.stringContaining('above "high"') as string });
    for (const body of bodies) expect(body).not.toHaveProperty('reasoning');
  }, 180_000);
});
