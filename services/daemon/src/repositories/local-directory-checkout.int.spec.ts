import { mkdir, readlink, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RepositorySnapshot } from '@switchyard/contracts';
import { LocalDirectoryLocks } from './local-directory.locks';
import { prepareRepositoryCheckout } from './repository-checkout.preparer';
import { openRepositoryCache } from './repository.cache';
import { summariseRepositoryWork } from './repository-work.summariser';
import { createRepositoryPlayground, freshWorkDirectory, gitIn } from './repositories.spec-helper';

const localRepository = (localPath: string): RepositorySnapshot => ({
  name: 'tools',
  checkoutMode: 'local_directory',
  url: null,
  localPath,
  defaultBranch: 'main',
  branchTemplate: 'unused',
  credential: null,
  checkoutAtStart: true,
});

describe('local_directory checkouts (real folders and git)', () => {
  let playground: Awaited<ReturnType<typeof createRepositoryPlayground>>;
  beforeEach(async () => {
    playground = await createRepositoryPlayground();
  });
  afterEach(() => playground.remove());

  it('links a git folder in place, with its HEAD as the base, and summarises the work done in it', async () => {
    const local = path.join(playground.root, 'projects', 'tools');
    await mkdir(local, { recursive: true });
    await gitIn(local, 'init', '--quiet', '--initial-branch=trunk');
    await writeFile(path.join(local, 'tool.sh'), 'echo hi\n');
    await gitIn(local, 'add', '-A');
    await gitIn(local, 'commit', '-m', 'tool');
    const head = await gitIn(local, 'rev-parse', 'HEAD');
    const cache = await openRepositoryCache(playground.cacheRoot);
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');

    // Given through a symlinked spelling: the link points at the canonical folder.
    await mkdir(path.join(playground.root, 'aliases'));
    await symlink(local, path.join(playground.root, 'aliases', 'tools'));
    const repository = localRepository(path.join(playground.root, 'aliases', 'tools'));
    const checkout = await prepareRepositoryCheckout({ cache, repository, workDirectory, branchName: 'ignored', taskId: 'task-a' });
    expect(checkout).toMatchObject({ checkoutMode: 'local_directory', branch: 'trunk', baseCommit: head, reused: false, cachePath: null });
    await expect(readlink(checkout.path)).resolves.toBe(local);
    await expect(prepareRepositoryCheckout({ cache, repository, workDirectory, branchName: 'ignored', taskId: 'task-b' })).resolves.toMatchObject({ reused: true });

    await writeFile(path.join(checkout.path, 'tool.sh'), 'echo hello\necho again\n');
    await expect(summariseRepositoryWork({ workDirectory, repository })).resolves.toMatchObject({
      branch: 'trunk',
      baseCommit: head,
      headCommit: head,
      filesChanged: 1,
      insertions: 2,
      deletions: 1,
      uncommittedFiles: 1,
    });
  });

  it('links a plain folder with no base commit, and refuses a missing path or a file with local_directory_unavailable', async () => {
    const cache = await openRepositoryCache(playground.cacheRoot);
    const plain = path.join(playground.root, 'plain');
    await mkdir(plain);
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');
    await expect(prepareRepositoryCheckout({ cache, repository: localRepository(plain), workDirectory, branchName: 'x', taskId: 'task-a' })).resolves.toMatchObject({ baseCommit: null, branch: null });
    await expect(summariseRepositoryWork({ workDirectory, repository: localRepository(plain) })).resolves.toMatchObject({ baseCommit: null, filesChanged: 0 });

    const other = await freshWorkDirectory(playground.workspacesRoot, 'task-b');
    await expect(prepareRepositoryCheckout({ cache, repository: localRepository(path.join(playground.root, 'nope')), workDirectory: other, branchName: 'x', taskId: 'task-b' })).rejects.toMatchObject({
      code: 'local_directory_unavailable',
      message: expect.stringMatching(/^Repository tools \(.*nope\): the local path cannot be opened \(ENOENT\)$/),
    });
    await writeFile(path.join(playground.root, 'file.txt'), 'not a folder\n');
    await expect(prepareRepositoryCheckout({ cache, repository: localRepository(path.join(playground.root, 'file.txt')), workDirectory: other, branchName: 'x', taskId: 'task-b' })).rejects.toMatchObject({
      code: 'local_directory_unavailable',
    });
  });

  it('lets one task at a time hold a local folder; the next one waits for its release', async () => {
    const local = path.join(playground.root, 'shared');
    await mkdir(local);
    const locks = new LocalDirectoryLocks();
    await expect(locks.tryAcquire(local, 'task-a')).resolves.toEqual({ acquired: true, path: local });
    await expect(locks.tryAcquire(`${local}/`, 'task-b')).resolves.toEqual({ acquired: false, path: local, heldBy: 'task-a' });
    const turnOfB = locks.waitFor(local).then(() => locks.tryAcquire(local, 'task-b'));
    await locks.release(local, 'task-a');
    await expect(turnOfB).resolves.toEqual({ acquired: true, path: local });
  });
});
