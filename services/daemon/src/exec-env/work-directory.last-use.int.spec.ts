import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeWorkDirectoryTombstone } from './work-directory.tombstone';
import { createTemporaryDirectory, sampleClaimedTask } from './exec-env.spec-helper';
import { prepareWorkDirectory, readWorkDirectoryMarker, touchWorkDirectory, WORK_DIRECTORY_MARKER_PATH } from './work-directory.preparer';

const OWNER_ID = 'owner-daemon-a';
const CREATED = new Date('2026-01-01T10:00:00.000Z');
const LATER = new Date('2026-01-03T12:30:00.000Z');

describe('work directory last use (what the GC ages directories by)', () => {
  let temporary: { path: string; remove: () => Promise<void> };
  let root: string;
  beforeEach(async () => {
    temporary = await createTemporaryDirectory();
    root = path.join(temporary.path, 'workspaces');
  });
  afterEach(() => temporary.remove());

  const readMarker = async (directory: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(path.join(directory, WORK_DIRECTORY_MARKER_PATH), 'utf8')) as Record<string, unknown>;

  it('is the creation time for a fresh directory, and moves when a follow-up starts in it', async () => {
    const first = await prepareWorkDirectory({ root, ownerId: OWNER_ID, task: sampleClaimedTask(), priorWorkDirectory: null, now: () => CREATED });
    expect(first.marker).toMatchObject({ createdAt: CREATED.toISOString(), lastUsedAt: CREATED.toISOString() });

    const second = await prepareWorkDirectory({ root, ownerId: OWNER_ID, task: sampleClaimedTask({ taskId: 'task-2' }), priorWorkDirectory: first.path, now: () => LATER });

    expect(second).toMatchObject({ path: first.path, reused: true });
    expect(second.marker).toMatchObject({ createdAt: CREATED.toISOString(), createdByTaskId: first.marker.createdByTaskId, lastUsedAt: LATER.toISOString() });
    expect(await readMarker(first.path)).toEqual(second.marker);
    // Written aside and renamed over: no temp file stays behind.
    expect(await readdir(path.join(first.path, '.switchyard'))).toEqual(['.gitignore', 'workdir.json']);
  });

  it('moves when a run ends (touchWorkDirectory), nothing else in the marker changing', async () => {
    const prepared = await prepareWorkDirectory({ root, ownerId: OWNER_ID, task: sampleClaimedTask(), priorWorkDirectory: null, now: () => CREATED });

    const touched = await touchWorkDirectory(prepared.path, LATER);

    expect(touched).toEqual({ ...prepared.marker, lastUsedAt: LATER.toISOString() });
    expect(await readMarker(prepared.path)).toEqual(touched);
  });

  it('reads a marker written before lastUsedAt existed as last used when created, and reuses its directory', async () => {
    const prepared = await prepareWorkDirectory({ root, ownerId: OWNER_ID, task: sampleClaimedTask(), priorWorkDirectory: null, now: () => CREATED });
    const { lastUsedAt: _dropped, ...oldMarker } = await readMarker(prepared.path);
    await writeFile(path.join(prepared.path, WORK_DIRECTORY_MARKER_PATH), JSON.stringify(oldMarker));

    await expect(readWorkDirectoryMarker(prepared.path)).resolves.toEqual({ kind: 'valid', marker: { ...oldMarker, lastUsedAt: CREATED.toISOString() } });
    const reused = await prepareWorkDirectory({ root, ownerId: OWNER_ID, task: sampleClaimedTask({ taskId: 'task-2' }), priorWorkDirectory: prepared.path, now: () => LATER });
    expect(reused).toMatchObject({ reused: true, marker: { lastUsedAt: LATER.toISOString() } });
  });

  it('never writes a marker into a directory that has none, a broken one, or one behind a symlink', async () => {
    const bare = path.join(temporary.path, 'bare');
    const broken = path.join(temporary.path, 'broken');
    const linked = path.join(temporary.path, 'linked');
    const elsewhere = path.join(temporary.path, 'elsewhere');
    await mkdir(bare);
    await mkdir(path.join(broken, '.switchyard'), { recursive: true });
    await writeFile(path.join(broken, WORK_DIRECTORY_MARKER_PATH), '{ nope');
    await mkdir(elsewhere);
    await mkdir(linked);
    await symlink(elsewhere, path.join(linked, '.switchyard'));

    await expect(touchWorkDirectory(bare, LATER)).resolves.toBeUndefined();
    await expect(touchWorkDirectory(broken, LATER)).resolves.toBeUndefined();
    await expect(touchWorkDirectory(linked, LATER)).resolves.toBeUndefined();
    expect(await readdir(bare)).toEqual([]);
    expect(await readFile(path.join(broken, WORK_DIRECTORY_MARKER_PATH), 'utf8')).toBe('{ nope');
    expect(await readdir(elsewhere)).toEqual([]);
  });

  describe('a follow-up whose prior directory is gone', () => {
    it('says the GC removed it, when, and why, when its tombstone is there', async () => {
      const prior = await prepareWorkDirectory({ root, ownerId: OWNER_ID, task: sampleClaimedTask(), priorWorkDirectory: null });
      await rm(prior.path, { recursive: true });
      const tombstone = { schemaVersion: 1, removedAt: '2026-01-09T00:00:00.000Z', reason: 'expired', sourceKey: 'issue:issue-1' } as const;
      await writeWorkDirectoryTombstone({ agentDirectory: path.dirname(prior.path), directoryName: path.basename(prior.path), tombstone });

      const next = await prepareWorkDirectory({ root, ownerId: OWNER_ID, task: sampleClaimedTask({ taskId: 'task-2' }), priorWorkDirectory: prior.path });

      expect(next).toMatchObject({
        reused: false,
        reason: 'prior_collected',
        detail: 'the prior work directory was removed by the work-directory GC at 2026-01-09T00:00:00.000Z: it was unused for longer than DAEMON_WORKDIR_MAX_AGE_MS',
      });
      expect(next.path).not.toBe(prior.path);
    });

    it('is just missing without a tombstone, or with one that is not ours', async () => {
      const prior = await prepareWorkDirectory({ root, ownerId: OWNER_ID, task: sampleClaimedTask(), priorWorkDirectory: null });
      await rm(prior.path, { recursive: true });
      await expect(prepareWorkDirectory({ root, ownerId: OWNER_ID, task: sampleClaimedTask({ taskId: 'task-2' }), priorWorkDirectory: prior.path })).resolves.toMatchObject({
        reason: 'prior_missing',
      });

      const tombstoneFolder = path.join(path.dirname(prior.path), '.gc');
      await mkdir(tombstoneFolder);
      await writeFile(path.join(tombstoneFolder, `${path.basename(prior.path)}.json`), JSON.stringify({ schemaVersion: 1, reason: 'whatever' }));
      await expect(prepareWorkDirectory({ root, ownerId: OWNER_ID, task: sampleClaimedTask({ taskId: 'task-3' }), priorWorkDirectory: prior.path })).resolves.toMatchObject({
        reason: 'prior_missing',
        detail: 'prior work directory no longer exists',
      });
    });
  });
});
