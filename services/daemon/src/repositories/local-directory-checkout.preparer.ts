import { lstat, readlink, realpath, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import type { RepositorySnapshot } from '@switchyard/contracts';
import { GitCommandFailure, runGit } from './git.runner';
import { recordRepositoryCheckout } from './repository-checkouts.record';
import { repositoryErrorMessage } from './repository-failure.mapper';
import { RepositoryError } from './repository.error';
import type { RepositoryCheckout } from './repository-checkout.types';

/**
 * `<workDirectory>/<name>` as a symlink to the repository's local path, worked in place (no
 * branch is made; the caller holds `LocalDirectoryLocks` for the path). The base commit is the
 * folder's HEAD when it is in a git repository, else null.
 */
export async function prepareLocalDirectoryCheckout(options: {
  repository: RepositorySnapshot;
  workDirectory: string;
  taskId: string;
  now?: () => Date;
}): Promise<RepositoryCheckout> {
  const { repository, workDirectory } = options;
  const localPath = await canonicalLocalDirectory(repository);
  const target = path.join(workDirectory, repository.name);
  const reused = await existingLinkTo(target, localPath, repository);
  if (!reused) {
    try {
      await symlink(localPath, target, 'dir');
    } catch (error) {
      throw new RepositoryError({
        code: (error as NodeJS.ErrnoException).code === 'ENOSPC' ? 'disk_full' : 'repo_branch_conflict',
        repositoryName: repository.name,
        message: repositoryErrorMessage(repository, `its link in the work directory could not be made (${(error as NodeJS.ErrnoException).code ?? 'error'})`),
      });
    }
  }
  const { baseCommit, branch } = await gitStateOf(localPath);
  if (!reused) {
    await recordRepositoryCheckout(workDirectory, {
      name: repository.name,
      checkoutMode: 'local_directory',
      branch,
      baseCommit,
      cachePath: null,
      localPath,
      preparedByTaskId: options.taskId,
      preparedAt: (options.now ?? (() => new Date()))().toISOString(),
    });
  }
  return { name: repository.name, checkoutMode: 'local_directory', path: target, branch, baseCommit, reused, cachePath: null };
}

/** The local path, canonical, once it is proven an existing directory. */
export async function canonicalLocalDirectory(repository: Pick<RepositorySnapshot, 'name' | 'url' | 'localPath'>): Promise<string> {
  const unavailable = (detail: string): RepositoryError =>
    new RepositoryError({ code: 'local_directory_unavailable', repositoryName: repository.name, message: repositoryErrorMessage(repository, detail) });
  const localPath = repository.localPath;
  if (localPath === null || !path.isAbsolute(localPath)) throw unavailable('the local path is not an absolute path');
  try {
    if (!(await stat(localPath)).isDirectory()) throw unavailable('the local path is not a directory');
    return await realpath(localPath);
  } catch (error) {
    if (error instanceof RepositoryError) throw error;
    throw unavailable(`the local path cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** True when `target` is already our link to `localPath` (a follow-up); a conflict when it is anything else. */
async function existingLinkTo(target: string, localPath: string, repository: RepositorySnapshot): Promise<boolean> {
  let stats;
  try {
    stats = await lstat(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if (stats.isSymbolicLink() && path.resolve(path.dirname(target), await readlink(target)) === localPath) return true;
  throw new RepositoryError({
    code: 'repo_branch_conflict',
    repositoryName: repository.name,
    message: repositoryErrorMessage(repository, `${repository.name} in the work directory exists and is not a link to the local path`),
  });
}

async function gitStateOf(directory: string): Promise<{ baseCommit: string | null; branch: string | null }> {
  const read = async (args: string[]): Promise<string | null> => {
    try {
      return (await runGit({ cwd: directory, args })).trim() || null;
    } catch (error) {
      if (error instanceof GitCommandFailure) return null;
      throw error;
    }
  };
  const baseCommit = await read(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  const branch = baseCommit === null && (await read(['rev-parse', '--git-dir'])) === null ? null : await read(['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return { baseCommit, branch };
}
