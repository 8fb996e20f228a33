import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_MOCK_MODEL } from '@switchyard/testing';
import { collectRun, type CollectedRun } from '../backend/session-drain.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { realCli } from '../conformance/real-cli.spec-helper';
import { createCopilotJsonlBackend } from './copilot-jsonl.backend';
import { copilotEnvironment } from './copilot.environment';

/** The agent's thinking level through the real Copilot CLI, as the Chat Completions API receives it. */
describe('Copilot thinking level on the real CLI', () => {
  const workspace = useMockModelWorkspace('copilot-thinking');
  let usageFileDirectory: string;
  let backend: ReturnType<typeof createCopilotJsonlBackend>;

  beforeAll(async () => {
    usageFileDirectory = await mkdtemp(path.join(tmpdir(), 'switchyard-copilot-usage-'));
    backend = createCopilotJsonlBackend({ usageFileDirectory });
  });
  afterAll(async () => {
    if (usageFileDirectory) await rm(usageFileDirectory, { recursive: true, force: true });
  });

  async function runWith(thinkingLevel: string): Promise<{ run: CollectedRun; bodies: Array<Record<string, unknown>> }> {
    workspace.server.reset();
    const session = await backend.execute('hello [[scenario:text]]', {
      cwd: workspace.workDirectory,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: workspace.home,
        ...copilotEnvironment({ baseUrl: `${workspace.server.url}/v1`, apiKey: 'sk-mock-not-a-secret', model: DEFAULT_MOCK_MODEL }),
      },
      executable: realCli('copilot'),
      thinkingLevel,
      timeouts: { idleMs: 120_000, totalMs: 180_000 },
    });
    const run = await collectRun(session);
    const bodies = workspace.server.requests().filter((request) => request.api === 'openai-chat' || request.api === 'openai-responses').map((request) => request.body as Record<string, unknown>);
    return { run, bodies };
  }

  it.each([
    ['low', 'low'],
    ['high', 'high'],
    ['max', 'max'],
  ])('"%s" arrives as reasoning_effort "%s"', async (level, effort) => {
    const { run, bodies } = await runWith(level);

    expect(run.result.status).toBe('completed');
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) expect(body['reasoning_effort']).toBe(effort);
  }, 180_000);

  it('"off" (`--reasoning-effort none`) sends no reasoning_effort', async () => {
    const { run, bodies } = await runWith('off');

    expect(run.result.status).toBe('completed');
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) expect(body).not.toHaveProperty('reasoning_effort');
  }, 180_000);
});
