import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { RepositorySnapshot } from '@switchyard/contracts';
import { ensureGitAskPassScript, runGit } from './git.runner';
import { repositoryErrorFromGit, repositoryErrorMessage } from './repository-failure.mapper';
import { RepositoryError } from './repository.error';

/** The daemon's bare clones, one per repository URL, shared by every task's worktrees. */
export interface RepositoryCache {
  /** Absolute and canonical. */
  readonly root: string;
  readonly askPassScript: string;
}

/** Task branches live in refs/heads/*; the remote's branches only ever in refs/remotes/origin/*, so `fetch --prune` never touches a task's. */
export const ORIGIN_FETCH_REFSPEC = '+refs/heads/*:refs/remotes/origin/*';

/** Opens (creating, 0700) the cache under `root`, e.g. `<daemon home>/repo-cache`, and its askpass script. */
export async function openRepositoryCache(root: string): Promise<RepositoryCache> {
  if (!path.isAbsolute(root)) throw new Error(`Repository cache root must be absolute: ${root}`);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const canonical = await realpath(root);
  // A dot folder: no cache entry (`<hex>-<name>.git`) can take its name.
  const askPassScript = await ensureGitAskPassScript(path.join(canonical, '.askpass'));
  return { root: canonical, askPassScript };
}

/** `<root>/<first 16 hex of sha256(url)>-<name>.git`: the URL decides identity, the name is for people. */
export function repositoryCachePath(cache: Pick<RepositoryCache, 'root'>, repository: Pick<RepositorySnapshot, 'name' | 'url'>): string {
  const url = repository.url ?? '';
  const digest = createHash('sha256').update(url.trim()).digest('hex').slice(0, 16);
  const name = repository.name.toLowerCase().replace(/[^a-z0-9._-]/g, '-').slice(0, 63);
  return path.join(cache.root, `${digest}-${name}.git`);
}

export const repositoryLockPath = (cachePath: string): string => `${cachePath}.lock`;

/** A credential belongs in `repository.credential`; one inside the URL would end up in the cache's config. */
export function assertUrlWithoutCredential(repository: Pick<RepositorySnapshot, 'name' | 'url' | 'localPath'>): string {
  const url = repository.url;
  if (url === null) {
    throw new RepositoryError({ code: 'repo_unavailable', repositoryName: repository.name, message: repositoryErrorMessage(repository, 'no URL to fetch from') });
  }
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]*@/i.test(url)) {
    throw new RepositoryError({
      code: 'repo_auth_failed',
      repositoryName: repository.name,
      message: repositoryErrorMessage(repository, 'the URL carries a password; give it as the repository credential instead'),
    });
  }
  return url;
}

/**
 * Brings the repository's bare clone up to date with its remote: `git clone --bare` the first
 * time, `git fetch --prune` afterwards. The caller holds the repository's lock. A clone is made
 * beside its place and renamed in, so a clone that failed halfway is never taken for a cache.
 */
export async function updateRepositoryCache(options: { cache: RepositoryCache; repository: RepositorySnapshot; signal?: AbortSignal }): Promise<string> {
  const { cache, repository } = options;
  const url = assertUrlWithoutCredential(repository);
  const cachePath = repositoryCachePath(cache, repository);
  const git = { credential: repository.credential, askPassScript: cache.askPassScript, ...(options.signal ? { signal: options.signal } : {}) };
  if (await isDirectory(cachePath)) {
    try {
      await runGit({ ...git, cwd: cachePath, args: ['fetch', '--prune', '--no-tags', '--quiet', 'origin', ORIGIN_FETCH_REFSPEC] });
    } catch (error) {
      throw await repositoryErrorFromGit({ error, repository, operation: 'fetch', writingUnder: cachePath });
    }
    return cachePath;
  }
  const draft = `${cachePath}.clone-${randomBytes(4).toString('hex')}`;
  try {
    await runGit({ ...git, cwd: cache.root, args: ['clone', '--bare', '--no-tags', '--quiet', '--', url, draft] });
    await moveClonedBranchesToRemoteRefs(draft);
    await rename(draft, cachePath);
  } catch (error) {
    await rm(draft, { recursive: true, force: true });
    throw await repositoryErrorFromGit({ error, repository, operation: 'clone', writingUnder: cache.root });
  }
  return cachePath;
}

/** `clone --bare` maps the remote's branches onto refs/heads/*; move them where later fetches keep them. */
async function moveClonedBranchesToRemoteRefs(bare: string): Promise<void> {
  await runGit({ cwd: bare, args: ['config', 'remote.origin.fetch', ORIGIN_FETCH_REFSPEC] });
  // gc (when a fetch finds it due) runs in the foreground, under our lock, not beside the next task's git.
  await runGit({ cwd: bare, args: ['config', 'gc.autoDetach', 'false'] });
  const listing = await runGit({ cwd: bare, args: ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/'] });
  const commands = listing
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [objectName, refName] = line.split(' ') as [string, string];
      const branch = refName.slice('refs/heads/'.length);
      return `create refs/remotes/origin/${branch} ${objectName}\ndelete ${refName} ${objectName}\n`;
    });
  if (commands.length > 0) await runGit({ cwd: bare, args: ['update-ref', '--stdin'], input: commands.join('') });
}

async function isDirectory(target: string): Promise<boolean> {
  try {
    return (await lstat(target)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
