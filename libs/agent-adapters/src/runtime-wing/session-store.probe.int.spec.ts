import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ProtocolFamily } from '@switchyard/contracts';
import { runtimeIdentityDescriptor } from '../catalog/runtime-identity.catalog';
import { probeSessionStore } from './session-store.probe';

const targetOf = (identity: string) => ({ identity, protocolFamily: runtimeIdentityDescriptor(identity)!.protocolFamily });

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
    probeSessionStore({ target: targetOf('claude-code'), environment: { HOME: home }, workDirectory, sessionId, ...overrides });

  it('finds a Claude Code session file under the runtime HOME', async () => {
    await expect(probe('session-present')).resolves.toEqual({ state: 'present' });
  });

  it('reports a missing Claude Code session file with its path', async () => {
    await expect(probe('session-gone')).resolves.toEqual({ state: 'missing', detail: expect.stringContaining('session-gone.jsonl') });
  });

  it('finds a Qwen Code session in its own chats folder, not in Claude\'s', async () => {
    const qwen = { target: targetOf('qwen-code') };
    await expect(probe('qwen-present', qwen)).resolves.toEqual({ state: 'present' });
    await expect(probe('session-present', qwen)).resolves.toEqual({ state: 'missing', detail: expect.stringContaining('/.qwen/projects/') });
  });

  it('leaves identities without a known store (Codex, Gemini, CodeBuddy, Cursor, profiles) unverified', async () => {
    for (const identity of ['codex', 'gemini-cli', 'codebuddy', 'cursor-agent', 'opencode', 'pi', 'copilot']) {
      await expect(probe('session-gone', { target: targetOf(identity) })).resolves.toEqual({ state: 'unverified' });
    }
    // A profile's command of Claude's family is known only by family: its store is not guessed.
    const profile = { protocolFamily: 'claude-stream-json' as ProtocolFamily, identity: null };
    await expect(probe('session-gone', { target: profile })).resolves.toEqual({ state: 'unverified' });
  });
});
