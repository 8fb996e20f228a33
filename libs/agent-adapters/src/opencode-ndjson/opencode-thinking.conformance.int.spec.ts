import { execFileSync } from 'node:child_process';
import { DEFAULT_MOCK_MODEL } from '@switchyard/testing';
import type { Backend } from '../backend/backend.types';
import { collectRun, type CollectedRun } from '../backend/session-drain.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { realCli } from '../conformance/real-cli.spec-helper';
import { writeOpenCodeHome, type OpenCodeHome } from './opencode-home.writer';
import { createOpenCodeBackend } from './opencode-ndjson.backend';

const API_KEY_VARIABLE = 'SWITCHYARD_MOCK_API_KEY';
const RUN_TIMEOUT_MS = 180_000;

/** The agent's thinking level through the real OpenCode CLI, as the Chat Completions API receives it. */
describe('OpenCode thinking level on the real CLI', () => {
  const workspace = useMockModelWorkspace('opencode-thinking');
  let openCodeHome: OpenCodeHome;
  let backend: Backend;

  beforeAll(async () => {
    // Declared `reasoning`, as the wing declares it when an agent asks for thinking.
    openCodeHome = await writeOpenCodeHome({ directory: workspace.home, baseUrl: `${workspace.server.url}/v1`, model: DEFAULT_MOCK_MODEL, apiKeyVariable: API_KEY_VARIABLE, reasoning: true });
    const cliVersion = execFileSync(realCli('opencode'), ['--version'], { env: environment(), encoding: 'utf8', timeout: 60_000 }).trim();
    backend = createOpenCodeBackend({ cliVersion });
  }, RUN_TIMEOUT_MS);

  function environment(): Record<string, string> {
    return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: workspace.home, [API_KEY_VARIABLE]: 'sk-mock-not-a-secret', ...openCodeHome.env };
  }

  async function runWith(thinkingLevel: string): Promise<{ run: CollectedRun; bodies: Array<Record<string, unknown>> }> {
    workspace.server.reset();
    const session = await backend.execute('hello [[scenario:text]]', {
      cwd: workspace.workDirectory,
      env: environment(),
      executable: realCli('opencode'),
      model: openCodeHome.model,
      thinkingLevel,
      timeouts: { idleMs: 120_000, totalMs: RUN_TIMEOUT_MS },
    });
    const run = await collectRun(session);
    const bodies = workspace.server.requests().filter((request) => request.api === 'openai-chat').map((request) => request.body as Record<string, unknown>);
    return { run, bodies };
  }

  // The agent's turn offers tools; OpenCode's side call for a title always asks for `low`.
  const turnRequests = (bodies: Array<Record<string, unknown>>): Array<Record<string, unknown>> => bodies.filter((body) => Array.isArray(body['tools']));

  it.each(['low', 'high'])('"%s" arrives as reasoning_effort on the turn', async (level) => {
    const { run, bodies } = await runWith(level);

    expect(run.result.status).toBe('completed');
    expect(turnRequests(bodies).length).toBeGreaterThan(0);
    for (const body of turnRequests(bodies)) expect(body['reasoning_effort']).toBe(level);
  }, RUN_TIMEOUT_MS);

  it('"off" sends no reasoning_effort on the turn', async () => {
    const { run, bodies } = await runWith('off');

    expect(run.result.status).toBe('completed');
    expect(turnRequests(bodies).length).toBeGreaterThan(0);
    for (const body of turnRequests(bodies)) expect(body).not.toHaveProperty('reasoning_effort');
  }, RUN_TIMEOUT_MS);

  it('"max" is not delivered and the timeline says why, first', async () => {
    const { run, bodies } = await runWith('max');

    expect(run.result.status).toBe('completed');
    expect(run.messages[0]).toEqual({ type: 'log', level: 'warn', text: expect.stringContaining('no variant above "high"') as string });
    for (const body of turnRequests(bodies)) expect(body).not.toHaveProperty('reasoning_effort');
  }, RUN_TIMEOUT_MS);
});
