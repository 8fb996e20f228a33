import path from 'node:path';
import { REPOSITORY_NAME_PATTERN, type RepositorySnapshot } from '@switchyard/contracts';
import { GitCommandFailure, runGit } from './git.runner';
import { prepareLocalDirectoryCheckout } from './local-directory-checkout.preparer';
import { repositoryErrorMessage } from './repository-failure.mapper';
import type { RepositoryCache } from './repository.cache';
import { RepositoryError } from './repository.error';
import type { RepositoryCheckout } from './repository-checkout.types';
import { prepareWorktreeCheckout } from './worktree-checkout.preparer';

export interface PrepareRepositoryCheckoutOptions {
  cache: RepositoryCache;
  repository: RepositorySnapshot;
  /** The task's work dir (absolute, canonical: `prepareWorkDirectory`'s path). */
  workDirectory: string;
  /** From `renderRepositoryBranchName`; ignored in `local_directory` mode. */
  branchName: string;
  taskId: string;
  /** Aborts a clone, fetch or lock wait in progress (the task was cancelled). */
  signal?: AbortSignal;
  now?: () => Date;
}

/**
 * Puts the repository at `<workDirectory>/<name>`: a worktree of the daemon's cache on the task
 * branch, or a link to the local directory. Fails with a `RepositoryError` only, leaving nothing
 * half made in the work dir.
 */
export async function prepareRepositoryCheckout(options: PrepareRepositoryCheckoutOptions): Promise<RepositoryCheckout> {
  const { repository } = options;
  if (!REPOSITORY_NAME_PATTERN.test(repository.name) || !path.isAbsolute(options.workDirectory)) {
    throw new RepositoryError({ code: 'repo_branch_conflict', repositoryName: repository.name, message: repositoryErrorMessage(repository, 'its name or the work directory is not usable as a path') });
  }
  if (repository.checkoutMode === 'local_directory') {
    return prepareLocalDirectoryCheckout({ repository, workDirectory: options.workDirectory, taskId: options.taskId, ...(options.now ? { now: options.now } : {}) });
  }
  const branchName = await validBranchName(repository, options.branchName);
  return prepareWorktreeCheckout({ ...options, branchName });
}

/** `git check-ref-format --branch`: git's own rules, its normalised spelling back. */
export async function validBranchName(repository: Pick<RepositorySnapshot, 'name' | 'url' | 'localPath'>, branchName: string): Promise<string> {
  // A leading dash would read as an option; `@{-1}`-style names mean "a previous branch", not a name.
  if (!branchName.startsWith('-') && !branchName.includes('@{')) {
    try {
      return (await runGit({ args: ['check-ref-format', '--branch', branchName] })).trim();
    } catch (error) {
      if (!(error instanceof GitCommandFailure)) throw error;
    }
  }
  throw new RepositoryError({ code: 'repo_branch_invalid', repositoryName: repository.name, message: repositoryErrorMessage(repository, `git refuses the branch name ${JSON.stringify(branchName)}`) });
}
