import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RepositoryCheckoutMode, RepositoryWorkResult } from '@switchyard/contracts';
import { countPorcelainEntries, parseNumstat } from './diff-numstat.parser';
import { GitCommandFailure, runGit } from './git.runner';
import { readRepositoryCheckouts } from './repository-checkouts.record';

const EMPTY_RESULT_COUNTS = { filesChanged: 0, insertions: 0, deletions: 0, uncommittedFiles: 0 } as const;

/**
 * What the task left in `<workDirectory>/<name>`: its branch and HEAD, and the diff from the base
 * commit recorded at checkout to the work tree as it is, committed or not, new files included.
 * The diff is taken through a scratch index (GIT_INDEX_FILE): the agent's own index and staging
 * stay exactly as it left them.
 */
export async function summariseRepositoryWork(options: {
  workDirectory: string;
  repository: { name: string; checkoutMode: RepositoryCheckoutMode };
  /** Scratch space for the temporary index; the OS temp dir unless given (e.g. the work dir's `.switchyard/tmp`). */
  scratchDirectory?: string;
}): Promise<RepositoryWorkResult> {
  const { repository } = options;
  const folder = path.join(options.workDirectory, repository.name);
  const recorded = (await readRepositoryCheckouts(options.workDirectory))[repository.name];
  const base = { name: repository.name, checkoutMode: repository.checkoutMode };
  const headCommit = await gitOrNull(folder, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  const isRepository = headCommit !== null || (await gitOrNull(folder, ['rev-parse', '--git-dir'])) !== null;
  if (!isRepository) return { ...base, branch: null, baseCommit: null, headCommit: null, ...EMPTY_RESULT_COUNTS };

  const branch = await gitOrNull(folder, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  const baseCommit = recorded?.baseCommit ?? null;
  const totals = await diffAgainstWorkTree({ folder, from: baseCommit ?? (await emptyTree(folder)), scratchDirectory: options.scratchDirectory ?? tmpdir() });
  // GIT_OPTIONAL_LOCKS=0: status must not refresh (write) the agent's index.
  const status = await runGit({ cwd: folder, args: ['status', '--porcelain', '-z', '--no-renames', '--untracked-files=all'], env: { GIT_OPTIONAL_LOCKS: '0' } });
  return { ...base, branch, baseCommit, headCommit, ...totals, uncommittedFiles: countPorcelainEntries(status) };
}

async function diffAgainstWorkTree(options: { folder: string; from: string; scratchDirectory: string }): Promise<ReturnType<typeof parseNumstat>> {
  const scratch = await mkdtemp(path.join(options.scratchDirectory, 'switchyard-diff-'));
  const index = path.join(scratch, 'index');
  try {
    // Starting from a copy of the real index lets `add -A` skip every file whose stat is unchanged.
    const realIndex = await runGit({ cwd: options.folder, args: ['rev-parse', '--path-format=absolute', '--git-path', 'index'] });
    await copyFile(realIndex.trim(), index).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    const env = { GIT_INDEX_FILE: index };
    await runGit({ cwd: options.folder, args: ['add', '--all', '--', '.'], env });
    const numstat = await runGit({ cwd: options.folder, args: ['diff', '--cached', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', options.from], env });
    return parseNumstat(numstat);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The empty tree's id in this repository's hash (sha1 or sha256): the base of a folder that had no commit. */
async function emptyTree(folder: string): Promise<string> {
  return (await runGit({ cwd: folder, args: ['hash-object', '-t', 'tree', '--stdin'], input: '' })).trim();
}

async function gitOrNull(folder: string, args: string[]): Promise<string | null> {
  try {
    return (await runGit({ cwd: folder, args })).trim() || null;
  } catch (error) {
    if (error instanceof GitCommandFailure) return null;
    throw error;
  }
}
