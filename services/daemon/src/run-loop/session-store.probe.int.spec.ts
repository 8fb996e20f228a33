import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { probeSessionStore } from './session-store.probe';

describe('session store probe (real files)', () => {
  let home: string;
  const workDirectory = '/srv/workspaces/w/agent.1/task_1-x';

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'switchyard-store-probe-'));
    const folder = path.join(home, '.claude', 'projects', '-srv-workspaces-w-agent-1-task-1-x');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'session-present.jsonl'), '{}\n');
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const probe = (sessionId: string, overrides: Partial<Parameters<typeof probeSessionStore>[0]> = {}) =>
    probeSessionStore({ protocolFamily: 'claude-stream-json', isProfile: false, environment: { HOME: home }, workDirectory, sessionId, ...overrides });

  it('finds a Claude Code session file under the runtime HOME', async () => {
    await expect(probe('session-present')).resolves.toEqual({ state: 'present' });
  });

  it('reports a missing Claude Code session file with its path', async () => {
    await expect(probe('session-gone')).resolves.toEqual({ state: 'missing', detail: expect.stringContaining('session-gone.jsonl') });
  });

  it('leaves Codex, ACP agents and profiles unverified', async () => {
    await expect(probe('session-gone', { protocolFamily: 'codex-app-server' })).resolves.toEqual({ state: 'unverified' });
    await expect(probe('session-gone', { protocolFamily: 'acp' })).resolves.toEqual({ state: 'unverified' });
    await expect(probe('session-gone', { isProfile: true })).resolves.toEqual({ state: 'unverified' });
  });
});
