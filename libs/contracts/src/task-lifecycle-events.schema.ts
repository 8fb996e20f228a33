import { z } from 'zod';
import { agentSnapshotSchema, type AgentSnapshot } from './agent-snapshot.schema';
import { defineEvent, type EventEnvelope } from './event-envelope.schema';
import { isoTimestampSchema, nonNegativeIntegerSchema, positiveIntegerSchema } from './shared-fields.schema';
import { identifierSchema } from './subject-segment';
import { taskSourceSchema, type TaskSource } from './task-source.schema';
import { TASK_DEFERRAL_REASONS, taskFailureReasonSchema, type TaskDeferralReason, type TaskFailureReason } from './task-state';

// Events that move a task towards a run: queued -> (deferred) -> dispatched -> (waiting_local_directory)
// -> running, and back.

export interface TaskEnqueuedPayload {
  taskId: string;
  workspaceId: string;
  agentId: string;
  agent: AgentSnapshot;
  runtimeId: string;
  source: TaskSource;
  /** Higher runs first; FIFO within one priority. */
  priority: number;
  prompt: string;
  /** Rerun and `/new` skip session resume. */
  forceFreshSession: boolean;
  maxAttempts: number;
  /** A queued task still unclaimed at this time fails `expired`, whatever its runtime's state. */
  expiresAt: string | null;
  /**
   * The TTL `expiresAt` counts (see `TaskEnqueuePayload`); an automatic retry gets it anew from its
   * own enqueue. Absent in events stored before queue ageing: their retries get no expiry, as then.
   */
  queuedTtlMs?: number | null;
  /** The failed task this one automatically retries (a new task, same session unless poisoned); null otherwise. */
  retryOfTaskId: string | null;
}
export const taskEnqueuedPayloadSchema = z.object({
  taskId: identifierSchema,
  workspaceId: identifierSchema,
  agentId: identifierSchema,
  agent: agentSnapshotSchema,
  runtimeId: identifierSchema,
  source: taskSourceSchema,
  priority: z.int(),
  prompt: z.string(),
  forceFreshSession: z.boolean(),
  maxAttempts: positiveIntegerSchema,
  expiresAt: isoTimestampSchema.nullable(),
  queuedTtlMs: positiveIntegerSchema.nullable().optional(),
  retryOfTaskId: identifierSchema.nullable(),
});
export const TASK_ENQUEUED = defineEvent({
  type: 'task.enqueued',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskEnqueuedPayloadSchema,
});
export type TaskEnqueuedEvent = EventEnvelope<'task.enqueued', TaskEnqueuedPayload, 1>;

export interface TaskDeferredPayload {
  taskId: string;
  fireAt: string;
  reason: TaskDeferralReason;
  /** Attempts used so far; 0 for a scheduled task. */
  attemptsUsed: number;
}
export const taskDeferredPayloadSchema = z.object({
  taskId: identifierSchema,
  fireAt: isoTimestampSchema,
  reason: z.enum(TASK_DEFERRAL_REASONS),
  attemptsUsed: nonNegativeIntegerSchema,
});
export const TASK_DEFERRED = defineEvent({
  type: 'task.deferred',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskDeferredPayloadSchema,
});
export type TaskDeferredEvent = EventEnvelope<'task.deferred', TaskDeferredPayload, 1>;

export interface TaskClaimedPayload {
  taskId: string;
  /** 1-based; every report names its attempt so a late one from an old attempt is recognised. */
  attempt: number;
  daemonId: string;
  runtimeId: string;
  /** The daemon must report `started` before this, or the task is re-queued. */
  startBy: string;
}
export const taskClaimedPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  daemonId: identifierSchema,
  runtimeId: identifierSchema,
  startBy: isoTimestampSchema,
});
export const TASK_CLAIMED = defineEvent({
  type: 'task.claimed',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskClaimedPayloadSchema,
});
export type TaskClaimedEvent = EventEnvelope<'task.claimed', TaskClaimedPayload, 1>;

export interface TaskStartedPayload {
  taskId: string;
  attempt: number;
  daemonId: string;
  runtimeId: string;
  workDir: string;
  /** The agent CLI session this attempt continues, null when it starts fresh. */
  resumedSessionId: string | null;
  leaseExpiresAt: string;
}
export const taskStartedPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  daemonId: identifierSchema,
  runtimeId: identifierSchema,
  workDir: z.string().min(1),
  resumedSessionId: z.string().min(1).nullable(),
  leaseExpiresAt: isoTimestampSchema,
});
export const TASK_STARTED = defineEvent({
  type: 'task.started',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskStartedPayloadSchema,
});
export type TaskStartedEvent = EventEnvelope<'task.started', TaskStartedPayload, 1>;

/**
 * A claimed attempt waits for its `local_directory` repository, in use by another task on the
 * daemon's machine: the task is `waiting_local_directory` until it starts. Recorded again only
 * when the wait changes (another path or holder).
 */
export interface TaskLocalDirectoryAwaitedPayload {
  taskId: string;
  attempt: number;
  daemonId: string;
  localPath: string;
  heldByTaskId: string | null;
  /** The start deadline from now on (pushed out like a renewal's, unless a cancel is pending). */
  startBy: string;
}
export const taskLocalDirectoryAwaitedPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  daemonId: identifierSchema,
  localPath: z.string().min(1),
  heldByTaskId: identifierSchema.nullable(),
  startBy: isoTimestampSchema,
});
export const TASK_LOCAL_DIRECTORY_AWAITED = defineEvent({
  type: 'task.local_directory_awaited',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskLocalDirectoryAwaitedPayloadSchema,
});
export type TaskLocalDirectoryAwaitedEvent = EventEnvelope<'task.local_directory_awaited', TaskLocalDirectoryAwaitedPayload, 1>;

/**
 * Renewal of a claimed attempt before its start (preparing a big checkout, or waiting for a local
 * directory): the start deadline moves out, as a running attempt's lease does with `task.heartbeat`.
 */
export interface TaskStartDeadlineExtendedPayload {
  taskId: string;
  attempt: number;
  daemonId: string;
  startBy: string;
}
export const taskStartDeadlineExtendedPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  daemonId: identifierSchema,
  startBy: isoTimestampSchema,
});
export const TASK_START_DEADLINE_EXTENDED = defineEvent({
  type: 'task.start_deadline_extended',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskStartDeadlineExtendedPayloadSchema,
});
export type TaskStartDeadlineExtendedEvent = EventEnvelope<'task.start_deadline_extended', TaskStartDeadlineExtendedPayload, 1>;

/** Lease renewal of a running attempt. */
export interface TaskHeartbeatPayload {
  taskId: string;
  attempt: number;
  daemonId: string;
  leaseExpiresAt: string;
}
export const taskHeartbeatPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  daemonId: identifierSchema,
  leaseExpiresAt: isoTimestampSchema,
});
export const TASK_HEARTBEAT = defineEvent({
  type: 'task.heartbeat',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskHeartbeatPayloadSchema,
});
export type TaskHeartbeatEvent = EventEnvelope<'task.heartbeat', TaskHeartbeatPayload, 1>;

/** An attempt ended without a terminal outcome and the task is queued again for a new attempt. */
export interface TaskRequeuedPayload {
  taskId: string;
  /** The attempt that ended. */
  attempt: number;
  reason: TaskFailureReason;
  message: string;
}
export const taskRequeuedPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  reason: taskFailureReasonSchema,
  message: z.string(),
});
export const TASK_REQUEUED = defineEvent({
  type: 'task.requeued',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskRequeuedPayloadSchema,
});
export type TaskRequeuedEvent = EventEnvelope<'task.requeued', TaskRequeuedPayload, 1>;

/** Terminal: a queued task nobody claimed in time; the task state becomes `failed` (reason `expired`). */
export interface TaskExpiredPayload {
  taskId: string;
  /** Why nobody claimed it, typically `runtime_offline`. */
  cause: TaskFailureReason;
  message: string;
}
export const taskExpiredPayloadSchema = z.object({
  taskId: identifierSchema,
  cause: taskFailureReasonSchema,
  message: z.string(),
});
export const TASK_EXPIRED = defineEvent({
  type: 'task.expired',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskExpiredPayloadSchema,
});
export type TaskExpiredEvent = EventEnvelope<'task.expired', TaskExpiredPayload, 1>;
