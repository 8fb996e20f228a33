import { z } from 'zod';
import { defineEvent, type EventEnvelope } from './event-envelope.schema';
import { repositoryWorkResultSchema, type RepositoryWorkResult } from './repository.schema';
import {
  actorSchema,
  nonNegativeIntegerSchema,
  positiveIntegerSchema,
  tokenUsageSchema,
  type Actor,
  type TokenUsage,
} from './shared-fields.schema';
import { identifierSchema } from './subject-segment';
import { TASK_TIMEOUT_KINDS, taskFailureReasonSchema, type TaskFailureReason, type TaskTimeoutKind } from './task-state';

// Events that end an attempt or the task, and the cancel request that leads there.

/**
 * What the run left in each repository of its work dir. Absent from daemons, requests and events
 * from before repositories (they worked in none), so it defaults to none.
 */
export const reportedRepositoriesSchema = z.array(repositoryWorkResultSchema).default([]);

export interface TaskCompletedPayload {
  taskId: string;
  attempt: number;
  sessionId: string | null;
  /** The agent's final answer, if it gave one. */
  output: string | null;
  durationMs: number;
  usage: TokenUsage[];
  repositories: RepositoryWorkResult[];
}
export const taskCompletedPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  sessionId: z.string().min(1).nullable(),
  output: z.string().nullable(),
  durationMs: nonNegativeIntegerSchema,
  usage: z.array(tokenUsageSchema),
  repositories: reportedRepositoriesSchema,
});
export const TASK_COMPLETED = defineEvent({
  type: 'task.completed',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskCompletedPayloadSchema,
});
export type TaskCompletedEvent = EventEnvelope<'task.completed', TaskCompletedPayload, 1>;

/** Terminal failure of the task (retries exhausted or a non-transient reason). */
export interface TaskFailedPayload {
  taskId: string;
  /** 0 when the task failed before any attempt. */
  attempt: number;
  reason: TaskFailureReason;
  message: string;
  sessionId: string | null;
  /** Bounded diagnostic text such as the CLI's stderr tail; already redacted. */
  detail: string | null;
  /** As the failing attempt's daemon reported them; none when the queue ended it (timeout, offline). */
  repositories: RepositoryWorkResult[];
}
export const taskFailedPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: nonNegativeIntegerSchema,
  reason: taskFailureReasonSchema,
  message: z.string(),
  sessionId: z.string().min(1).nullable(),
  detail: z.string().nullable(),
  repositories: reportedRepositoriesSchema,
});
export const TASK_FAILED = defineEvent({
  type: 'task.failed',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskFailedPayloadSchema,
});
export type TaskFailedEvent = EventEnvelope<'task.failed', TaskFailedPayload, 1>;

/** Pushed to the daemon running the task; the task ends with `task.cancelled`. */
export interface TaskCancelRequestedPayload {
  taskId: string;
  requestedBy: Actor;
  reason: string | null;
  /** The daemon holding the task, null when nobody claimed it yet. */
  daemonId: string | null;
  attempt: number | null;
}
export const taskCancelRequestedPayloadSchema = z.object({
  taskId: identifierSchema,
  requestedBy: actorSchema,
  reason: z.string().nullable(),
  daemonId: identifierSchema.nullable(),
  attempt: positiveIntegerSchema.nullable(),
});
export const TASK_CANCEL_REQUESTED = defineEvent({
  type: 'task.cancel_requested',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskCancelRequestedPayloadSchema,
});
export type TaskCancelRequestedEvent = EventEnvelope<'task.cancel_requested', TaskCancelRequestedPayload, 1>;

export interface TaskCancelledPayload {
  taskId: string;
  attempt: number | null;
  cancelledBy: Actor;
  reason: string | null;
  /** What the cancelled attempt left, when its daemon's complete or fail report confirmed the cancel. */
  repositories: RepositoryWorkResult[];
}
export const taskCancelledPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema.nullable(),
  cancelledBy: actorSchema,
  reason: z.string().nullable(),
  repositories: reportedRepositoriesSchema,
});
export const TASK_CANCELLED = defineEvent({
  type: 'task.cancelled',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskCancelledPayloadSchema,
});
export type TaskCancelledEvent = EventEnvelope<'task.cancelled', TaskCancelledPayload, 1>;

/** A fact, not a state: it is followed by `task.requeued` or `task.failed` (reason `timeout`/`not_started`). */
export interface TaskTimedOutPayload {
  taskId: string;
  attempt: number;
  timeout: TaskTimeoutKind;
  limitMs: number;
}
export const taskTimedOutPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  timeout: z.enum(TASK_TIMEOUT_KINDS),
  limitMs: nonNegativeIntegerSchema,
});
export const TASK_TIMED_OUT = defineEvent({
  type: 'task.timed_out',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskTimedOutPayloadSchema,
});
export type TaskTimedOutEvent = EventEnvelope<'task.timed_out', TaskTimedOutPayload, 1>;
