import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RUNTIME_IDENTITY_CATALOG } from '@switchyard/contracts';
import { probeSessionStore } from './session-store.probe';

const layoutOf = (identity: string) => RUNTIME_IDENTITY_CATALOG.find((descriptor) => descriptor.identity === identity)?.sessionStore ?? null;

describe('session store probe (real files)', () => {
  let home: string;
  const workDirectory = '/srv/workspaces/w/agent.1/task_1-x';

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'switchyard-store-probe-'));
    const folder = path.join(home, '.claude', 'projects', '-srv-workspaces-w-agent-1-task-1-x');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'session-present.jsonl'), '{}\n');
    const qwenFolder = path.join(home, '.qwen', 'projects', '-srv-workspaces-w-agent-1-task-1-x', 'chats');
    await mkdir(qwenFolder, { recursive: true });
    await writeFile(path.join(qwenFolder, 'qwen-present.jsonl'), '{}\n');
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const probe = (sessionId: string, overrides: Partial<Parameters<typeof probeSessionStore>[0]> = {}) =>
    probeSessionStore({ identity: 'claude-code', layout: layoutOf('claude-code'), environment: { HOME: home }, workDirectory, sessionId, ...overrides });

  it('finds a Claude Code session file under the runtime HOME', async () => {
    await expect(probe('session-present')).resolves.toEqual({ state: 'present' });
  });

  it('reports a missing Claude Code session file with its path', async () => {
    await expect(probe('session-gone')).resolves.toEqual({ state: 'missing', detail: expect.stringContaining('session-gone.jsonl') });
  });

  it('finds a Qwen Code session in its own chats folder, not in Claude\'s', async () => {
    const qwen = { identity: 'qwen-code', layout: layoutOf('qwen-code') };
    await expect(probe('qwen-present', qwen)).resolves.toEqual({ state: 'present' });
    await expect(probe('session-present', qwen)).resolves.toEqual({ state: 'missing', detail: expect.stringContaining('/.qwen/projects/') });
  });

  it('leaves identities without a known store (Codex, Gemini, CodeBuddy, Cursor, profiles) unverified', async () => {
    for (const identity of ['codex', 'gemini-cli', 'codebuddy', 'cursor-agent', 'opencode', 'pi', 'copilot']) {
      await expect(probe('session-gone', { identity, layout: layoutOf(identity) })).resolves.toEqual({ state: 'unverified' });
    }
    await expect(probe('session-gone', { identity: 'profile-x', layout: null })).resolves.toEqual({ state: 'unverified' });
  });
});
