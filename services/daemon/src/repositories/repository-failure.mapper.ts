import { statfs } from 'node:fs/promises';
import type { RepositorySnapshot } from '@switchyard/contracts';
import { classifyGitFailure, gitFailureSummary } from './git-failure.classifier';
import { GitCommandFailure } from './git.runner';
import { RepositoryError, displayableRepositoryUrl, type RepositoryErrorCode } from './repository.error';

/** What we were doing, for the message and for the code of a failure git does not explain. */
export type RepositoryOperation = 'clone' | 'fetch' | 'worktree';

const FALLBACK_CODE: Record<RepositoryOperation, RepositoryErrorCode> = {
  clone: 'repo_unavailable',
  fetch: 'repo_unavailable',
  // "Or the folder cannot be made": a worktree that will not come is a conflict over its place.
  worktree: 'repo_branch_conflict',
};

const OPERATION_TEXT: Record<RepositoryOperation, string> = {
  clone: 'cloning it failed',
  fetch: 'fetching it failed',
  worktree: 'adding its worktree failed',
};

// Below this, a file git could not write is put down to the disk being full.
const NEARLY_FULL_BYTES = 8 * 1024 * 1024;

/** "Repository web (https://host/x): fetching it failed: <git's line>": what every error says. */
export function repositoryErrorMessage(repository: Pick<RepositorySnapshot, 'name' | 'url' | 'localPath'>, detail: string): string {
  const where = repository.url ?? repository.localPath;
  return `Repository ${repository.name}${where ? ` (${displayableRepositoryUrl(where)})` : ''}: ${detail}`;
}

/** Turns a failed git command into the typed error the task reports; anything else is rethrown. */
export async function repositoryErrorFromGit(options: {
  error: unknown;
  repository: Pick<RepositorySnapshot, 'name' | 'url' | 'localPath'>;
  operation: RepositoryOperation;
  /** Where git was writing, to tell a full disk from another write failure. */
  writingUnder: string;
}): Promise<RepositoryError> {
  const { error, repository, operation } = options;
  if (error instanceof RepositoryError) return error;
  if (!(error instanceof GitCommandFailure)) {
    if ((error as NodeJS.ErrnoException | undefined)?.code === 'ENOSPC') {
      return new RepositoryError({ code: 'disk_full', repositoryName: repository.name, message: repositoryErrorMessage(repository, `${OPERATION_TEXT[operation]}: no space left on device`) });
    }
    throw error;
  }
  const kind = classifyGitFailure(error.stderr);
  const code = await codeOfFailure(kind, operation, options.writingUnder);
  return new RepositoryError({ code, repositoryName: repository.name, message: repositoryErrorMessage(repository, `${OPERATION_TEXT[operation]}: ${gitFailureSummary(error.stderr)}`) });
}

async function codeOfFailure(kind: ReturnType<typeof classifyGitFailure>, operation: RepositoryOperation, writingUnder: string): Promise<RepositoryErrorCode> {
  switch (kind) {
    case 'disk_full':
      return 'disk_full';
    case 'auth_failed':
      return 'repo_auth_failed';
    case 'branch_checked_out':
    case 'branch_exists':
    case 'path_exists':
      return 'repo_branch_conflict';
    case 'unavailable':
      return 'repo_unavailable';
    case 'write_failed':
      return (await freeBytes(writingUnder)) < NEARLY_FULL_BYTES ? 'disk_full' : FALLBACK_CODE[operation];
    case 'unknown':
      return FALLBACK_CODE[operation];
  }
}

async function freeBytes(directory: string): Promise<number> {
  try {
    const stats = await statfs(directory);
    return stats.bavail * stats.bsize;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
