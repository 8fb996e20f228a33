import { TechnicalError } from '@switchyard/contracts';

export const REPOSITORY_ERROR_CODES = {
  /** The remote cannot be reached or read: no such repository, host down, fetch failed, default branch missing. */
  repo_unavailable: 'repo_unavailable',
  /** The remote refused the credential (HTTP 401/403, no credential where one is needed). */
  repo_auth_failed: 'repo_auth_failed',
  /** The task branch is checked out elsewhere, or the repository's folder in the work dir is taken. */
  repo_branch_conflict: 'repo_branch_conflict',
  /** The branch template renders a name git refuses (`git check-ref-format --branch`). */
  repo_branch_invalid: 'repo_branch_invalid',
  /** The cache or work dir's disk is full. */
  disk_full: 'disk_full',
  /** A `local_directory` repository's path is missing or not a directory. */
  local_directory_unavailable: 'local_directory_unavailable',
} as const;

export type RepositoryErrorCode = keyof typeof REPOSITORY_ERROR_CODES;

/** Worth retrying later without anyone changing anything. */
const RETRYABLE: Record<RepositoryErrorCode, boolean> = {
  repo_unavailable: true,
  repo_auth_failed: false,
  repo_branch_conflict: false,
  repo_branch_invalid: false,
  disk_full: true,
  local_directory_unavailable: false,
};

/**
 * Checking a repository out or reading its work failed. The message names the repository (name and
 * URL without credentials) and says what git said, redacted; it never carries a stack trace or a
 * secret, so it can go to the task's timeline as is.
 */
export class RepositoryError extends TechnicalError<RepositoryErrorCode> {
  readonly repositoryName: string;

  constructor(options: { code: RepositoryErrorCode; repositoryName: string; message: string }) {
    // No `cause`: git's own error object holds its full command line and unredacted output.
    super(options.code, options.message, { isRetryable: RETRYABLE[options.code] });
    this.repositoryName = options.repositoryName;
  }
}

/** `https://user:token@host/x` → `https://host/x`: what a message or log may show of a URL. */
export function displayableRepositoryUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1');
}
