import type { Actor, AgentSnapshot, RepositoryWorkResult, TaskFailureReason, TaskSource, TaskState } from '@switchyard/contracts';

/** Before `task.enqueued`: the decider only accepts `enqueue`, every other command is `not_found`. */
export interface AbsentTask {
  readonly exists: false;
  readonly version: 0;
}

/** A pending cancel of a dispatched or running attempt, waiting for the daemon to end it. */
export interface CancelRequest {
  readonly actor: Actor;
  readonly reason: string | null;
  readonly requestedAt: string;
}

/** What a `waiting_local_directory` attempt waits for: the busy path and, when known, the task using it. */
export interface LocalDirectoryWait {
  readonly localPath: string;
  readonly heldByTaskId: string | null;
  readonly since: string;
}

/** How a task ended; `attempt` is the attempt that ended it (null: no attempt was live). */
export type TaskOutcome =
  | {
      readonly status: 'completed';
      readonly attempt: number;
      readonly sessionId: string | null;
      readonly at: string;
    }
  | {
      readonly status: 'failed';
      readonly reason: TaskFailureReason;
      readonly message: string;
      readonly attempt: number;
      readonly sessionId: string | null;
      readonly at: string;
    }
  | {
      readonly status: 'cancelled';
      readonly actor: Actor;
      readonly reason: string | null;
      readonly attempt: number | null;
      readonly at: string;
    };

export interface Task {
  readonly exists: true;
  readonly taskId: string;
  readonly workspaceId: string;
  readonly agentId: string;
  /** The agent's configuration as enqueued; the claim hands it to the daemon. */
  readonly agent: AgentSnapshot;
  readonly runtimeId: string;
  readonly source: TaskSource;
  readonly priority: number;
  readonly prompt: string;
  readonly forceFreshSession: boolean;
  /** Attempts this task may use, counting every claim (a retry task gets what its predecessor left). */
  readonly maxAttempts: number;
  /** The latest claimed attempt, 1-based; 0 before the first claim. */
  readonly attempt: number;
  readonly status: TaskState;
  readonly fireAt: string | null;
  readonly expiresAt: string | null;
  /** The TTL `expiresAt` was computed with; an automatic retry counts it again from its own enqueue. */
  readonly queuedTtlMs: number | null;
  /** The daemon of the latest attempt; kept after the attempt ends so a repeated report is recognised. */
  readonly daemonId: string | null;
  /** Before the start (`PRE_START_STATES`): the deadline, pushed out by each renewal. */
  readonly startBy: string | null;
  readonly leaseExpiresAt: string | null;
  readonly cancelRequest: CancelRequest | null;
  /** Set while `waiting_local_directory`. */
  readonly localDirectoryWait: LocalDirectoryWait | null;
  readonly outcome: TaskOutcome | null;
  /** The repositories as the latest attempt that reported any left them; kept across later attempts that reported none. */
  readonly repositories: readonly RepositoryWorkResult[];
  readonly retryOfTaskId: string | null;
  readonly enqueuedAt: string;
  /** When the task last entered the queue: its enqueue, or the requeue of an attempt that ended before its start. */
  readonly queuedAt: string;
  /** Number of events applied; the optimistic-concurrency version of the event table. */
  readonly version: number;
}

export type TaskDeciderState = AbsentTask | Task;

/** A claimed attempt before its start: it must start (or be renewed) by `startBy`. */
export const PRE_START_STATES = ['dispatched', 'waiting_local_directory'] as const satisfies readonly TaskState[];

/** States in which an attempt is live and its daemon may report. */
export const LIVE_ATTEMPT_STATES = [...PRE_START_STATES, 'running'] as const satisfies readonly TaskState[];

/** From when a daemon could have claimed the task: it (re-)entered the queue, or its deferral fell due. */
export function claimableSince(task: Task): string {
  return task.fireAt !== null && Date.parse(task.fireAt) > Date.parse(task.queuedAt) ? task.fireAt : task.queuedAt;
}

export function hasLiveAttempt(task: Task): boolean {
  return (LIVE_ATTEMPT_STATES as readonly TaskState[]).includes(task.status);
}

export function isBeforeStart(task: Task): boolean {
  return (PRE_START_STATES as readonly TaskState[]).includes(task.status);
}
