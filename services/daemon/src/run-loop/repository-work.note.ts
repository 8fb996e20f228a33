import type { RepositoryWorkResult } from '@switchyard/contracts';

const short = (commit: string | null): string => (commit === null ? 'none' : commit.slice(0, 12));

/** One timeline line per repository at the end of a run: where the work is and how big it is. */
export function describeRepositoryWork(work: RepositoryWorkResult): string {
  const where = work.branch === null ? `${work.name} (${work.checkoutMode}, no branch)` : `${work.name} on ${work.branch}`;
  if (work.headCommit === null && work.baseCommit === null) return `${where}: not a git repository, no diff`;
  const uncommitted = work.uncommittedFiles === 0 ? 'nothing uncommitted' : `${work.uncommittedFiles} uncommitted`;
  return `${where}: ${short(work.baseCommit)} → ${short(work.headCommit)}, ${work.filesChanged} files changed, +${work.insertions} −${work.deletions}, ${uncommitted}`;
}
