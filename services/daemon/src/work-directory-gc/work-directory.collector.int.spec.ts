import { writeFileSync } from 'node:fs';
import { access, chmod, mkdir, readdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTemporaryDirectory, sampleClaimedTask } from '../exec-env/exec-env.spec-helper';
import { prepareWorkDirectory, WORK_DIRECTORY_MARKER_PATH } from '../exec-env/work-directory.preparer';
import { removeRepositoryCheckouts } from '../repositories';
import { measureDirectorySize } from './directory-size.meter';
import { WorkDirectoryCollector, type WorkDirectoryCollectorOptions } from './work-directory.collector';
import { capturingLogger, DAY_MS, git, makeBareCache, makeWorkDirectory } from './work-directory-gc.spec-helper';
import { TOMBSTONE_RETENTION_MS, writeWorkDirectoryTombstone } from '../exec-env/work-directory.tombstone';

const OWNER_ID = 'owner-daemon-a';
const NOW_MS = Date.parse('2026-03-01T12:00:00.000Z');
const SETTINGS = { intervalMs: 0, maxAgeMs: 7 * DAY_MS, maxBytesPerAgent: 1024 ** 3 };
const noCheckouts = () => Promise.resolve({ failures: [] });

const exists = (target: string) => access(target).then(() => true, () => false);

describe('WorkDirectoryCollector on real directories', () => {
  let temporary: { path: string; remove: () => Promise<void> };
  let root: string;
  let log: ReturnType<typeof capturingLogger>;
  beforeEach(async () => {
    temporary = await createTemporaryDirectory();
    root = path.join(temporary.path, 'workspaces');
    await mkdir(root);
    root = await realpath(root);
    log = capturingLogger();
  });
  afterEach(() => temporary.remove());

  const collector = (overrides: Partial<WorkDirectoryCollectorOptions> = {}) =>
    new WorkDirectoryCollector({ root, ownerId: OWNER_ID, settings: SETTINGS, inUse: () => new Set(), removeRepositoryCheckouts: noCheckouts, logger: log.logger, now: () => new Date(NOW_MS), ...overrides });
  const make = (idleMs: number, options: Omit<Parameters<typeof makeWorkDirectory>[0], 'root' | 'ownerId' | 'nowMs' | 'idleMs'> = {}) =>
    makeWorkDirectory({ root, ownerId: OWNER_ID, nowMs: NOW_MS, idleMs, ...options });

  it('removes a directory unused past the max age, logs it, and leaves a tombstone a follow-up reports', async () => {
    const old = await make(8 * DAY_MS, { task: { source: { kind: 'issue', issueId: 'issue-1', trigger: 'assignment', commentId: null } } });
    const young = await make(1 * DAY_MS);
    const { bytes } = await measureDirectorySize(old);

    const collection = await collector().collectOnce();

    expect(collection.removed).toEqual([{ path: old, reason: 'expired', bytes }]);
    expect(await exists(old)).toBe(false);
    expect(await exists(young)).toBe(true);
    expect(log.lines.filter((line) => line['event'] === 'work_directory_removed')).toEqual([expect.objectContaining({ path: old, reason: 'expired', bytes })]);

    const followUp = await prepareWorkDirectory({ root, ownerId: OWNER_ID, task: sampleClaimedTask({ taskId: 'task-2' }), priorWorkDirectory: old });
    expect(followUp).toMatchObject({ reused: false, reason: 'prior_collected', detail: expect.stringContaining('removed by the work-directory GC at 2026-03-01T12:00:00.000Z') });
  });

  it('keeps an expired directory a task runs in, even when the task starts between the scan and the removal', async () => {
    const running = await make(30 * DAY_MS);
    const startsMidPass = await make(30 * DAY_MS);
    let calls = 0;
    // The first look (the scan) sees only `running`; from then on the other one runs too.
    const inUse = () => new Set(calls++ === 0 ? [running] : [running, startsMidPass]);

    const collection = await collector({ inUse }).collectOnce();

    expect(collection.removed).toEqual([]);
    expect(collection.spared).toEqual([{ path: startsMidPass, why: 'a task runs in it now' }]);
    expect(await exists(running)).toBe(true);
    expect(await exists(startsMidPass)).toBe(true);
  });

  it('spares a directory a follow-up started in since the scan (its lastUsedAt moved)', async () => {
    const directory = await make(30 * DAY_MS);
    const markerPath = path.join(directory, WORK_DIRECTORY_MARKER_PATH);
    const marker = JSON.parse(await readFile(markerPath, 'utf8'));
    const removeRepositoryCheckouts = jest.fn(noCheckouts);
    let looks = 0;
    // The second look is right before the removal: a follow-up's prepare has touched the marker by then.
    const inUse = () => {
      looks += 1;
      if (looks === 2) writeFileSync(markerPath, JSON.stringify({ ...marker, lastUsedAt: new Date(NOW_MS).toISOString() }));
      return new Set<string>();
    };

    const collection = await collector({ inUse, removeRepositoryCheckouts }).collectOnce();

    expect(collection.spared).toEqual([{ path: directory, why: 'it was used since the scan' }]);
    expect(removeRepositoryCheckouts).not.toHaveBeenCalled();
    expect(await exists(directory)).toBe(true);
  });

  it('keeps a young resume target of an agent over its budget, and removes least recently used directories first', async () => {
    const issue = { source: { kind: 'issue', issueId: 'issue-1', trigger: 'assignment', commentId: null } } as const;
    const resumeTarget = await make(5 * DAY_MS, { task: issue, fileBytes: 256 * 1024 });
    const oldest = await make(4 * DAY_MS, { fileBytes: 256 * 1024 });
    const middle = await make(3 * DAY_MS, { fileBytes: 256 * 1024 });
    const newest = await make(2 * DAY_MS, { fileBytes: 256 * 1024 });
    const sizes = await Promise.all([resumeTarget, middle, newest].map(async (directory) => (await measureDirectorySize(directory)).bytes));
    // Room for three of the four.
    const maxBytesPerAgent = sizes.reduce((total, bytes) => total + bytes, 0) + 1_024;

    const collection = await collector({ settings: { ...SETTINGS, maxBytesPerAgent } }).collectOnce();

    expect(collection.removed.map((removal) => [removal.path, removal.reason])).toEqual([[oldest, 'over_size_budget']]);
    for (const kept of [resumeTarget, middle, newest]) expect(await exists(kept)).toBe(true);
  });

  it('never touches a directory without our marker, with another owner, behind a symlink, or outside the root', async () => {
    const agentDirectory = path.dirname(await make(1 * DAY_MS));
    const foreign = await makeWorkDirectory({ root, ownerId: 'owner-daemon-b', nowMs: NOW_MS, idleMs: 30 * DAY_MS });
    const unmarked = path.join(agentDirectory, 'no-marker');
    await mkdir(unmarked);
    await writeFile(path.join(unmarked, 'user-file.txt'), 'keep me');
    const brokenMarker = path.join(agentDirectory, 'broken-marker');
    await mkdir(path.join(brokenMarker, '.switchyard'), { recursive: true });
    await writeFile(path.join(brokenMarker, WORK_DIRECTORY_MARKER_PATH), '{ nope');
    // Ours and expired, but outside the root: reached only through links planted under it.
    const outsideRoot = path.join(temporary.path, 'outside');
    const outside = await makeWorkDirectory({ root: outsideRoot, ownerId: OWNER_ID, nowMs: NOW_MS, idleMs: 30 * DAY_MS });
    await symlink(outside, path.join(agentDirectory, 'linked-task'));
    await symlink(path.join(outsideRoot, 'workspace-1'), path.join(root, 'linked-workspace'));
    await symlink(path.dirname(outside), path.join(root, 'workspace-1', 'linked-agent'));

    const collection = await collector().collectOnce();

    expect(collection.removed).toEqual([]);
    expect(collection.failed).toEqual([]);
    expect(collection.skipped).toBe(4);
    for (const kept of [foreign, unmarked, brokenMarker, outside]) expect(await exists(kept)).toBe(true);
    expect(await readFile(path.join(unmarked, 'user-file.txt'), 'utf8')).toBe('keep me');
  });

  it('takes a real git worktree off its cache before deleting the directory (removeRepositoryCheckouts)', async () => {
    const cache = await makeBareCache({ directory: temporary.path, name: 'repo-a' });
    const directory = await make(8 * DAY_MS);
    const checkout = path.join(directory, 'repo-a');
    await git(cache, 'worktree', 'add', '--quiet', '-b', 'switchyard/issue-1/task-1', checkout, 'main');
    await writeFile(path.join(checkout, 'agent-change.txt'), 'uncommitted work');
    const localTarget = path.join(temporary.path, 'local-repo');
    await mkdir(localTarget);
    await writeFile(path.join(localTarget, 'precious.txt'), 'the user checkout');
    await symlink(localTarget, path.join(directory, 'repo-local'));
    expect(await git(cache, 'worktree', 'list', '--porcelain')).toContain(checkout);

    const collection = await collector({ removeRepositoryCheckouts: (workDirectory) => removeRepositoryCheckouts(workDirectory, { cacheRoot: path.dirname(cache) }) }).collectOnce();

    expect(collection).toMatchObject({ removed: [{ path: directory, reason: 'expired' }], failed: [] });
    expect(await exists(directory)).toBe(false);
    expect(await git(cache, 'worktree', 'list', '--porcelain')).not.toContain(checkout);
    // The task branch stays in the cache (it holds the agent's commits); the linked local folder is never entered.
    expect(await git(cache, 'branch', '--list', 'switchyard/*')).toContain('switchyard/issue-1/task-1');
    expect(await readFile(path.join(localTarget, 'precious.txt'), 'utf8')).toBe('the user checkout');
  });

  it('goes on past a directory it cannot remove, and says which', async () => {
    const stuck = await make(9 * DAY_MS);
    const other = await make(8 * DAY_MS);
    const removeRepositoryCheckouts = (workDirectory: string) => (workDirectory === stuck ? Promise.reject(new Error('git is broken here')) : noCheckouts());

    const collection = await collector({ removeRepositoryCheckouts }).collectOnce();

    expect(collection.failed).toEqual([{ path: stuck, error: 'git is broken here' }]);
    expect(collection.removed.map((removal) => removal.path)).toEqual([other]);
    expect(await exists(stuck)).toBe(true);
    expect(log.lines).toContainEqual(expect.objectContaining({ event: 'work_directory_removal_failed', path: stuck }));
  });

  // As root (CI containers) the first `rm` already succeeds; as a user it needs removeTree's chmod retry.
  it('removes trees a tool made read-only', async () => {
    const directory = await make(8 * DAY_MS);
    const readOnly = path.join(directory, 'go', 'pkg', 'mod', 'example.com');
    await mkdir(readOnly, { recursive: true });
    await writeFile(path.join(readOnly, 'go.mod'), 'module example.com\n');
    await chmod(readOnly, 0o555);
    await chmod(path.dirname(readOnly), 0o555);

    await expect(collector().collectOnce()).resolves.toMatchObject({ removed: [{ path: directory }], failed: [] });
    expect(await exists(directory)).toBe(false);
  });

  it('drops tombstones past their retention and keeps younger ones', async () => {
    const agentDirectory = path.dirname(await make(1 * DAY_MS));
    const tombstone = (removedAtMs: number) => ({ schemaVersion: 1, removedAt: new Date(removedAtMs).toISOString(), reason: 'expired', sourceKey: 'issue:1' }) as const;
    await writeWorkDirectoryTombstone({ agentDirectory, directoryName: 'stale-1', tombstone: tombstone(NOW_MS - TOMBSTONE_RETENTION_MS - 1) });
    await writeWorkDirectoryTombstone({ agentDirectory, directoryName: 'recent-1', tombstone: tombstone(NOW_MS - DAY_MS) });

    await expect(collector().collectOnce()).resolves.toMatchObject({ tombstonesPruned: 1 });
    expect(await readdir(path.join(agentDirectory, '.gc'))).toEqual(['recent-1.json']);
  });

  it('passes on its timer once started, and stops', async () => {
    const old = await make(8 * DAY_MS);
    const gc = collector({ settings: { ...SETTINGS, intervalMs: 5 } });
    gc.start();
    await waitFor(() => log.lines.some((line) => line['event'] === 'work_directory_removed'));
    await gc.stop();
    expect(await exists(old)).toBe(false);
  });

  it('has no timer when the interval is 0, and collectOnce still works', async () => {
    const old = await make(8 * DAY_MS);
    const gc = collector();
    gc.start();
    await gc.stop();
    expect(await exists(old)).toBe(true);
    await expect(collector().collectOnce()).resolves.toMatchObject({ removed: [{ path: old }] });
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
