import { z } from 'zod';
import { nonNegativeIntegerSchema } from './shared-fields.schema';

/**
 * A repository a task may work in, as the gateway resolved it at enqueue: the project's
 * repositories are checked out when the run starts; a task without a project is offered every
 * repository of its workspace, checked out on request (`yard repo checkout <name>`).
 */
export const REPOSITORY_CHECKOUT_MODES = ['worktree', 'local_directory'] as const;
export type RepositoryCheckoutMode = (typeof REPOSITORY_CHECKOUT_MODES)[number];

/** Lowercase slug: it names the repository's folder in the work dir, so it can never be `.git`, `..` or a context file. */
export const REPOSITORY_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}$/;

/** Placeholders a branch template may use; anything else in braces is refused. */
export const BRANCH_TEMPLATE_PLACEHOLDERS = ['source', 'task', 'agent'] as const;
/** `switchyard/issue-1a2b3c4d/5e6f7a8b`: the conversation, then the task that made the worktree. */
export const DEFAULT_BRANCH_TEMPLATE = 'switchyard/{source}/{task}';

/**
 * How git authenticates to the remote: HTTP basic with a token. `secret` is the value in the
 * gateway and at the daemon, and a `secret-ref:` everywhere between (events, streams, the queue's
 * rows), like an agent's env values.
 */
export interface RepositoryCredential {
  kind: 'https_token';
  username: string;
  secret: string;
}
export const repositoryCredentialSchema = z.object({
  kind: z.literal('https_token'),
  username: z.string().min(1).max(200),
  secret: z.string().min(1),
});

export interface RepositorySnapshot {
  name: string;
  checkoutMode: RepositoryCheckoutMode;
  /** `worktree` mode: what git fetches (`https://`, `ssh://`, `file://` or a local path). */
  url: string | null;
  /** `local_directory` mode: an absolute path on the daemon's machine, used in place. */
  localPath: string | null;
  defaultBranch: string;
  /** The task branch's name (`BRANCH_TEMPLATE_PLACEHOLDERS`); `DEFAULT_BRANCH_TEMPLATE` when unset. */
  branchTemplate: string;
  credential: RepositoryCredential | null;
  /** Checked out when the run starts (the project); otherwise only on the agent's request. */
  checkoutAtStart: boolean;
}
export const repositorySnapshotSchema = z.object({
  name: z.string().regex(REPOSITORY_NAME_PATTERN),
  checkoutMode: z.enum(REPOSITORY_CHECKOUT_MODES),
  url: z.string().min(1).max(2000).nullable(),
  localPath: z.string().min(1).max(1000).nullable(),
  defaultBranch: z.string().min(1).max(250),
  branchTemplate: z.string().min(1).max(250),
  credential: repositoryCredentialSchema.nullable(),
  checkoutAtStart: z.boolean(),
});

/** What one repository looked like when the task's run ended: reported on the task and in its timeline. */
export interface RepositoryWorkResult {
  name: string;
  checkoutMode: RepositoryCheckoutMode;
  /** The task branch; null in `local_directory` mode when the folder is not on a branch. */
  branch: string | null;
  /** The commit the work started from; null when the folder is not a git repository. */
  baseCommit: string | null;
  headCommit: string | null;
  /** Between `baseCommit` and the work tree as it was left, committed or not. */
  filesChanged: number;
  insertions: number;
  deletions: number;
  /** Files changed but not committed (tracked or new). */
  uncommittedFiles: number;
}
export const repositoryWorkResultSchema = z.object({
  name: z.string().regex(REPOSITORY_NAME_PATTERN),
  checkoutMode: z.enum(REPOSITORY_CHECKOUT_MODES),
  branch: z.string().min(1).nullable(),
  baseCommit: z.string().regex(/^[0-9a-f]{40,64}$/).nullable(),
  headCommit: z.string().regex(/^[0-9a-f]{40,64}$/).nullable(),
  filesChanged: nonNegativeIntegerSchema,
  insertions: nonNegativeIntegerSchema,
  deletions: nonNegativeIntegerSchema,
  uncommittedFiles: nonNegativeIntegerSchema,
});
