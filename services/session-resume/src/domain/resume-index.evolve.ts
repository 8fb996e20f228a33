import type { EventOf } from '@switchyard/contracts';
import type { ResumeIndexEntry, TaskOutcome } from './resume-index.entry';
import { resumeKeyOf, resumeKeyText } from './resume-key';

/** The events the index is built from; `session.retired` is kept apart, by session id. */
export type ResumeIndexEvent = EventOf<'task.enqueued' | 'task.started' | 'task.completed' | 'task.failed' | 'task.cancelled' | 'session.pinned'>;

/** The task an index event belongs to. */
export function indexedTaskId(event: ResumeIndexEvent): string {
  return event.payload.taskId;
}

export function emptyEntry(taskId: string): ResumeIndexEntry {
  return { taskId, enqueued: null, run: null, session: null, outcome: null };
}

/**
 * Folds one event into a task's entry. Idempotent (a duplicate changes nothing) and ordered by
 * attempt, then event time, per field: a late or redelivered event never replaces a newer fact.
 */
export function evolve(entry: ResumeIndexEntry, event: ResumeIndexEvent): ResumeIndexEntry {
  switch (event.type) {
    case 'task.enqueued': {
      const { payload } = event;
      if (entry.enqueued) return entry;
      const key = resumeKeyOf(payload);
      return {
        ...entry,
        enqueued: { at: event.occurredAt, key: key ? resumeKeyText(key) : null, agentId: payload.agentId, runtimeId: payload.runtimeId },
      };
    }
    case 'task.started': {
      const { payload } = event;
      const candidate = { attempt: payload.attempt, at: event.occurredAt, runtimeId: payload.runtimeId, workDir: payload.workDir };
      return isNewer(candidate, entry.run) ? { ...entry, run: candidate } : entry;
    }
    case 'session.pinned': {
      const { payload } = event;
      const pinned = { attempt: payload.attempt, runtimeId: payload.runtimeId, workDir: payload.workDir };
      return withSession(entry, { sessionId: payload.sessionId, attempt: payload.attempt, at: event.occurredAt, pinned });
    }
    case 'task.completed':
      return ended(withReportedSession(entry, event.payload, event.occurredAt), { kind: 'completed', at: event.occurredAt });
    case 'task.failed': {
      const { payload } = event;
      const outcome: TaskOutcome = { kind: 'failed', at: event.occurredAt, reason: payload.reason, message: payload.message, detail: payload.detail };
      return ended(withReportedSession(entry, payload, event.occurredAt), outcome);
    }
    case 'task.cancelled':
      return ended(entry, { kind: 'cancelled', at: event.occurredAt });
  }
}

function isNewer(candidate: { attempt: number; at: string }, current: { attempt: number; at: string } | null): boolean {
  if (current === null) return true;
  if (candidate.attempt !== current.attempt) return candidate.attempt > current.attempt;
  return candidate.at > current.at;
}

/** Terminal is final in the queue, so a second outcome is a redelivery; only a newer one may replace it. */
function ended(entry: ResumeIndexEntry, outcome: TaskOutcome): ResumeIndexEntry {
  if (entry.outcome && entry.outcome.at >= outcome.at) return entry;
  return { ...entry, outcome };
}

/** The session an ending reports, if any. */
function withReportedSession(entry: ResumeIndexEntry, payload: { attempt: number; sessionId: string | null }, at: string): ResumeIndexEntry {
  if (payload.sessionId === null) return entry;
  return withSession(entry, { sessionId: payload.sessionId, attempt: payload.attempt, at, pinned: null });
}

type SessionFacts = NonNullable<ResumeIndexEntry['session']>;

/**
 * Another report of the same session merges into it (earliest time, latest pin), so the result
 * does not depend on delivery order; a different session replaces it only when newer.
 */
function withSession(entry: ResumeIndexEntry, candidate: SessionFacts): ResumeIndexEntry {
  const current = entry.session;
  if (current === null) return { ...entry, session: candidate };
  if (current.sessionId !== candidate.sessionId) return isNewer(candidate, current) ? { ...entry, session: candidate } : entry;
  const pinned = current.pinned === null || (candidate.pinned !== null && candidate.pinned.attempt > current.pinned.attempt) ? candidate.pinned ?? current.pinned : current.pinned;
  const merged: SessionFacts = {
    sessionId: current.sessionId,
    attempt: Math.max(current.attempt, candidate.attempt),
    at: candidate.at < current.at ? candidate.at : current.at,
    pinned,
  };
  return merged.attempt === current.attempt && merged.at === current.at && merged.pinned === current.pinned ? entry : { ...entry, session: merged };
}
