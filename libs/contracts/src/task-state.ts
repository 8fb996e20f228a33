import { z } from 'zod';

export const TASK_STATES = ['queued', 'deferred', 'dispatched', 'running', 'completed', 'failed', 'cancelled'] as const;
export type TaskState = (typeof TASK_STATES)[number];
export const taskStateSchema = z.enum(TASK_STATES);

export const TERMINAL_TASK_STATES = ['completed', 'failed', 'cancelled'] as const;
export type TerminalTaskState = (typeof TERMINAL_TASK_STATES)[number];

/** Terminal is final: nothing, not even a late report from an old attempt, moves a task out of it. */
export function isTerminalTaskState(state: TaskState): state is TerminalTaskState {
  return (TERMINAL_TASK_STATES as readonly TaskState[]).includes(state);
}

/**
 * Why an attempt or a task ended badly. `transient` reasons may be retried (bounded attempts);
 * the others fail the task.
 */
export const TASK_FAILURE_REASONS = {
  runtime_offline: { transient: true, description: 'The daemon or runtime stopped heartbeating.' },
  runtime_recovery: { transient: true, description: 'The daemon restarted and found the attempt orphaned.' },
  cancelled_by_shutdown: { transient: true, description: 'The daemon shut down while the attempt ran.' },
  not_started: { transient: true, description: 'Claimed but never reported started in time.' },
  timeout: { transient: true, description: 'The attempt exceeded its time budget or went idle.' },
  provider_network: { transient: true, description: 'The model provider could not be reached.' },
  agent_error: { transient: false, description: 'The agent CLI reported an error or exited abnormally.' },
  resume_rejected: { transient: false, description: 'The CLI rejected the session resume after a tool ran.' },
  invalid_output: { transient: false, description: 'The CLI produced output the adapter could not read.' },
  context_overflow: { transient: false, description: 'The conversation exceeded the model context.' },
  iteration_limit: { transient: false, description: 'The agent hit its turn or iteration limit.' },
  exec_env_failed: { transient: false, description: 'Preparing the work dir, skills or config failed.' },
  expired: { transient: false, description: 'The task waited in the queue past its deadline.' },
  internal: { transient: false, description: 'A Switchyard defect; see logs.' },
} as const;

export type TaskFailureReason = keyof typeof TASK_FAILURE_REASONS;
export const taskFailureReasonSchema = z.enum(
  Object.keys(TASK_FAILURE_REASONS) as [TaskFailureReason, ...TaskFailureReason[]],
);

export function isTransientFailureReason(reason: TaskFailureReason): boolean {
  return TASK_FAILURE_REASONS[reason].transient;
}

export const TASK_DEFERRAL_REASONS = ['scheduled', 'retry_backoff'] as const;
export type TaskDeferralReason = (typeof TASK_DEFERRAL_REASONS)[number];

/** Which budget ran out: the start deadline after a claim, the lease (no renewals), or the run. */
export const TASK_TIMEOUT_KINDS = ['start_deadline', 'lease', 'run'] as const;
export type TaskTimeoutKind = (typeof TASK_TIMEOUT_KINDS)[number];
