import type { TaskState } from '@switchyard/contracts';

/**
 * What the queue's record says of one task, as far as the sender checks need it: its runtime
 * (fixed at enqueue), its current attempt and state, and the daemon that held each attempt read.
 */
export interface TaskAttempts {
  readonly taskId: string;
  readonly runtimeId: string;
  readonly status: TaskState;
  /** 0 before the first claim. */
  readonly attempt: number;
  /** Attempt number -> the daemon that holds (or held) it; an attempt nobody held is absent. */
  readonly holders: ReadonlyMap<number, string>;
}

/** A claimed attempt not yet ended, as the queue keeps it. */
export const LIVE_ATTEMPT_STATES = ['dispatched', 'waiting_local_directory', 'running'] as const satisfies readonly TaskState[];

export function hasLiveAttempt(task: TaskAttempts): boolean {
  return (LIVE_ATTEMPT_STATES as readonly TaskState[]).includes(task.status);
}
