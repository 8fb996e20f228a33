import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { DEFAULT_MOCK_MODEL, startMockModelServer, type MockModelServer } from '@switchyard/testing';
import { collectRun } from '../backend/session-drain.spec-helper';
import { realCli } from '../conformance/real-cli.spec-helper';
import { createCodexAppServerBackend } from './codex-app-server.backend';
import { writeCodexHome } from './codex-home.writer';

const API_KEY_VARIABLE = 'SWITCHYARD_MOCK_API_KEY';

/** The agent's thinking level through the real `codex app-server`, as the Responses API receives it. */
describe('Codex thinking level on the real CLI', () => {
  let server: MockModelServer;
  let root: string;
  let codexHome: string;
  let workDirectory: string;
  const backend = createCodexAppServerBackend();

  beforeAll(async () => {
    server = await startMockModelServer({});
    // Codex refuses helper binaries under /tmp and should not sit inside a git repository.
    const base = path.join(homedir(), '.cache', 'switchyard-codex');
    await mkdir(base, { recursive: true });
    root = await mkdtemp(path.join(base, 'thinking-'));
    codexHome = path.join(root, 'codex-home');
    workDirectory = path.join(root, 'work');
    await mkdir(workDirectory, { recursive: true });
    await writeCodexHome({ directory: codexHome, baseUrl: `${server.url}/v1`, model: DEFAULT_MOCK_MODEL, apiKeyVariable: API_KEY_VARIABLE, approvalPolicy: 'never', codexExecutable: realCli('codex') });
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  async function reasoningSentFor(thinkingLevel: string): Promise<unknown[]> {
    server.reset();
    const session = await backend.execute('hello [[scenario:text]]', {
      cwd: workDirectory,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: root, CODEX_HOME: codexHome, [API_KEY_VARIABLE]: 'sk-mock-not-a-secret' },
      executable: realCli('codex'),
      thinkingLevel,
      timeouts: { idleMs: 60_000, totalMs: 120_000 },
    });
    const { result } = await collectRun(session);
    expect(result.status).toBe('completed');
    const requests = server.requests().filter((request) => request.api === 'openai-responses');
    expect(requests.length).toBeGreaterThan(0);
    return requests.map((request) => (request.body as Record<string, unknown>)['reasoning']);
  }

  it.each([
    ['high', 'high'],
    ['off', 'none'],
    ['max', 'xhigh'],
  ])('"%s" arrives as reasoning.effort "%s"', async (level, effort) => {
    const reasoning = await reasoningSentFor(level);

    for (const sent of reasoning) expect(sent).toEqual({ effort });
  }, 120_000);
});
