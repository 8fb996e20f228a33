import type {
  TaskAwaitLocalDirectoryPayload,
  TaskCancelPayload,
  TaskClaimPayload,
  TaskCompletePayload,
  TaskEnqueuePayload,
  TaskFailPayload,
  TaskFailureReason,
  TaskRenewPayload,
  TaskRequeuePayload,
  TaskStartPayload,
  TaskTimeoutKind,
} from '@switchyard/contracts';

// The decider's commands: the wire payloads plus what keeps the decider pure. Time is an input
// (`now`, ISO), and deadlines (`startBy`, `leaseExpiresAt`) are computed by the caller from config.
// A report's lease token is checked before the decider (it needs the stored hash) and stops there.

type Unleased<TPayload> = Omit<TPayload, 'leaseToken'>;

interface CommandBase {
  taskId: string;
  /** Decision time; also the `occurredAt` of every event the command produces. */
  now: string;
}

/** What a new task needs; also what the retry policy hands back for an automatic retry. */
export interface TaskEnqueueInput extends TaskEnqueuePayload {
  /** Set only by the retry policy. */
  retryOfTaskId: string | null;
}

/** queued, or deferred while `fireAt` is in the future. `maxAttempts: null` uses DEFAULT_MAX_ATTEMPTS. */
export interface EnqueueTask extends CommandBase, TaskEnqueueInput {
  kind: 'enqueue';
}

/** The claim query picked this task for the daemon; the decider makes the claim exclusive. */
export interface ClaimTask extends CommandBase, Pick<TaskClaimPayload, 'daemonId' | 'runtimeIds'> {
  kind: 'claim';
  startBy: string;
}

export interface StartTask extends CommandBase, Unleased<TaskStartPayload> {
  kind: 'start';
  leaseExpiresAt: string;
}

/**
 * Heartbeat of a claimed attempt; the reply says whether a cancel is pending. Before the start it
 * moves the start deadline to `startBy`, once running the lease to `leaseExpiresAt`; the caller
 * computes both, since only the state says which applies.
 */
export interface RenewTaskLease extends CommandBase, Unleased<TaskRenewPayload> {
  kind: 'renew';
  leaseExpiresAt: string;
  startBy: string;
}

/** The daemon found the attempt's local directory busy; `startBy` is the deadline from now on. */
export interface AwaitLocalDirectory extends CommandBase, Unleased<TaskAwaitLocalDirectoryPayload> {
  kind: 'await_local_directory';
  startBy: string;
}

export interface CompleteTask extends CommandBase, Unleased<TaskCompletePayload> {
  kind: 'complete';
}

export interface FailTask extends CommandBase, Unleased<TaskFailPayload> {
  kind: 'fail';
}

/** A daemon (or the sweeper, naming the holder) hands back a claimed attempt that never started. */
export interface RequeueTask extends CommandBase, TaskRequeuePayload {
  kind: 'requeue';
}

export interface CancelTask extends CommandBase, TaskCancelPayload {
  kind: 'cancel';
}

/** Sweeper: a queued or deferred task nobody claimed in time. */
export interface ExpireTask extends CommandBase {
  kind: 'expire';
  cause: TaskFailureReason;
  message: string;
}

/** Sweeper: the start deadline or lease of `attempt` passed (`run`: the run budget, checked by the caller). */
export interface TimeOutTask extends CommandBase {
  kind: 'timeout';
  attempt: number;
  timeout: TaskTimeoutKind;
  limitMs: number;
}

/**
 * The daemon holding `attempt` is gone: it stopped heartbeating (sweeper, `runtime_offline`, the
 * default), or it restarted and so runs nothing from before (`runtime_recovery`).
 */
export interface FailOfflineTask extends CommandBase {
  kind: 'runtime_offline';
  attempt: number;
  daemonId: string;
  message: string;
  reason?: 'runtime_offline' | 'runtime_recovery';
}

export type TaskCommand =
  | EnqueueTask
  | ClaimTask
  | StartTask
  | RenewTaskLease
  | AwaitLocalDirectory
  | CompleteTask
  | FailTask
  | RequeueTask
  | CancelTask
  | ExpireTask
  | TimeOutTask
  | FailOfflineTask;

export type TaskCommandKind = TaskCommand['kind'];

/** Commands that report on an attempt: they name it, and only its daemon may send them. */
export type AttemptReport = StartTask | RenewTaskLease | AwaitLocalDirectory | CompleteTask | FailTask | RequeueTask;
