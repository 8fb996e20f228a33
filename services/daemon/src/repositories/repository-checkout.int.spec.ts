import { mkdir, readFile, readlink, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { commitToOrigin, createOriginRepository, type OriginRepository } from '@switchyard/testing';
import { openRepositoryCache, repositoryCachePath, type RepositoryCache } from './repository.cache';
import { prepareRepositoryCheckout } from './repository-checkout.preparer';
import { RepositoryError } from './repository.error';
import { createRepositoryPlayground, freshWorkDirectory, gitIn, rejectionOf, worktreeRepository } from './repositories.spec-helper';

describe('prepareRepositoryCheckout (worktree mode, real git)', () => {
  let playground: Awaited<ReturnType<typeof createRepositoryPlayground>>;
  let origin: OriginRepository;
  let cache: RepositoryCache;
  beforeEach(async () => {
    playground = await createRepositoryPlayground();
    origin = await createOriginRepository({ directory: path.join(playground.root, 'origin', 'web.git'), files: { 'README.md': 'hello\n', 'src/app.ts': 'export const a = 1;\n' } });
    cache = await openRepositoryCache(playground.cacheRoot);
  });
  afterEach(() => playground.remove());

  it('gives two concurrent tasks on one repository their own worktree and branch from one cache', async () => {
    const repository = worktreeRepository({ url: origin.url });
    const [first, second] = await Promise.all(
      ['task-a', 'task-b'].map(async (taskId) =>
        prepareRepositoryCheckout({ cache, repository, workDirectory: await freshWorkDirectory(playground.workspacesRoot, taskId), branchName: `switchyard/task/${taskId}`, taskId }),
      ),
    );
    expect(first!.path).not.toBe(second!.path);
    expect(first!.cachePath).toBe(second!.cachePath);
    expect(path.basename(first!.cachePath!)).toMatch(/^[0-9a-f]{16}-web\.git$/);
    for (const checkout of [first!, second!]) {
      expect(checkout).toMatchObject({ checkoutMode: 'worktree', reused: false, baseCommit: origin.headCommit });
      await expect(gitIn(checkout.path, 'symbolic-ref', '--short', 'HEAD')).resolves.toBe(checkout.branch);
      await expect(readFile(path.join(checkout.path, 'README.md'), 'utf8')).resolves.toBe('hello\n');
      // No upstream: a bare `git push` from the agent cannot land on main.
      await expect(gitIn(checkout.path, 'config', '--get', `branch.${checkout.branch}.remote`).catch(() => 'none')).resolves.toBe('none');
    }
    const worktrees = await gitIn(first!.cachePath!, 'worktree', 'list', '--porcelain');
    expect(worktrees).toContain(`worktree ${first!.path}`);
    expect(worktrees).toContain(`worktree ${second!.path}`);
  });

  it('reuses a follow-up task’s worktree as it was left: commits and uncommitted files stay', async () => {
    const repository = worktreeRepository({ url: origin.url });
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');
    const branchName = 'switchyard/issue-1234abcd/task-a';
    const first = await prepareRepositoryCheckout({ cache, repository, workDirectory, branchName, taskId: 'task-a' });
    await writeFile(path.join(first.path, 'committed.txt'), 'one\n');
    await gitIn(first.path, 'add', 'committed.txt');
    await gitIn(first.path, 'commit', '-m', 'agent work');
    const agentCommit = await gitIn(first.path, 'rev-parse', 'HEAD');
    await writeFile(path.join(first.path, 'draft.txt'), 'not yet\n');
    await commitToOrigin({ path: origin.path, branch: 'main', files: { 'README.md': 'changed upstream\n' }, message: 'upstream' });

    const followUp = await prepareRepositoryCheckout({ cache, repository, workDirectory, branchName, taskId: 'task-b' });
    expect(followUp).toMatchObject({ reused: true, path: first.path, branch: branchName, baseCommit: origin.headCommit });
    await expect(gitIn(followUp.path, 'rev-parse', 'HEAD')).resolves.toBe(agentCommit);
    await expect(readFile(path.join(followUp.path, 'draft.txt'), 'utf8')).resolves.toBe('not yet\n');
    await expect(readFile(path.join(followUp.path, 'README.md'), 'utf8')).resolves.toBe('hello\n');
  });

  it('starts a later task from the fetched default branch and never prunes an earlier task branch', async () => {
    const repository = worktreeRepository({ url: origin.url });
    const early = await prepareRepositoryCheckout({ cache, repository, workDirectory: await freshWorkDirectory(playground.workspacesRoot, 'task-a'), branchName: 'switchyard/task/a', taskId: 'task-a' });
    const upstream = await commitToOrigin({ path: origin.path, branch: 'main', files: { 'src/app.ts': 'export const a = 2;\n' }, message: 'upstream change' });
    const later = await prepareRepositoryCheckout({ cache, repository, workDirectory: await freshWorkDirectory(playground.workspacesRoot, 'task-b'), branchName: 'switchyard/task/b', taskId: 'task-b' });
    expect(later.baseCommit).toBe(upstream.headCommit);
    await expect(readFile(path.join(later.path, 'src/app.ts'), 'utf8')).resolves.toBe('export const a = 2;\n');
    await expect(gitIn(early.cachePath!, 'rev-parse', '--verify', 'refs/heads/switchyard/task/a')).resolves.toBe(origin.headCommit);
    await expect(gitIn(early.cachePath!, 'config', '--get', 'remote.origin.fetch')).resolves.toBe('+refs/heads/*:refs/remotes/origin/*');
    // The clone's copies of the remote's branches were moved out of refs/heads: only task branches live there.
    await expect(gitIn(early.cachePath!, 'for-each-ref', '--format=%(refname)', 'refs/heads/')).resolves.toBe('refs/heads/switchyard/task/a\nrefs/heads/switchyard/task/b');
  });

  it('refuses a branch checked out in another work dir, and a folder that is not its worktree, with repo_branch_conflict', async () => {
    const repository = worktreeRepository({ url: origin.url });
    await prepareRepositoryCheckout({ cache, repository, workDirectory: await freshWorkDirectory(playground.workspacesRoot, 'task-a'), branchName: 'shared', taskId: 'task-a' });
    const elsewhere = await freshWorkDirectory(playground.workspacesRoot, 'task-b');
    const conflict = await rejectionOf(prepareRepositoryCheckout({ cache, repository, workDirectory: elsewhere, branchName: 'shared', taskId: 'task-b' }));
    expect(conflict).toBeInstanceOf(RepositoryError);
    expect(conflict).toMatchObject({ code: 'repo_branch_conflict', repositoryName: 'web' });
    expect(conflict.message).toMatch(/^Repository web \(file:\/\/.*web\.git\): adding its worktree failed: 'shared' is already checked out at /);

    const squatted = await freshWorkDirectory(playground.workspacesRoot, 'task-c');
    await mkdir(path.join(squatted, 'web'));
    await writeFile(path.join(squatted, 'web', 'mine.txt'), 'keep me\n');
    await expect(prepareRepositoryCheckout({ cache, repository, workDirectory: squatted, branchName: 'other', taskId: 'task-c' })).rejects.toMatchObject({ code: 'repo_branch_conflict' });
    await expect(readFile(path.join(squatted, 'web', 'mine.txt'), 'utf8')).resolves.toBe('keep me\n');
  });

  it('continues a task branch kept in the cache when its old work dir is gone', async () => {
    const repository = worktreeRepository({ url: origin.url });
    const first = await prepareRepositoryCheckout({ cache, repository, workDirectory: await freshWorkDirectory(playground.workspacesRoot, 'task-a'), branchName: 'kept', taskId: 'task-a' });
    await writeFile(path.join(first.path, 'work.txt'), 'done\n');
    await gitIn(first.path, 'add', '-A');
    await gitIn(first.path, 'commit', '-m', 'work');
    await gitIn(first.cachePath!, 'worktree', 'remove', '--force', first.path);
    const again = await prepareRepositoryCheckout({ cache, repository, workDirectory: await freshWorkDirectory(playground.workspacesRoot, 'task-b'), branchName: 'kept', taskId: 'task-b' });
    expect(again).toMatchObject({ reused: false, baseCommit: origin.headCommit });
    await expect(readFile(path.join(again.path, 'work.txt'), 'utf8')).resolves.toBe('done\n');
  });

  it('re-creates a follow-up’s worktree the agent deleted, on its branch and from its recorded base', async () => {
    const repository = worktreeRepository({ url: origin.url });
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');
    const first = await prepareRepositoryCheckout({ cache, repository, workDirectory, branchName: 'mine', taskId: 'task-a' });
    await writeFile(path.join(first.path, 'work.txt'), 'committed\n');
    await gitIn(first.path, 'add', '-A');
    await gitIn(first.path, 'commit', '-m', 'work');
    await rm(first.path, { recursive: true });
    await commitToOrigin({ path: origin.path, branch: 'main', files: { 'README.md': 'later\n' }, message: 'upstream' });

    const again = await prepareRepositoryCheckout({ cache, repository, workDirectory, branchName: 'mine', taskId: 'task-b' });
    expect(again).toMatchObject({ reused: false, path: first.path, baseCommit: origin.headCommit });
    await expect(readFile(path.join(again.path, 'work.txt'), 'utf8')).resolves.toBe('committed\n');
  });

  it('refuses a branch name git refuses with repo_branch_invalid, before touching the cache', async () => {
    const repository = worktreeRepository({ url: origin.url });
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');
    for (const branchName of ['a..b', '-x', 'ends.lock', 'has space']) {
      await expect(prepareRepositoryCheckout({ cache, repository, workDirectory, branchName, taskId: 'task-a' })).rejects.toMatchObject({ code: 'repo_branch_invalid' });
    }
    await expect(realpath(repositoryCachePath(cache, repository))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports a missing origin, a closed port and a missing default branch as repo_unavailable, leaving no cache behind', async () => {
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');
    const missing = worktreeRepository({ url: `file://${playground.root}/nowhere.git` });
    const error = await rejectionOf(prepareRepositoryCheckout({ cache, repository: missing, workDirectory, branchName: 'b', taskId: 'task-a' }));
    expect(error).toMatchObject({ code: 'repo_unavailable', isRetryable: true });
    expect(error.message).toMatch(/^Repository web \(file:\/\/.*nowhere\.git\): cloning it failed: .*does not appear to be a git repository$/);
    expect(error.message).not.toMatch(/\n\s+at /);
    await expect(realpath(repositoryCachePath(cache, missing))).rejects.toMatchObject({ code: 'ENOENT' });

    const closed = worktreeRepository({ url: `http://127.0.0.1:${await closedPort()}/web.git` });
    await expect(prepareRepositoryCheckout({ cache, repository: closed, workDirectory, branchName: 'b', taskId: 'task-a' })).rejects.toMatchObject({ code: 'repo_unavailable' });

    const noBranch = worktreeRepository({ url: origin.url, defaultBranch: 'develop' });
    await expect(prepareRepositoryCheckout({ cache, repository: noBranch, workDirectory, branchName: 'b', taskId: 'task-a' })).rejects.toThrow(/the remote has no branch develop/);
  });

  it('records the base commit in the work dir’s git-ignored .switchyard folder', async () => {
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');
    const checkout = await prepareRepositoryCheckout({ cache, repository: worktreeRepository({ url: origin.url }), workDirectory, branchName: 'b', taskId: 'task-a' });
    const record = JSON.parse(await readFile(path.join(workDirectory, '.switchyard', 'repositories.json'), 'utf8'));
    expect(record.checkouts.web).toMatchObject({ baseCommit: origin.headCommit, branch: 'b', cachePath: checkout.cachePath, preparedByTaskId: 'task-a' });
    await expect(readlink(path.join(workDirectory, 'web')).catch((error: NodeJS.ErrnoException) => error.code)).resolves.toBe('EINVAL');
  });
});

/** A port that was just free on 127.0.0.1: bound, then closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
