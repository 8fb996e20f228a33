import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repositoryWorkResultSchema } from '@switchyard/contracts';
import { createOriginRepository, type OriginRepository } from '@switchyard/testing';
import { openRepositoryCache, type RepositoryCache } from './repository.cache';
import { prepareRepositoryCheckout } from './repository-checkout.preparer';
import { summariseRepositoryWork } from './repository-work.summariser';
import { createRepositoryPlayground, freshWorkDirectory, gitIn, worktreeRepository } from './repositories.spec-helper';

describe('summariseRepositoryWork (real git)', () => {
  let playground: Awaited<ReturnType<typeof createRepositoryPlayground>>;
  let origin: OriginRepository;
  let cache: RepositoryCache;
  beforeEach(async () => {
    playground = await createRepositoryPlayground();
    origin = await createOriginRepository({
      directory: path.join(playground.root, 'origin', 'web.git'),
      files: { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'keep\n', 'gone.txt': 'x\ny\n' },
    });
    cache = await openRepositoryCache(playground.cacheRoot);
  });
  afterEach(() => playground.remove());

  it('counts committed and uncommitted work from the base, new and binary files included, leaving the agent’s index alone', async () => {
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');
    const checkout = await prepareRepositoryCheckout({ cache, repository: worktreeRepository({ url: origin.url }), workDirectory, branchName: 'work', taskId: 'task-a' });
    const inRepo = (file: string) => path.join(checkout.path, file);
    // Committed: a.txt's "two" becomes two lines (+2 -1).
    await writeFile(inRepo('a.txt'), 'one\n2a\n2b\nthree\n');
    await gitIn(checkout.path, 'commit', '-am', 'split two');
    const head = await gitIn(checkout.path, 'rev-parse', 'HEAD');
    // Uncommitted: gone.txt deleted (-2), new.txt untracked (+3), staged.txt staged (+1), logo.bin binary (0/0).
    await rm(inRepo('gone.txt'));
    await writeFile(inRepo('new.txt'), 'n1\nn2\nn3\n');
    await writeFile(inRepo('staged.txt'), 'staged\n');
    await gitIn(checkout.path, 'add', 'staged.txt');
    await writeFile(inRepo('logo.bin'), Buffer.from([0, 1, 2, 0, 255, 0, 3]));
    const indexBefore = await readFile(path.join(checkout.cachePath!, 'worktrees', 'web', 'index'));
    const stagedBefore = await gitIn(checkout.path, 'diff', '--cached', '--name-only');

    const result = await summariseRepositoryWork({ workDirectory, repository: { name: 'web', checkoutMode: 'worktree' } });
    expect(result).toEqual({
      name: 'web',
      checkoutMode: 'worktree',
      branch: 'work',
      baseCommit: origin.headCommit,
      headCommit: head,
      filesChanged: 5,
      insertions: 2 + 3 + 1,
      deletions: 1 + 2,
      uncommittedFiles: 4,
    });
    expect(repositoryWorkResultSchema.parse(result)).toEqual(result);
    await expect(readFile(path.join(checkout.cachePath!, 'worktrees', 'web', 'index'))).resolves.toEqual(indexBefore);
    await expect(gitIn(checkout.path, 'diff', '--cached', '--name-only')).resolves.toBe(stagedBefore);
  });

  it('reports an untouched checkout as zero changes at its base', async () => {
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');
    await prepareRepositoryCheckout({ cache, repository: worktreeRepository({ url: origin.url }), workDirectory, branchName: 'idle', taskId: 'task-a' });
    await expect(summariseRepositoryWork({ workDirectory, repository: { name: 'web', checkoutMode: 'worktree' } })).resolves.toMatchObject({
      baseCommit: origin.headCommit,
      headCommit: origin.headCommit,
      filesChanged: 0,
      insertions: 0,
      deletions: 0,
      uncommittedFiles: 0,
    });
  });

  it('reports a folder that is not a repository (or is missing) with nulls and zeros', async () => {
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');
    await expect(summariseRepositoryWork({ workDirectory, repository: { name: 'absent', checkoutMode: 'worktree' } })).resolves.toEqual({
      name: 'absent',
      checkoutMode: 'worktree',
      branch: null,
      baseCommit: null,
      headCommit: null,
      filesChanged: 0,
      insertions: 0,
      deletions: 0,
      uncommittedFiles: 0,
    });
  });
});
