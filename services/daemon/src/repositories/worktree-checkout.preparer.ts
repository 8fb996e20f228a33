import { lstat, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { RepositorySnapshot } from '@switchyard/contracts';
import { GitCommandFailure, runGit } from './git.runner';
import { readRepositoryCheckouts, recordRepositoryCheckout } from './repository-checkouts.record';
import { repositoryErrorFromGit, repositoryErrorMessage } from './repository-failure.mapper';
import { repositoryCachePath, repositoryLockPath, updateRepositoryCache, type RepositoryCache } from './repository.cache';
import { withRepositoryLock } from './repository-cache.lock';
import { RepositoryError } from './repository.error';
import type { RepositoryCheckout } from './repository-checkout.types';

export interface PrepareWorktreeOptions {
  cache: RepositoryCache;
  repository: RepositorySnapshot;
  workDirectory: string;
  branchName: string;
  taskId: string;
  signal?: AbortSignal;
  now?: () => Date;
}

/**
 * `<workDirectory>/<name>` as a worktree of the repository's cache on the task branch, started
 * from the freshly fetched `origin/<defaultBranch>`. A folder already there that is a worktree of
 * this cache on this branch (a follow-up task) is reused untouched, commits and uncommitted files alike.
 */
export async function prepareWorktreeCheckout(options: PrepareWorktreeOptions): Promise<RepositoryCheckout> {
  const { cache, repository, workDirectory, branchName } = options;
  const target = path.join(workDirectory, repository.name);
  const cachePath = repositoryCachePath(cache, repository);
  const conflict = (detail: string): RepositoryError =>
    new RepositoryError({ code: 'repo_branch_conflict', repositoryName: repository.name, message: repositoryErrorMessage(repository, detail) });

  const recorded = (await readRepositoryCheckouts(workDirectory))[repository.name];
  const existing = await inspectExistingFolder({ target, cachePath, branchName });
  if (existing.state === 'conflict') throw conflict(existing.detail);
  if (existing.state === 'reusable') {
    const baseCommit = recorded?.baseCommit ?? (await mergeBaseWithDefault({ cachePath, repository, commitish: branchName }));
    return { name: repository.name, checkoutMode: 'worktree', path: target, branch: branchName, baseCommit, reused: true, cachePath };
  }

  const { baseCommit } = await withRepositoryLock({ lockPath: repositoryLockPath(cachePath), ...(options.signal ? { signal: options.signal } : {}) }, async () => {
    await updateRepositoryCache({ cache, repository, ...(options.signal ? { signal: options.signal } : {}) });
    const defaultHead = await remoteDefaultHead({ cachePath, repository });
    const branchExists = (await revisionOf(cachePath, `refs/heads/${branchName}`)) !== undefined;
    try {
      // Forgets worktrees whose folders are gone (an agent's `rm -rf`, a collected work dir), so their branches are free again.
      await runGit({ cwd: cachePath, args: ['worktree', 'prune'] });
      // Started from the commit, not `origin/<default>`: no upstream is set, so a bare `git push` cannot land on the default branch.
      const args = branchExists ? ['worktree', 'add', '--quiet', target, branchName] : ['worktree', 'add', '--quiet', '--no-track', '-b', branchName, target, defaultHead];
      await runGit({ cwd: cachePath, args });
    } catch (error) {
      throw await repositoryErrorFromGit({ error, repository, operation: 'worktree', writingUnder: workDirectory });
    }
    if (!branchExists) return { baseCommit: defaultHead };
    // A branch kept from earlier (this work dir's folder deleted, or an earlier task's dir collected) keeps its base.
    return { baseCommit: recorded?.branch === branchName ? recorded.baseCommit : await mergeBaseWithDefault({ cachePath, repository, commitish: branchName }) };
  });

  await recordRepositoryCheckout(workDirectory, {
    name: repository.name,
    checkoutMode: 'worktree',
    branch: branchName,
    baseCommit,
    cachePath,
    localPath: null,
    preparedByTaskId: options.taskId,
    preparedAt: (options.now ?? (() => new Date()))().toISOString(),
  });
  return { name: repository.name, checkoutMode: 'worktree', path: target, branch: branchName, baseCommit, reused: false, cachePath };
}

type ExistingFolder = { state: 'absent' } | { state: 'reusable' } | { state: 'conflict'; detail: string };

async function inspectExistingFolder(options: { target: string; cachePath: string; branchName: string }): Promise<ExistingFolder> {
  const { target } = options;
  let stats;
  try {
    stats = await lstat(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'absent' };
    throw error;
  }
  if (!stats.isDirectory()) return { state: 'conflict', detail: `${path.basename(target)} in the work directory exists and is not a folder` };
  const commonDirectory = await worktreeCommonDirectory(target);
  const cacheReal = await realpath(options.cachePath).catch(() => undefined);
  if (commonDirectory === undefined || commonDirectory !== cacheReal) {
    return { state: 'conflict', detail: `folder ${path.basename(target)} in the work directory exists and is not a worktree of this repository` };
  }
  const branch = await runGit({ cwd: target, args: ['symbolic-ref', '--quiet', '--short', 'HEAD'] }).catch(() => null);
  if (branch !== options.branchName) {
    return { state: 'conflict', detail: `its folder in the work directory is on ${branch ?? 'a detached HEAD'}, not ${options.branchName}` };
  }
  return { state: 'reusable' };
}

/**
 * The repository a worktree belongs to, read from its `.git` file (`gitdir: <cache>/worktrees/<x>`)
 * and that folder's `commondir`; canonical, or undefined when the folder is not a linked worktree.
 */
export async function worktreeCommonDirectory(worktree: string): Promise<string | undefined> {
  try {
    const dotGit = path.join(worktree, '.git');
    if (!(await lstat(dotGit)).isFile()) return undefined;
    const pointer = /^gitdir: (.+)$/m.exec(await readFile(dotGit, 'utf8'))?.[1]?.trim();
    if (!pointer) return undefined;
    const gitDirectory = path.resolve(worktree, pointer);
    const common = (await readFile(path.join(gitDirectory, 'commondir'), 'utf8')).trim();
    return await realpath(path.resolve(gitDirectory, common));
  } catch {
    return undefined;
  }
}

async function revisionOf(cachePath: string, ref: string): Promise<string | undefined> {
  try {
    return (await runGit({ cwd: cachePath, args: ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`] })).trim() || undefined;
  } catch (error) {
    if (error instanceof GitCommandFailure) return undefined;
    throw error;
  }
}

async function remoteDefaultHead(options: { cachePath: string; repository: RepositorySnapshot }): Promise<string> {
  const head = await revisionOf(options.cachePath, `refs/remotes/origin/${options.repository.defaultBranch}`);
  if (head !== undefined) return head;
  throw new RepositoryError({
    code: 'repo_unavailable',
    repositoryName: options.repository.name,
    message: repositoryErrorMessage(options.repository, `the remote has no branch ${options.repository.defaultBranch}`),
  });
}

async function mergeBaseWithDefault(options: { cachePath: string; repository: RepositorySnapshot; commitish: string }): Promise<string | null> {
  const output = await runGit({ cwd: options.cachePath, args: ['merge-base', options.commitish, `refs/remotes/origin/${options.repository.defaultBranch}`] }).catch(() => '');
  return output.trim() || null;
}
