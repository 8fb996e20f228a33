import type { WorkDirectoryRemovalReason } from '../exec-env/work-directory.tombstone';

// Which of one agent's work directories the GC removes, and why. Pure: the collector measures and
// reads the markers, this decides. The reasons live with the tombstone: the preparer reads them back.
export { WORK_DIRECTORY_REMOVAL_REASONS, type WorkDirectoryRemovalReason } from '../exec-env/work-directory.tombstone';

/** Why a directory that was considered stays. */
export type WorkDirectoryKeptReason = 'in_use' | 'recently_used' | 'resume_target' | 'within_limits';

/**
 * A directory used this recently is never removed: a task may be preparing it before it counts as
 * in use (a fresh directory gets its marker before the run is registered).
 */
export const RECENT_USE_GRACE_MS = 15 * 60_000;

export interface WorkDirectoryCandidate {
  path: string;
  /** The marker's `issue:<id>` / `chat:<id>` (a follow-up may reuse it) or `task:<id>` (never reused). */
  sourceKey: string;
  sizeBytes: number;
  /** The marker's `lastUsedAt` in epoch ms. */
  lastUsedAtMs: number;
  /** A task of this daemon runs in it now. */
  inUse: boolean;
}

export interface WorkDirectoryRetention {
  /** Unused longer than this: removed, resume target or not. */
  maxAgeMs: number;
  /** Past this total for the agent, least recently used unprotected directories go first. */
  maxBytesPerAgent: number;
  /** Defaults to RECENT_USE_GRACE_MS. */
  recentUseGraceMs?: number;
}

export interface WorkDirectoryVerdict {
  path: string;
  sizeBytes: number;
  action: 'remove' | 'keep';
  reason: WorkDirectoryRemovalReason | WorkDirectoryKeptReason;
}

export interface WorkDirectoryRemovalDecision {
  /** In removal order: expired ones first, then least recently used first. */
  remove: (WorkDirectoryVerdict & { action: 'remove'; reason: WorkDirectoryRemovalReason })[];
  keep: (WorkDirectoryVerdict & { action: 'keep'; reason: WorkDirectoryKeptReason })[];
  /** The agent's total after the removals. */
  keptBytes: number;
  /** What stays over the budget because only protected directories are left; 0 when within it. */
  overBudgetBytes: number;
}

export function isReusableSourceKey(sourceKey: string): boolean {
  return sourceKey.startsWith('issue:') || sourceKey.startsWith('chat:');
}

/** The most recently used directory of each reusable source: the one its follow-up would continue in. */
export function resumeTargetsOf(directories: readonly WorkDirectoryCandidate[]): ReadonlySet<string> {
  const latest = new Map<string, WorkDirectoryCandidate>();
  for (const directory of directories) {
    if (!isReusableSourceKey(directory.sourceKey)) continue;
    const current = latest.get(directory.sourceKey);
    if (!current || leastRecentlyUsedFirst(current, directory) < 0) latest.set(directory.sourceKey, directory);
  }
  return new Set([...latest.values()].map((directory) => directory.path));
}

export function decideWorkDirectoryRemovals(options: {
  directories: readonly WorkDirectoryCandidate[];
  retention: WorkDirectoryRetention;
  nowMs: number;
}): WorkDirectoryRemovalDecision {
  const { retention, nowMs } = options;
  const graceMs = retention.recentUseGraceMs ?? RECENT_USE_GRACE_MS;
  const resumeTargets = resumeTargetsOf(options.directories);
  const idleMs = (directory: WorkDirectoryCandidate) => nowMs - directory.lastUsedAtMs;

  const protectedReason = (directory: WorkDirectoryCandidate): WorkDirectoryKeptReason | undefined => {
    if (directory.inUse) return 'in_use';
    if (idleMs(directory) < graceMs) return 'recently_used';
    if (resumeTargets.has(directory.path) && idleMs(directory) <= retention.maxAgeMs) return 'resume_target';
    return undefined;
  };

  const remove: WorkDirectoryRemovalDecision['remove'] = [];
  const keep: WorkDirectoryRemovalDecision['keep'] = [];
  const removable: WorkDirectoryCandidate[] = [];
  for (const directory of [...options.directories].sort(leastRecentlyUsedFirst)) {
    const kept = protectedReason(directory);
    if (kept) keep.push({ path: directory.path, sizeBytes: directory.sizeBytes, action: 'keep', reason: kept });
    else if (idleMs(directory) > retention.maxAgeMs) remove.push({ path: directory.path, sizeBytes: directory.sizeBytes, action: 'remove', reason: 'expired' });
    else removable.push(directory);
  }

  let keptBytes = sum(keep) + sum(removable);
  for (const directory of removable) {
    if (keptBytes > retention.maxBytesPerAgent) {
      remove.push({ path: directory.path, sizeBytes: directory.sizeBytes, action: 'remove', reason: 'over_size_budget' });
      keptBytes -= directory.sizeBytes;
    } else {
      keep.push({ path: directory.path, sizeBytes: directory.sizeBytes, action: 'keep', reason: 'within_limits' });
    }
  }
  return { remove, keep, keptBytes, overBudgetBytes: Math.max(0, keptBytes - retention.maxBytesPerAgent) };
}

/** Oldest use first; the path breaks ties so every pass decides the same. */
function leastRecentlyUsedFirst(left: WorkDirectoryCandidate, right: WorkDirectoryCandidate): number {
  return left.lastUsedAtMs - right.lastUsedAtMs || (left.path < right.path ? -1 : left.path > right.path ? 1 : 0);
}

function sum(directories: readonly { sizeBytes: number }[]): number {
  return directories.reduce((total, directory) => total + directory.sizeBytes, 0);
}
