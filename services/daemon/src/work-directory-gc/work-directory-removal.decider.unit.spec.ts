import path from 'node:path';
import { decideWorkDirectoryRemovals, RECENT_USE_GRACE_MS, resumeTargetsOf, type WorkDirectoryCandidate, type WorkDirectoryRetention } from './work-directory-removal.decider';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-02-01T00:00:00.000Z');
const RETENTION: WorkDirectoryRetention = { maxAgeMs: 7 * DAY, maxBytesPerAgent: 1_000 };

/** A directory last used `idleMs` before NOW. */
function directory(name: string, overrides: { idleMs: number; sourceKey?: string; sizeBytes?: number; inUse?: boolean }): WorkDirectoryCandidate {
  return { path: `/root/w/a/${name}`, sourceKey: overrides.sourceKey ?? `task:${name}`, sizeBytes: overrides.sizeBytes ?? 10, lastUsedAtMs: NOW - overrides.idleMs, inUse: overrides.inUse ?? false };
}

const when = (directories: WorkDirectoryCandidate[], retention: WorkDirectoryRetention = RETENTION) => decideWorkDirectoryRemovals({ directories, retention, nowMs: NOW });
const removed = (decision: ReturnType<typeof when>) => decision.remove.map((removal) => [path.basename(removal.path), removal.reason]);
const kept = (decision: ReturnType<typeof when>): Record<string, string> => Object.fromEntries(decision.keep.map((verdict) => [path.basename(verdict.path), verdict.reason]));

describe('work-directory removal decider', () => {
  describe('age', () => {
    it('given a directory unused longer than the max age, when deciding, then it is removed as expired', () => {
      const decision = when([directory('old', { idleMs: 8 * DAY }), directory('young', { idleMs: 2 * DAY })]);
      expect(removed(decision)).toEqual([['old', 'expired']]);
      expect(kept(decision)).toEqual({ young: 'within_limits' });
    });

    it('given an expired directory a task runs in now, when deciding, then it stays', () => {
      expect(kept(when([directory('running', { idleMs: 30 * DAY, inUse: true })]))).toEqual({ running: 'in_use' });
    });

    it('given a resume target unused longer than the max age, when deciding, then it is removed like any other', () => {
      const decision = when([directory('issue-old', { idleMs: 8 * DAY, sourceKey: 'issue:1' })]);
      expect(removed(decision)).toEqual([['issue-old', 'expired']]);
    });

    it('given a directory exactly at the max age, when deciding, then it is not yet expired', () => {
      expect(removed(when([directory('edge', { idleMs: 7 * DAY })]))).toEqual([]);
    });
  });

  describe('size budget', () => {
    it('given an agent over its budget, when deciding, then least recently used directories go first until it fits', () => {
      const decision = when([
        directory('newest', { idleMs: 1 * DAY, sizeBytes: 400 }),
        directory('oldest', { idleMs: 3 * DAY, sizeBytes: 400 }),
        directory('middle', { idleMs: 2 * DAY, sizeBytes: 400 }),
      ]);
      expect(removed(decision)).toEqual([['oldest', 'over_size_budget']]);
      expect(decision).toMatchObject({ keptBytes: 800, overBudgetBytes: 0 });
    });

    it('given expired directories, when deciding, then they are removed first and count off the total', () => {
      const decision = when([directory('expired', { idleMs: 9 * DAY, sizeBytes: 900 }), directory('young', { idleMs: 1 * DAY, sizeBytes: 900 })]);
      expect(removed(decision)).toEqual([['expired', 'expired']]);
      expect(kept(decision)).toEqual({ young: 'within_limits' });
    });

    it('given the in-use and resumable directories alone exceed the budget, when deciding, then they stay and the excess is reported', () => {
      const decision = when([
        directory('running', { idleMs: 2 * DAY, sizeBytes: 700, inUse: true }),
        directory('chat-latest', { idleMs: 3 * DAY, sizeBytes: 600, sourceKey: 'chat:c1' }),
        directory('one-off', { idleMs: 1 * DAY, sizeBytes: 50 }),
      ]);
      expect(removed(decision)).toEqual([['one-off', 'over_size_budget']]);
      expect(kept(decision)).toEqual({ running: 'in_use', 'chat-latest': 'resume_target' });
      expect(decision).toMatchObject({ keptBytes: 1_300, overBudgetBytes: 300 });
    });

    it('given a directory used within the grace period, when over budget, then it stays (a task may be preparing it)', () => {
      const decision = when([directory('just-made', { idleMs: RECENT_USE_GRACE_MS - 1, sizeBytes: 5_000 }), directory('older', { idleMs: HOUR, sizeBytes: 5_000 })]);
      expect(kept(decision)).toEqual({ 'just-made': 'recently_used' });
      expect(removed(decision)).toEqual([['older', 'over_size_budget']]);
    });

    it('given equal last use, when deciding, then the path breaks the tie the same way every pass', () => {
      const directories = [directory('b', { idleMs: DAY, sizeBytes: 600 }), directory('a', { idleMs: DAY, sizeBytes: 600 })];
      expect(removed(when(directories))).toEqual([['a', 'over_size_budget']]);
      expect(removed(when([...directories].reverse()))).toEqual([['a', 'over_size_budget']]);
    });
  });

  describe('resume targets', () => {
    it('given several directories of one issue, when deciding, then only the most recently used one is protected', () => {
      const decision = when([
        directory('issue-first', { idleMs: 3 * DAY, sizeBytes: 600, sourceKey: 'issue:1' }),
        directory('issue-latest', { idleMs: 2 * DAY, sizeBytes: 600, sourceKey: 'issue:1' }),
      ]);
      expect(kept(decision)).toEqual({ 'issue-latest': 'resume_target' });
      expect(removed(decision)).toEqual([['issue-first', 'over_size_budget']]);
    });

    it('given task: directories, when choosing resume targets, then none is one (they are never reused)', () => {
      const directories = [directory('t1', { idleMs: DAY }), directory('issue', { idleMs: 2 * DAY, sourceKey: 'issue:9' }), directory('chat', { idleMs: 2 * DAY, sourceKey: 'chat:9' })];
      expect([...resumeTargetsOf(directories)].sort()).toEqual(['/root/w/a/chat', '/root/w/a/issue']);
    });

    it('given a young resume target over budget, when deciding, then a newer one-off directory goes instead', () => {
      const decision = when([directory('issue', { idleMs: 5 * DAY, sizeBytes: 800, sourceKey: 'issue:1' }), directory('one-off', { idleMs: 1 * DAY, sizeBytes: 800 })]);
      expect(removed(decision)).toEqual([['one-off', 'over_size_budget']]);
    });
  });

  it('given no directories, when deciding, then nothing is removed', () => {
    expect(when([])).toEqual({ remove: [], keep: [], keptBytes: 0, overBudgetBytes: 0 });
  });
});
