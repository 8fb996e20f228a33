import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_MOCK_MODEL, startMockModelServer, type MockModelServer } from '@switchyard/testing';
import { collectRun } from '../backend/session-drain.spec-helper';
import { realCli } from '../conformance/real-cli.spec-helper';
import { createPiBackend } from './pi-json.backend';
import { writePiHome, type PiHome } from './pi-home.writer';

const API_KEY_VARIABLE = 'SWITCHYARD_MOCK_API_KEY';

/** The agent's thinking level through the real Pi CLI, as the Chat Completions API receives it. */
describe('Pi thinking level on the real CLI', () => {
  // The model is declared `reasoning`, as the wing declares it when an agent asks for thinking.
  let server: MockModelServer;
  let home: string;
  let workDirectory: string;
  let piHome: PiHome;
  const backend = createPiBackend();

  beforeAll(async () => {
    server = await startMockModelServer({});
    home = await mkdtemp(path.join(tmpdir(), 'switchyard-pi-thinking-'));
    workDirectory = path.join(home, 'work');
    await mkdir(workDirectory);
    piHome = await writePiHome({ directory: path.join(home, '.pi', 'agent'), baseUrl: `${server.url}/v1`, model: DEFAULT_MOCK_MODEL, apiKeyVariable: API_KEY_VARIABLE, reasoning: true });
  });
  afterAll(async () => {
    await server?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  async function bodiesFor(thinkingLevel: string): Promise<Array<Record<string, unknown>>> {
    server.reset();
    const session = await backend.execute('hello [[scenario:text]]', {
      cwd: workDirectory,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, ...piHome.env, [API_KEY_VARIABLE]: 'sk-mock-not-a-secret' },
      executable: realCli('pi'),
      model: DEFAULT_MOCK_MODEL,
      thinkingLevel,
      timeouts: { idleMs: 60_000, totalMs: 120_000 },
    });
    const { result } = await collectRun(session);
    expect(result.status).toBe('completed');
    const requests = server.requests().filter((request) => request.api === 'openai-chat');
    expect(requests.length).toBeGreaterThan(0);
    return requests.map((request) => request.body as Record<string, unknown>);
  }

  it.each([
    ['low', 'low'],
    ['high', 'high'],
    // `xhigh`, clamped by Pi to what it knows the model takes.
    ['max', 'high'],
  ])('"%s" arrives as reasoning_effort "%s"', async (level, effort) => {
    const bodies = await bodiesFor(level);

    for (const body of bodies) expect(body['reasoning_effort']).toBe(effort);
  });

  it('"off" sends no reasoning_effort', async () => {
    const bodies = await bodiesFor('off');

    for (const body of bodies) expect(body).not.toHaveProperty('reasoning_effort');
  });
});
