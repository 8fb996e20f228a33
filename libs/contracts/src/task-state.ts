import { z } from 'zod';

/**
 * `waiting_local_directory`: claimed, but the daemon found the task's `local_directory` repository
 * in use by another task on that machine; the attempt is held (and renewed) until the path is free.
 */
export const TASK_STATES = [
  'queued',
  'deferred',
  'dispatched',
  'waiting_local_directory',
  'running',
  'completed',
  'failed',
  'cancelled',
] as const;
export type TaskState = (typeof TASK_STATES)[number];
export const taskStateSchema = z.enum(TASK_STATES);

export const TERMINAL_TASK_STATES = ['completed', 'failed', 'cancelled'] as const;
export type TerminalTaskState = (typeof TERMINAL_TASK_STATES)[number];

/** Terminal is final: nothing, not even a late report from an old attempt, moves a task out of it. */
export function isTerminalTaskState(state: TaskState): state is TerminalTaskState {
  return (TERMINAL_TASK_STATES as readonly TaskState[]).includes(state);
}

/**
 * Why an attempt or a task ended badly. `transient` reasons may be retried (bounded attempts, with
 * backoff); the others fail the task. `poisonsSession`: the session the attempt ran in must not be
 * resumed (design §7), so its retry, or the conversation's next task, starts fresh.
 */
export const TASK_FAILURE_REASONS = {
  runtime_offline: { transient: true, description: 'The daemon or runtime stopped heartbeating.' },
  runtime_recovery: { transient: true, description: 'The daemon restarted and found the attempt orphaned.' },
  cancelled_by_shutdown: { transient: true, description: 'The daemon shut down while the attempt ran.' },
  not_started: { transient: true, description: 'Claimed but never reported started in time.' },
  timeout: { transient: true, description: 'The attempt exceeded its time budget or went idle.' },
  provider_network: { transient: true, description: 'The model provider could not be reached.' },
  provider_error: { transient: true, description: 'The model provider answered with a server error (5xx, overloaded).' },
  rate_limited: { transient: true, description: 'The model provider refused for a rate limit or quota (429); retried after its retry-after.' },
  // Retried once fresh: a conversation that outgrew the context usually fits again without its history.
  context_overflow: { transient: true, poisonsSession: true, description: 'The conversation exceeded the model context.' },
  auth_failed: { transient: false, description: 'The model provider refused the agent\'s credentials (401/403).' },
  invalid_request: { transient: false, poisonsSession: true, description: 'The model provider refused the request as malformed (400).' },
  agent_error: { transient: false, description: 'The agent CLI reported an error or exited abnormally.' },
  resume_rejected: { transient: false, description: 'The CLI rejected the session resume after a tool ran.' },
  invalid_output: { transient: false, description: 'The CLI produced output the adapter could not read.' },
  iteration_limit: { transient: false, poisonsSession: true, description: 'The agent hit its turn or iteration limit.' },
  exec_env_failed: { transient: false, description: 'Preparing the work dir, skills or config failed.' },
  repo_unavailable: { transient: true, description: 'A repository\'s remote could not be reached or fetched.' },
  repo_auth_failed: { transient: false, description: 'A repository\'s remote refused the credential.' },
  repo_branch_conflict: { transient: false, description: 'The task branch already exists elsewhere or could not be created.' },
  disk_full: { transient: true, description: 'The daemon\'s disk ran out of space while preparing or running.' },
  local_directory_unavailable: {
    transient: false,
    description: 'A local_directory repository path is missing, not a directory, or not permitted on the daemon.',
  },
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

export function failureReasonPoisonsSession(reason: TaskFailureReason): boolean {
  const entry = TASK_FAILURE_REASONS[reason];
  return 'poisonsSession' in entry && entry.poisonsSession;
}

export const TASK_DEFERRAL_REASONS = ['scheduled', 'retry_backoff'] as const;
export type TaskDeferralReason = (typeof TASK_DEFERRAL_REASONS)[number];

/** Which budget ran out: the start deadline after a claim, the lease (no renewals), or the run. */
export const TASK_TIMEOUT_KINDS = ['start_deadline', 'lease', 'run'] as const;
export type TaskTimeoutKind = (typeof TASK_TIMEOUT_KINDS)[number];
