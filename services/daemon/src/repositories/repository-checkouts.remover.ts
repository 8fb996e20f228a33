import { readdir, realpath, unlink } from 'node:fs/promises';
import path from 'node:path';
import { REPOSITORY_NAME_PATTERN } from '@switchyard/contracts';
import { GitCommandFailure, runGit } from './git.runner';
import { repositoryLockPath } from './repository.cache';
import { withRepositoryLock } from './repository-cache.lock';
import { worktreeCommonDirectory } from './worktree-checkout.preparer';

export interface RepositoryCheckoutsRemoval {
  /** Folders removed with `git worktree remove` (their caches pruned). */
  removedWorktrees: string[];
  /** Links (local_directory) unlinked; their targets are never entered. */
  unlinkedLinks: string[];
  /** What could not be removed, with git's (redacted) reason; the GC may still delete the folder. */
  failures: { path: string; reason: string }[];
}

/**
 * Undoes the work dir's checkouts before the GC deletes it: each worktree is removed through its
 * cache (`git worktree remove --force`, then `git worktree prune`), so the cache forgets it; each
 * top-level symlink is unlinked, never followed. Task branches stay in the cache: they hold the
 * agent's commits, pushed or not. With `cacheRoot`, a worktree claiming a cache elsewhere (its
 * `.git` file is the agent's to edit) is left for the GC's plain delete.
 */
export async function removeRepositoryCheckouts(workDirectory: string, options: { cacheRoot?: string } = {}): Promise<RepositoryCheckoutsRemoval> {
  const removal: RepositoryCheckoutsRemoval = { removedWorktrees: [], unlinkedLinks: [], failures: [] };
  const cacheRoot = options.cacheRoot === undefined ? undefined : await realpath(options.cacheRoot).catch(() => options.cacheRoot!);
  let entries;
  try {
    entries = await readdir(workDirectory, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return removal;
    throw error;
  }
  for (const entry of entries) {
    if (!REPOSITORY_NAME_PATTERN.test(entry.name)) continue;
    const folder = path.join(workDirectory, entry.name);
    if (entry.isSymbolicLink()) {
      await unlink(folder);
      removal.unlinkedLinks.push(folder);
      continue;
    }
    if (!entry.isDirectory()) continue;
    const cachePath = await worktreeCommonDirectory(folder);
    if (cachePath === undefined) continue;
    if (cacheRoot !== undefined && path.dirname(cachePath) !== cacheRoot) {
      removal.failures.push({ path: folder, reason: 'its .git points outside the repository cache' });
      continue;
    }
    try {
      await withRepositoryLock({ lockPath: repositoryLockPath(cachePath) }, async () => {
        await runGit({ cwd: cachePath, args: ['worktree', 'remove', '--force', '--force', folder] });
        await runGit({ cwd: cachePath, args: ['worktree', 'prune'] });
      });
      removal.removedWorktrees.push(folder);
    } catch (error) {
      if (!(error instanceof GitCommandFailure)) throw error;
      removal.failures.push({ path: folder, reason: error.stderr.trim() || error.message });
    }
  }
  return removal;
}

