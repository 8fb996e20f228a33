import { z } from 'zod';
import { agentSnapshotSchema, type AgentSnapshot } from './agent-snapshot.schema';
import type { RepositoryWorkResult } from './repository.schema';
import {
  actorSchema,
  isoTimestampSchema,
  nonNegativeIntegerSchema,
  positiveIntegerSchema,
  tokenUsageSchema,
  type Actor,
  type TokenUsage,
} from './shared-fields.schema';
import { identifierSchema } from './subject-segment';
import { TASK_SOURCE_KINDS, taskSourceSchema, type TaskSource } from './task-source.schema';
import { taskFailureReasonSchema, taskStateSchema, type TaskFailureReason, type TaskState } from './task-state';
import { traceContextFieldsSchema, type TraceContextFields } from './trace-context.schema';
import { reportedRepositoriesSchema } from './task-outcome-events.schema';

// Payloads and results of the queue's request/reply commands. Every report names its attempt so
// the queue can answer `stale_attempt` to a late report instead of applying it, and carries that
// attempt's lease token, so only the daemon process that claimed it can report on it.

/** The claim's proof of an attempt (32 random bytes, base64url); the queue keeps only its SHA-256. */
export const leaseTokenSchema = z.string().min(1).max(256);

export interface TaskStateResult {
  taskId: string;
  state: TaskState;
}
export const taskStateResultSchema = z.object({ taskId: identifierSchema, state: taskStateSchema });

export interface TaskEnqueuePayload {
  workspaceId: string;
  agentId: string;
  agent: AgentSnapshot;
  runtimeId: string;
  source: TaskSource;
  priority: number;
  prompt: string;
  forceFreshSession: boolean;
  /** Null: the queue's default retry policy. */
  maxAttempts: number | null;
  /** Set for a deferred (scheduled) task. */
  fireAt: string | null;
  /** Unclaimed at this time the task fails `expired` (`queuedExpiresAtOf`); null: never. */
  expiresAt: string | null;
  /**
   * The TTL `expiresAt` was computed with, kept so an automatic retry gets the same TTL from its
   * own enqueue instead of the original's deadline. Absent or null: an absolute or no `expiresAt`
   * (senders older than queue ageing, tools that set a deadline).
   */
  queuedTtlMs?: number | null;
}
export const taskEnqueuePayloadSchema = z.object({
  workspaceId: identifierSchema,
  agentId: identifierSchema,
  agent: agentSnapshotSchema,
  runtimeId: identifierSchema,
  source: taskSourceSchema,
  priority: z.int(),
  prompt: z.string(),
  forceFreshSession: z.boolean(),
  maxAttempts: positiveIntegerSchema.nullable(),
  fireAt: isoTimestampSchema.nullable(),
  expiresAt: isoTimestampSchema.nullable(),
  queuedTtlMs: positiveIntegerSchema.nullable().optional(),
});

export interface TaskClaimPayload {
  daemonId: string;
  runtimeIds: string[];
  /** The daemon's free slots; the queue never hands out more. */
  maxTasks: number;
  /**
   * The daemon's curve public key (nkeys `X...`): the claimed tasks' secrets are sealed to it. The
   * queue keeps the first key a daemon id claims with and refuses any other after it.
   */
  sealingKey: string;
}
export const taskClaimPayloadSchema = z.object({
  daemonId: identifierSchema,
  runtimeIds: z.array(identifierSchema).min(1),
  maxTasks: positiveIntegerSchema,
  sealingKey: z.string().regex(/^X[A-Z2-7]{55}$/, 'must be an nkeys curve public key (X...)'),
});

/**
 * One task handed to a daemon. Which session it continues is not part of the claim: the daemon asks
 * session-resume itself before the run, since only it can check the answer against its disk.
 */
export interface ClaimedTask {
  taskId: string;
  attempt: number;
  workspaceId: string;
  agentId: string;
  runtimeId: string;
  source: TaskSource;
  prompt: string;
  forceFreshSession: boolean;
  startBy: string;
  /** The agent with each secret value replaced by a reference (`separateAgentSecrets`). */
  agent: AgentSnapshot;
  /**
   * The secret values by reference (`AgentSecretValues` as JSON), sealed to the claim's
   * `sealingKey`; null when the agent has none. Only that daemon's curve seed opens it.
   */
  sealedSecrets: string | null;
  /** Lets the agent call back for this attempt only; hashed at rest, revoked when the task ends. */
  taskToken: string;
  /** The daemon's proof that it holds this attempt: sent with every start, renew, await, complete and fail. */
  leaseToken: string;
  /**
   * The trace the task was enqueued in, at the queue's claim of it: the run joins it, so one trace
   * goes from the request that created the task to its timeline. Absent when that request was not
   * traced, and from replies stored before traces were.
   */
  traceContext?: TraceContextFields;
}
export const claimedTaskSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  workspaceId: identifierSchema,
  agentId: identifierSchema,
  runtimeId: identifierSchema,
  source: taskSourceSchema,
  prompt: z.string(),
  forceFreshSession: z.boolean(),
  startBy: isoTimestampSchema,
  agent: agentSnapshotSchema,
  // Absent from replies stored before secrets were sealed to the daemon: those carried none.
  sealedSecrets: z.string().min(1).nullable().default(null),
  taskToken: z.string().min(1),
  leaseToken: leaseTokenSchema,
  traceContext: traceContextFieldsSchema.optional(),
});

/** Empty `tasks` is the normal "nothing for you" answer, not an error. */
export interface TaskClaimResult {
  tasks: ClaimedTask[];
}
export const taskClaimResultSchema = z.object({ tasks: z.array(claimedTaskSchema) });

export interface TaskStartPayload {
  taskId: string;
  attempt: number;
  daemonId: string;
  leaseToken: string;
  workDir: string;
  resumedSessionId: string | null;
}
export const taskStartPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  daemonId: identifierSchema,
  leaseToken: leaseTokenSchema,
  workDir: z.string().min(1),
  resumedSessionId: z.string().min(1).nullable(),
});

/**
 * Before the start (`dispatched`, `waiting_local_directory`) `leaseExpiresAt` is the start
 * deadline, pushed out by each renewal; once running it is the attempt's lease.
 */
export interface TaskLeaseResult {
  leaseExpiresAt: string;
  /** Backup for the pushed cancel: a daemon that missed it learns on the next renewal. */
  cancelRequested: boolean;
}
export const taskLeaseResultSchema = z.object({
  leaseExpiresAt: isoTimestampSchema,
  cancelRequested: z.boolean(),
});

/**
 * Heartbeat of a claimed attempt: while it prepares or waits (`dispatched`,
 * `waiting_local_directory`) it pushes out the start deadline, once running the lease.
 */
export interface TaskRenewPayload {
  taskId: string;
  attempt: number;
  daemonId: string;
  leaseToken: string;
}
export const taskRenewPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  daemonId: identifierSchema,
  leaseToken: leaseTokenSchema,
});

export interface TaskCompletePayload {
  taskId: string;
  attempt: number;
  daemonId: string;
  leaseToken: string;
  sessionId: string | null;
  output: string | null;
  durationMs: number;
  usage: TokenUsage[];
  /** Each repository of the work dir as the run left it. */
  repositories: RepositoryWorkResult[];
}
export const taskCompletePayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  daemonId: identifierSchema,
  leaseToken: leaseTokenSchema,
  sessionId: z.string().min(1).nullable(),
  output: z.string().nullable(),
  durationMs: nonNegativeIntegerSchema,
  usage: z.array(tokenUsageSchema),
  repositories: reportedRepositoriesSchema,
});

export interface TaskFailPayload {
  taskId: string;
  attempt: number;
  daemonId: string;
  leaseToken: string;
  reason: TaskFailureReason;
  message: string;
  sessionId: string | null;
  detail: string | null;
  durationMs: number | null;
  /** The repositories checked out before the failure (none when preparing them failed first). */
  repositories: RepositoryWorkResult[];
}
export const taskFailPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  daemonId: identifierSchema,
  leaseToken: leaseTokenSchema,
  reason: taskFailureReasonSchema,
  message: z.string(),
  sessionId: z.string().min(1).nullable(),
  detail: z.string().nullable(),
  durationMs: nonNegativeIntegerSchema.nullable(),
  repositories: reportedRepositoriesSchema,
});

/**
 * A claimed attempt's `local_directory` repository is in use by another task on the daemon's
 * machine: the task waits (`waiting_local_directory`) with its claim kept, and the daemon renews
 * it until the path is free and it starts (or it gives up with a fail or requeue).
 */
export interface TaskAwaitLocalDirectoryPayload {
  taskId: string;
  attempt: number;
  daemonId: string;
  leaseToken: string;
  /** The busy path, as the repository names it. */
  localPath: string;
  /** The task using it, when the daemon knows (null: held by something else, e.g. a stale lock). */
  heldByTaskId: string | null;
}
export const taskAwaitLocalDirectoryPayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  daemonId: identifierSchema,
  leaseToken: leaseTokenSchema,
  localPath: z.string().min(1).max(1000),
  heldByTaskId: identifierSchema.nullable(),
});

export interface TaskFailResult extends TaskStateResult {
  /** The queue re-queued or deferred the task for another attempt. */
  willRetry: boolean;
}
export const taskFailResultSchema = z.object({
  taskId: identifierSchema,
  state: taskStateSchema,
  willRetry: z.boolean(),
});

export interface TaskCancelPayload {
  taskId: string;
  requestedBy: Actor;
  reason: string | null;
}
export const taskCancelPayloadSchema = z.object({
  taskId: identifierSchema,
  requestedBy: actorSchema,
  reason: z.string().nullable(),
});

/** Which unfinished tasks a bulk cancel reaches. */
export type TaskCancelScope =
  | { kind: 'issue'; issueId: string; agentId: string | null }
  | { kind: 'agent'; agentId: string }
  | { kind: 'chat_session'; chatSessionId: string };
export const taskCancelScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('issue'), issueId: identifierSchema, agentId: identifierSchema.nullable() }),
  z.object({ kind: z.literal('agent'), agentId: identifierSchema }),
  z.object({ kind: z.literal('chat_session'), chatSessionId: identifierSchema }),
]);

/** Cancel every unfinished task of an issue (optionally one agent's), an agent, or a chat session. */
export interface TaskCancelMatchingPayload {
  scope: TaskCancelScope;
  requestedBy: Actor;
  reason: string | null;
}
export const taskCancelMatchingPayloadSchema = z.object({
  scope: taskCancelScopeSchema,
  requestedBy: actorSchema,
  reason: z.string().nullable(),
});

/** The tasks the bulk cancel reached, each in the state it is left in (`running` ones end when their daemon confirms). */
export interface TaskCancelMatchingResult {
  tasks: TaskStateResult[];
}
export const taskCancelMatchingResultSchema = z.object({ tasks: z.array(taskStateResultSchema) });

/** A daemon hands back a claimed task it will not run (e.g. shutting down before start). */
export interface TaskRequeuePayload {
  taskId: string;
  attempt: number;
  daemonId: string;
  reason: TaskFailureReason;
  message: string;
}
export const taskRequeuePayloadSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  daemonId: identifierSchema,
  reason: taskFailureReasonSchema,
  message: z.string(),
});

/**
 * A daemon at boot, before its first claim, gives up every attempt still held under its id: a
 * fresh process runs nothing from before its boot, and the agents died with the old one. Assumes
 * one process per daemon id.
 */
export interface TaskReleaseOrphansPayload {
  daemonId: string;
  /** When this process booted, by the daemon's clock: named in the failure, never compared with the queue's. */
  bootedAt: string;
}
export const taskReleaseOrphansPayloadSchema = z.object({
  daemonId: identifierSchema,
  bootedAt: isoTimestampSchema,
});

/** One attempt the release ended: `failed` (or `cancelled` when a cancel was pending), and whether its retry is queued. */
export interface ReleasedAttempt {
  taskId: string;
  attempt: number;
  runtimeId: string;
  state: TaskState;
  willRetry: boolean;
}
export const releasedAttemptSchema = z.object({
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  runtimeId: identifierSchema,
  state: taskStateSchema,
  willRetry: z.boolean(),
});

/** Empty when the previous process left nothing behind (or this is the first boot). */
export interface TaskReleaseOrphansResult {
  tasks: ReleasedAttempt[];
}
export const taskReleaseOrphansResultSchema = z.object({ tasks: z.array(releasedAttemptSchema) });

/**
 * Who a presented task token speaks for, asked by the gateway before it lets an agent call back.
 * The gateway sends the token's SHA-256 (what the queue keeps), never the token itself.
 */
export interface TaskTokenIntrospectPayload {
  tokenHash: string;
}
export const taskTokenIntrospectPayloadSchema = z.object({
  tokenHash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a hex SHA-256'),
});

/** Why a token does not speak for anyone (any longer). */
export const INACTIVE_TASK_TOKEN_REASONS = ['unknown', 'revoked', 'expired', 'attempt_ended'] as const;
export type InactiveTaskTokenReason = (typeof INACTIVE_TASK_TOKEN_REASONS)[number];

/**
 * An active token names its attempt and what that attempt works on (its issue or chat session;
 * both null for autopilot and quick-create tasks). Like RFC 7662, an inactive token is an answer,
 * not an error: the gateway refuses the call with 401.
 */
export type TaskTokenIntrospectResult =
  | {
      active: true;
      taskId: string;
      attempt: number;
      workspaceId: string;
      agentId: string;
      sourceKind: TaskSource['kind'];
      issueId: string | null;
      chatSessionId: string | null;
      expiresAt: string;
    }
  | { active: false; reason: InactiveTaskTokenReason };
export const taskTokenIntrospectResultSchema = z.discriminatedUnion('active', [
  z.object({
    active: z.literal(true),
    taskId: identifierSchema,
    attempt: positiveIntegerSchema,
    workspaceId: identifierSchema,
    agentId: identifierSchema,
    sourceKind: z.enum(TASK_SOURCE_KINDS),
    issueId: identifierSchema.nullable(),
    chatSessionId: identifierSchema.nullable(),
    expiresAt: isoTimestampSchema,
  }),
  z.object({ active: z.literal(false), reason: z.enum(INACTIVE_TASK_TOKEN_REASONS) }),
]);
