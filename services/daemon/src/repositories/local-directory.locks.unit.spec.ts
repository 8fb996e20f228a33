import { mkdtemp, mkdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalDirectoryLocks } from './local-directory.locks';

describe('LocalDirectoryLocks', () => {
  let root: string;
  let folder: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'local-locks-'));
    folder = path.join(root, 'project');
    await mkdir(folder);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('Given a held folder, when another task tries it through a symlink, then it is told who holds it', async () => {
    const locks = new LocalDirectoryLocks();
    await symlink(folder, path.join(root, 'alias'));
    await expect(locks.tryAcquire(folder, 'task-a')).resolves.toMatchObject({ acquired: true });
    await expect(locks.tryAcquire(path.join(root, 'alias'), 'task-b')).resolves.toMatchObject({ acquired: false, heldBy: 'task-a' });
    await expect(locks.tryAcquire(`${folder}/.`, 'task-a')).resolves.toMatchObject({ acquired: true });
  });

  it('Given a waiter, when the holder releases, then the waiter resolves and can take the lock', async () => {
    const locks = new LocalDirectoryLocks();
    await locks.tryAcquire(folder, 'task-a');
    const waited = locks.waitFor(folder);
    await expect(locks.release(folder, 'task-b')).resolves.toBe(false);
    await expect(locks.release(folder, 'task-a')).resolves.toBe(true);
    await waited;
    await expect(locks.tryAcquire(folder, 'task-b')).resolves.toMatchObject({ acquired: true });
  });

  it('Given a waiter whose task is cancelled, when the signal aborts, then the wait rejects with its reason', async () => {
    const locks = new LocalDirectoryLocks();
    await locks.tryAcquire(folder, 'task-a');
    const controller = new AbortController();
    const waited = locks.waitFor(folder, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waited).rejects.toThrow('cancelled');
  });

  it('Given a task holding locks, when it ends, then releaseAllOf frees them all', async () => {
    const locks = new LocalDirectoryLocks();
    const other = path.join(root, 'other');
    await mkdir(other);
    await locks.tryAcquire(folder, 'task-a');
    await locks.tryAcquire(other, 'task-a');
    expect(locks.releaseAllOf('task-a').sort()).toHaveLength(2);
    await expect(locks.waitFor(folder)).resolves.toBeUndefined();
  });
});
