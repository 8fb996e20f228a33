import { decide, type ResumeAnswer, type ResumeRequest } from './resume.decider';
import { emptyEntry, evolve, type ResumeIndexEvent } from './resume-index.evolve';
import { hasRun, type ResumeIndexEntry } from './resume-index.entry';
import { PRIOR } from './resume.fixtures.spec-helper';

// Given the prior task's events (and retired sessions), when a new task asks, then an answer.

export function fold(history: readonly ResumeIndexEvent[], taskId = PRIOR): ResumeIndexEntry {
  return history.reduce(evolve, emptyEntry(taskId));
}

export function given(history: readonly ResumeIndexEvent[], options: { retiredSessions?: readonly string[] } = {}) {
  const entry = fold(history);
  // As the index does: a task that never ran is no prior session.
  const prior = history.length > 0 && hasRun(entry) ? { entry, sessionRetired: entry.session !== null && (options.retiredSessions ?? []).includes(entry.session.sessionId) } : null;
  return {
    when(request: ResumeRequest) {
      const answer = decide(request, prior);
      return {
        then(expected: ResumeAnswer): void {
          expect(answer).toEqual(expected);
        },
        /** `workDir`: the prior work dir the fresh start may keep its files in. */
        thenFresh(reason: string, workDir?: string): void {
          expect(answer).toStrictEqual(workDir ? { status: 'fresh', reason, workDir } : { status: 'fresh', reason });
        },
      };
    },
  };
}
