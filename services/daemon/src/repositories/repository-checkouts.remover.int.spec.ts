import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createOriginRepository } from '@switchyard/testing';
import { openRepositoryCache } from './repository.cache';
import { prepareRepositoryCheckout } from './repository-checkout.preparer';
import { removeRepositoryCheckouts } from './repository-checkouts.remover';
import { createRepositoryPlayground, freshWorkDirectory, gitIn, worktreeRepository } from './repositories.spec-helper';

describe('removeRepositoryCheckouts (real git)', () => {
  let playground: Awaited<ReturnType<typeof createRepositoryPlayground>>;
  beforeEach(async () => {
    playground = await createRepositoryPlayground();
  });
  afterEach(() => playground.remove());

  it('removes dirty worktrees through their cache, unlinks local links without following them, and keeps task branches', async () => {
    const origin = await createOriginRepository({ directory: path.join(playground.root, 'origin', 'web.git'), files: { 'a.txt': 'a\n' } });
    const cache = await openRepositoryCache(playground.cacheRoot);
    const local = path.join(playground.root, 'local-tools');
    await mkdir(local);
    await writeFile(path.join(local, 'precious.txt'), 'do not delete\n');
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');
    const web = await prepareRepositoryCheckout({ cache, repository: worktreeRepository({ url: origin.url }), workDirectory, branchName: 'task-branch', taskId: 'task-a' });
    await writeFile(path.join(web.path, 'a.txt'), 'uncommitted\n');
    await writeFile(path.join(web.path, 'untracked.txt'), 'new\n');
    const tools = await prepareRepositoryCheckout({
      cache,
      repository: { ...worktreeRepository({ url: origin.url }), name: 'tools', checkoutMode: 'local_directory', url: null, localPath: local },
      workDirectory,
      branchName: 'x',
      taskId: 'task-a',
    });
    await mkdir(path.join(workDirectory, 'notes'));

    const removal = await removeRepositoryCheckouts(workDirectory, { cacheRoot: playground.cacheRoot });
    expect(removal).toEqual({ removedWorktrees: [web.path], unlinkedLinks: [tools.path], failures: [] });
    await expect(access(web.path)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(access(tools.path)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(access(path.join(local, 'precious.txt'))).resolves.toBeUndefined();
    await expect(access(path.join(workDirectory, 'notes'))).resolves.toBeUndefined();
    await expect(gitIn(web.cachePath!, 'worktree', 'list', '--porcelain')).resolves.not.toContain(web.path);
    await expect(gitIn(web.cachePath!, 'rev-parse', '--verify', 'refs/heads/task-branch')).resolves.toBe(origin.headCommit);
  });

  it('leaves a worktree whose .git claims a cache outside the cache root, and accepts a work dir already gone', async () => {
    const origin = await createOriginRepository({ directory: path.join(playground.root, 'origin', 'web.git'), files: { 'a.txt': 'a\n' } });
    const foreign = path.join(playground.root, 'foreign-cache');
    const cache = await openRepositoryCache(foreign);
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');
    const web = await prepareRepositoryCheckout({ cache, repository: worktreeRepository({ url: origin.url }), workDirectory, branchName: 'b', taskId: 'task-a' });
    const removal = await removeRepositoryCheckouts(workDirectory, { cacheRoot: playground.cacheRoot });
    expect(removal.failures).toEqual([{ path: web.path, reason: 'its .git points outside the repository cache' }]);
    await expect(access(web.path)).resolves.toBeUndefined();
    await expect(removeRepositoryCheckouts(path.join(playground.root, 'gone'))).resolves.toEqual({ removedWorktrees: [], unlinkedLinks: [], failures: [] });
  });
});
