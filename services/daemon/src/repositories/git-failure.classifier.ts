/** What a failed git command's stderr says went wrong, as far as its wording tells. */
export type GitFailureKind =
  | 'disk_full'
  | 'auth_failed'
  | 'branch_checked_out'
  | 'branch_exists'
  | 'path_exists'
  /** A file could not be written, reason unsaid (git 2.39's checkout on a full disk says only this). */
  | 'write_failed'
  | 'unavailable'
  | 'unknown';

// First match wins: a full disk explains any error after it, and an ssh or HTTP refusal is
// followed by the same "Could not read from remote repository" as a missing repository.
const RULES: readonly (readonly [GitFailureKind, RegExp])[] = [
  ['disk_full', /No space left on device|\bENOSPC\b|Disk quota exceeded/i],
  [
    'auth_failed',
    /Authentication failed for|could not read (Username|Password) for|The requested URL returned error: 40[13]\b|Permission denied \(publickey|HTTP Basic: Access denied|Invalid username or password/i,
  ],
  ['branch_checked_out', /is already (checked out|used by worktree) at/i],
  ['branch_exists', /a branch named '.*' already exists/i],
  ['path_exists', /^fatal: '.*' already exists$/im],
  ['write_failed', /unable to write (file|new index file)|Could not reset index file/i],
  [
    'unavailable',
    /does not appear to be a git repository|Could not read from remote repository|repository '.*' (does not exist|not found)|unable to access '|Could not resolve host|Failed to connect|Connection (refused|timed out|reset)|couldn't find remote ref|remote end hung up|early EOF|RPC failed|unable to connect|returned error: 5\d\d/i,
  ],
];

/** Classifies git's stderr (LC_ALL=C wording); pure, so recorded stderr is its test. */
export function classifyGitFailure(stderr: string): GitFailureKind {
  for (const [kind, pattern] of RULES) if (pattern.test(stderr)) return kind;
  return 'unknown';
}

/** The line worth quoting: git's last `fatal:` (or `error:`) line, without the prefix. */
export function gitFailureSummary(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const fatal = lines.filter((line) => line.startsWith('fatal:')).at(0) ?? lines.filter((line) => line.startsWith('error:')).at(-1) ?? lines.at(-1) ?? '';
  return fatal.replace(/^(fatal|error):\s*/, '').slice(0, 500) || 'git failed without a message';
}
