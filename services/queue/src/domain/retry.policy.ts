import { isTransientFailureReason, queuedExpiresAtOf } from '@switchyard/contracts';
import type { TaskEnqueueInput } from './task.commands';
import type { TaskDeciderState } from './task.state';

/** Attempts per task counting the first run (design §4.5); config may override per enqueue. */
export const DEFAULT_MAX_ATTEMPTS = 2;

export interface RetryCircumstances {
  /** A user rerun of the same work is already queued: it wins over the automatic retry. */
  rerunPending: boolean;
  /** The session-resume service found the failed attempt's session poisoned: the retry starts fresh. */
  sessionPoisoned: boolean;
  /** Backoff: the retry is deferred until then; null queues it at once. */
  retryAt: string | null;
  /** When the retry is enqueued: with `retryAt`, where its queued TTL starts counting. */
  now: Date;
}

export const NO_RETRY_REASONS = ['not_failed', 'not_transient', 'attempts_exhausted', 'rerun_pending'] as const;
export type NoRetryReason = (typeof NO_RETRY_REASONS)[number];

export type RetryPlan = { retry: true; enqueue: TaskEnqueueInput } | { retry: false; because: NoRetryReason };

/**
 * Pure: whether a failed task gets an automatic retry, and if so the new task's enqueue input,
 * linked by `retryOfTaskId`. Only transient reasons retry, and the retry gets the attempts its
 * predecessor left (`maxAttempts - attempt`), so the bound holds across the whole chain of tasks.
 *
 * Queue ageing: the retry keeps its own clock. It gets the failed task's TTL again, counted from
 * when it may first be claimed (its backoff's `retryAt`, else now), not the original's absolute
 * deadline, which a long first run may have passed already. A task enqueued with an absolute
 * deadline and no TTL hands on none: its retry never expires, as before queue ageing.
 *
 * Session: the retry continues the session the failed attempt left (`forceFreshSession: false`)
 * unless that session is poisoned, or the failed task was forced fresh (a rerun, `/new`) and never
 * got a session of its own: resuming then would pick up the very session it meant to leave.
 */
export function planRetry(state: TaskDeciderState, circumstances: RetryCircumstances): RetryPlan {
  if (!state.exists || state.outcome?.status !== 'failed') return { retry: false, because: 'not_failed' };
  const failure = state.outcome;
  if (!isTransientFailureReason(failure.reason)) return { retry: false, because: 'not_transient' };
  if (state.attempt >= state.maxAttempts) return { retry: false, because: 'attempts_exhausted' };
  if (circumstances.rerunPending) return { retry: false, because: 'rerun_pending' };
  const forceFreshSession = circumstances.sessionPoisoned || (state.forceFreshSession && failure.sessionId === null);
  return {
    retry: true,
    enqueue: {
      workspaceId: state.workspaceId,
      agentId: state.agentId,
      agent: state.agent,
      runtimeId: state.runtimeId,
      source: state.source,
      priority: state.priority,
      prompt: state.prompt,
      forceFreshSession,
      maxAttempts: state.maxAttempts - state.attempt,
      fireAt: circumstances.retryAt,
      expiresAt: queuedExpiresAtOf({ now: circumstances.now, fireAt: circumstances.retryAt, queuedTtlMs: state.queuedTtlMs }),
      queuedTtlMs: state.queuedTtlMs,
      retryOfTaskId: state.taskId,
    },
  };
}
