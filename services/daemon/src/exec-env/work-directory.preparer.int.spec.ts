import { mkdir, readdir, readFile, realpath, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ExecEnvError } from './exec-env.error';
import { createTemporaryDirectory, sampleClaimedTask } from './exec-env.spec-helper';
import { prepareWorkDirectory, WORK_DIRECTORY_MARKER_PATH, type WorkDirectoryTask } from './work-directory.preparer';

const OWNER_ID = 'owner-daemon-a';

describe('prepareWorkDirectory', () => {
  let temporary: { path: string; remove: () => Promise<void> };
  let root: string;
  beforeEach(async () => {
    temporary = await createTemporaryDirectory();
    root = path.join(temporary.path, 'workspaces');
  });
  afterEach(() => temporary.remove());

  const prepare = (task: WorkDirectoryTask, priorWorkDirectory: string | null, ownerId = OWNER_ID) =>
    prepareWorkDirectory({ root, ownerId, task, priorWorkDirectory });

  async function snapshot(directory: string): Promise<Record<string, string>> {
    const entries = await readdir(directory, { recursive: true, withFileTypes: true });
    const files: Record<string, string> = {};
    for (const entry of entries.filter((candidate) => candidate.isFile())) {
      const full = path.join(entry.parentPath, entry.name);
      files[path.relative(directory, full)] = await readFile(full, 'utf8');
    }
    return files;
  }

  it('creates a fresh directory under <root>/<workspaceId>/<agentId>/ with a marker', async () => {
    const task = sampleClaimedTask();
    const result = await prepare(task, null);

    expect(result.reused).toBe(false);
    expect(result.reason).toBe('no_prior_work_directory');
    expect(path.dirname(result.path)).toBe(path.join(await realpath(root), 'workspace-1', 'agent-1'));
    const marker = JSON.parse(await readFile(path.join(result.path, WORK_DIRECTORY_MARKER_PATH), 'utf8'));
    expect(marker).toEqual({
      schemaVersion: 1,
      workspaceId: 'workspace-1',
      agentId: 'agent-1',
      sourceKey: 'issue:issue-1',
      ownerId: OWNER_ID,
      createdAt: expect.any(String),
      createdByTaskId: task.taskId,
      lastUsedAt: marker.createdAt,
    });
    expect(await readFile(path.join(result.path, '.switchyard/.gitignore'), 'utf8')).toBe('*\n');
    expect((await stat(result.path)).mode & 0o777).toBe(0o700);
  });

  it('reuses the prior directory of the same agent and issue when its marker matches', async () => {
    const first = await prepare(sampleClaimedTask(), null);
    await writeFile(path.join(first.path, 'notes.txt'), 'work in progress');

    const second = await prepare(sampleClaimedTask({ taskId: 'task-2' }), first.path);

    expect(second).toMatchObject({ path: first.path, reused: true, reason: 'reused' });
    expect(second.marker.createdByTaskId).toBe(first.marker.createdByTaskId);
    expect(await readFile(path.join(first.path, 'notes.txt'), 'utf8')).toBe('work in progress');
  });

  it('reuses a chat session directory for the next message of that session', async () => {
    const chat = { kind: 'chat', chatSessionId: 'chat-1', chatMessageId: 'message-1' } as const;
    const first = await prepare(sampleClaimedTask({ source: chat }), null);
    const second = await prepare(sampleClaimedTask({ taskId: 'task-2', source: { ...chat, chatMessageId: 'message-2' } }), first.path);
    expect(second).toMatchObject({ path: first.path, reused: true });
  });

  it.each([
    ['another issue', { source: { kind: 'issue', issueId: 'issue-2', trigger: 'mention', commentId: null } }, 'marker differs in sourceKey'],
    ['a chat session', { source: { kind: 'chat', chatSessionId: 'issue-1', chatMessageId: 'm' } }, 'marker differs in sourceKey'],
  ] as const)('does not reuse a directory made for %s', async (_label, overrides, detail) => {
    const first = await prepare(sampleClaimedTask(), null);
    const before = await snapshot(first.path);

    const second = await prepare(sampleClaimedTask({ taskId: 'task-2', ...overrides }), first.path);

    expect(second).toMatchObject({ reused: false, reason: 'marker_mismatch', detail });
    expect(second.path).not.toBe(first.path);
    expect(await snapshot(first.path)).toEqual(before);
  });

  it('does not reuse a directory whose marker names another owner (another daemon on the same root)', async () => {
    const first = await prepare(sampleClaimedTask(), null, 'owner-daemon-b');
    const second = await prepare(sampleClaimedTask({ taskId: 'task-2' }), first.path);
    expect(second).toMatchObject({ reused: false, reason: 'marker_mismatch', detail: 'marker differs in ownerId' });
  });

  it('never reuses nor touches a directory with a foreign, broken or missing marker', async () => {
    const agentDirectory = path.join(root, 'workspace-1', 'agent-1');
    const cases = {
      foreign: JSON.stringify({ schemaVersion: 1, workspaceId: 'workspace-1', agentId: 'agent-1', sourceKey: 'issue:issue-1', ownerId: 'x', createdAt: 'now', createdByTaskId: 't' }),
      'not-json': '{ nope',
      'wrong-schema': JSON.stringify({ schemaVersion: 99 }),
    };
    for (const [name, marker] of Object.entries(cases)) {
      await mkdir(path.join(agentDirectory, name, '.switchyard'), { recursive: true });
      await writeFile(path.join(agentDirectory, name, WORK_DIRECTORY_MARKER_PATH), marker);
      await writeFile(path.join(agentDirectory, name, 'user-file.txt'), 'keep me');
    }
    await mkdir(path.join(agentDirectory, 'no-marker'), { recursive: true });
    await writeFile(path.join(agentDirectory, 'no-marker', 'user-file.txt'), 'keep me');

    const expectations = { foreign: 'marker_mismatch', 'not-json': 'marker_invalid', 'wrong-schema': 'marker_invalid', 'no-marker': 'marker_absent' };
    for (const [name, reason] of Object.entries(expectations)) {
      const prior = path.join(agentDirectory, name);
      const before = await snapshot(prior);
      const result = await prepare(sampleClaimedTask(), prior);
      expect({ name, reused: result.reused, reason: result.reason }).toEqual({ name, reused: false, reason });
      expect(await snapshot(prior)).toEqual(before);
    }
  });

  it('starts fresh when the prior directory is gone', async () => {
    const result = await prepare(sampleClaimedTask(), path.join(root, 'workspace-1', 'agent-1', 'vanished'));
    expect(result).toMatchObject({ reused: false, reason: 'prior_missing' });
  });

  it.each([
    { kind: 'autopilot', autopilotId: 'autopilot-1', trigger: 'schedule' },
    { kind: 'quick_create' },
  ] as const)('never reuses for a $kind task', async (source) => {
    const task = sampleClaimedTask({ source });
    const first = await prepare(task, null);
    const second = await prepare({ ...task, taskId: 'task-2' }, first.path);
    expect(second).toMatchObject({ reused: false, reason: 'source_not_reusable' });
    expect(second.path).not.toBe(first.path);
  });

  it('rejects prior directories outside the root, of another agent, or reached through a symlink', async () => {
    const outside = path.join(temporary.path, 'elsewhere');
    await mkdir(outside, { recursive: true });
    const otherAgent = await prepare(sampleClaimedTask({ agentId: 'agent-2' }), null);
    const link = path.join(root, 'workspace-1', 'agent-1', 'link');
    const mine = await prepare(sampleClaimedTask(), null);
    await symlink(mine.path, link);

    await expect(prepare(sampleClaimedTask(), outside)).resolves.toMatchObject({ reused: false, reason: 'prior_outside_root' });
    await expect(prepare(sampleClaimedTask(), `${root}/workspace-1/agent-1/../../../elsewhere`)).resolves.toMatchObject({ reason: 'prior_outside_root' });
    await expect(prepare(sampleClaimedTask(), 'relative/dir')).resolves.toMatchObject({ reason: 'prior_outside_root' });
    await expect(prepare(sampleClaimedTask(), otherAgent.path)).resolves.toMatchObject({ reason: 'prior_outside_root' });
    await expect(prepare(sampleClaimedTask(), link)).resolves.toMatchObject({ reason: 'prior_not_a_directory' });
  });

  it('does not follow a symlinked marker folder planted in a prior directory', async () => {
    const mine = await prepare(sampleClaimedTask(), null);
    const decoy = await prepare(sampleClaimedTask({ taskId: 'task-decoy' }), null);
    const bare = path.join(path.dirname(mine.path), 'bare');
    await mkdir(bare);
    await symlink(path.join(decoy.path, '.switchyard'), path.join(bare, '.switchyard'));

    await expect(prepare(sampleClaimedTask(), bare)).resolves.toMatchObject({ reused: false, reason: 'marker_invalid' });
  });

  it.each(['../escape', 'a/b', '.', '..', 'a.b', '', 'x\0y'])('rejects the traversal-prone id %j', async (identifier) => {
    await expect(prepare(sampleClaimedTask({ workspaceId: identifier }), null)).rejects.toMatchObject({ code: 'invalid_identifier' });
    await expect(prepare(sampleClaimedTask({ agentId: identifier }), null)).rejects.toBeInstanceOf(ExecEnvError);
    await expect(prepare(sampleClaimedTask({ taskId: identifier }), null)).rejects.toBeInstanceOf(ExecEnvError);
  });

  it('refuses a workspace directory that is a symlink out of the root', async () => {
    const outside = path.join(temporary.path, 'elsewhere');
    await mkdir(outside, { recursive: true });
    await mkdir(root, { recursive: true });
    await symlink(outside, path.join(root, 'workspace-1'));
    await expect(prepare(sampleClaimedTask(), null)).rejects.toMatchObject({ code: 'unsafe_path' });
    expect(await readdir(outside)).toEqual([]);
  });
});
