import type { PayloadOf } from '@switchyard/contracts';

/** The catalog events the task decider emits and folds; `task.message` belongs to the daemon, not to the decider. */
export const TASK_DECIDER_EVENT_TYPES = [
  'task.enqueued',
  'task.deferred',
  'task.claimed',
  'task.local_directory_awaited',
  'task.start_deadline_extended',
  'task.started',
  'task.heartbeat',
  'task.requeued',
  'task.expired',
  'task.timed_out',
  'task.completed',
  'task.failed',
  'task.cancel_requested',
  'task.cancelled',
] as const;
export type TaskDeciderEventType = (typeof TASK_DECIDER_EVENT_TYPES)[number];

/**
 * What the decider emits: the contract payload plus the decision time (the command's `now`). The
 * service wraps it into an envelope (event id, correlation, causation); a stored envelope, which has
 * the same three fields, can be folded by `evolve` as it is.
 */
export type TaskEvent = {
  [TType in TaskDeciderEventType]: { type: TType; payload: PayloadOf<TType>; occurredAt: string };
}[TaskDeciderEventType];

export type TaskEventOf<TType extends TaskDeciderEventType> = Extract<TaskEvent, { type: TType }>;

export function taskEvent<TType extends TaskDeciderEventType>(event: {
  type: TType;
  payload: PayloadOf<TType>;
  occurredAt: string;
}): TaskEventOf<TType> {
  return { type: event.type, payload: event.payload, occurredAt: event.occurredAt } as TaskEventOf<TType>;
}

/** The event maker of one decision: every event it emits happens at the decision time. */
export function emitAt(occurredAt: string) {
  return <TType extends TaskDeciderEventType>(type: TType, payload: PayloadOf<TType>): TaskEventOf<TType> =>
    taskEvent({ type, payload, occurredAt });
}
