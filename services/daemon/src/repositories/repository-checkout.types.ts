import type { RepositoryCheckoutMode } from '@switchyard/contracts';

/** One repository as the task's work dir holds it once prepared. */
export interface RepositoryCheckout {
  name: string;
  checkoutMode: RepositoryCheckoutMode;
  /** `<workDirectory>/<name>`: the worktree, or the symlink to the local directory. */
  path: string;
  /** The task branch; in `local_directory` mode the folder's current branch, or null. */
  branch: string | null;
  /** Where the diff summary starts from: origin/<default> at the branch's start, or the local HEAD. */
  baseCommit: string | null;
  /** True when the folder was already there from an earlier task in this work dir, kept as it was. */
  reused: boolean;
  /** The bare cache (`worktree` mode). */
  cachePath: string | null;
}
