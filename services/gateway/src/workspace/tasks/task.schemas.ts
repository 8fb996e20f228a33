import { z } from 'zod';
import {
  TASK_FAILURE_REASONS,
  TASK_SOURCE_KINDS,
  TASK_STATES,
  actorSchema,
  repositoryWorkResultSchema,
  taskSourceSchema,
  timelineEntrySchema,
  type TaskFailureReason,
} from '@switchyard/contracts';
import { timestampSchema } from '../common/api-schemas';
import { queuedTaskTtlSecondsSchema } from '../common/queued-task-ttl.schema';

const expiresInSeconds = queuedTaskTtlSecondsSchema
  .nullable()
  .optional()
  .describe('TTL of this task while queued, in seconds (60 .. 2592000): still unclaimed this long after creation it fails `expired`. Overrides the workspace’s `queuedTaskTtlSeconds`; null: no expiry; absent: the workspace default');

export const createTaskSchema = z.strictObject({
  agentId: z.string().min(1).max(256),
  prompt: z.string().max(100_000).refine((prompt) => prompt.trim().length > 0, 'must not be empty'),
  priority: z.int().min(-1_000).max(1_000).optional().describe('Higher runs first; FIFO within one priority (default 0)'),
  expiresInSeconds,
});
export type CreateTaskInput = z.infer<typeof createTaskSchema>;

export const rerunTaskSchema = z.strictObject({ expiresInSeconds });
export type RerunTaskInput = z.infer<typeof rerunTaskSchema>;

export const cancelTaskSchema = z.strictObject({
  reason: z.string().trim().min(1).max(1_000).optional(),
});

/** `Idempotency-Key`: a retried POST with the same key returns the first task instead of creating another. */
export const idempotencyKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,100}$/, 'Idempotency-Key must be 1-100 letters, digits, _ or -')
  .optional();

const statusListSchema = z
  .string()
  .transform((value) => value.split(',').map((status) => status.trim()))
  .pipe(z.array(z.enum(TASK_STATES)).min(1));

export const taskListQuerySchema = z.strictObject({
  status: statusListSchema.optional().describe(`Only tasks in these states, comma-separated (${TASK_STATES.join(', ')})`),
  agentId: z.string().min(1).max(256).optional(),
  runtimeId: z.string().min(1).max(256).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('Page size, 1-200 (default 50)'),
  cursor: z.string().min(1).max(500).optional().describe('`nextCursor` of the previous page'),
});
export type TaskListQuery = z.infer<typeof taskListQuerySchema>;

export const TIMELINE_DEFAULT_LIMIT = 200;
export const TIMELINE_MAX_LIMIT = 1_000;

export const timelineQuerySchema = z
  .strictObject({
    since: z.coerce.number().int().min(-1).optional().describe('Return messages with seq greater than this (exclusive); absent: from the start'),
    before: z
      .union([z.literal('end'), z.coerce.number().int().min(0)])
      .optional()
      .describe('Instead of `since`: the last `limit` messages with seq below this (exclusive), still in seq order; `end` for the newest page. Page back with the first seq returned'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(TIMELINE_MAX_LIMIT)
      .default(TIMELINE_DEFAULT_LIMIT)
      .describe(`At most this many messages (default ${TIMELINE_DEFAULT_LIMIT}, max ${TIMELINE_MAX_LIMIT})`),
  })
  .refine((query) => query.since === undefined || query.before === undefined, { message: 'Give `since` or `before`, not both', path: ['before'] });

const failureReasonSchema = z.enum(Object.keys(TASK_FAILURE_REASONS) as [TaskFailureReason, ...TaskFailureReason[]]);

export const taskSummarySchema = z.object({
  taskId: z.string(),
  status: z.enum(TASK_STATES),
  agentId: z.string(),
  runtimeId: z.string(),
  sourceKind: z.enum(TASK_SOURCE_KINDS),
  issueId: z.string().nullable(),
  chatSessionId: z.string().nullable(),
  priority: z.int(),
  /** 0 until first claimed. */
  attempt: z.int(),
  maxAttempts: z.int(),
  cancelRequested: z.boolean(),
  failureReason: failureReasonSchema.nullable(),
  /** The failed task this one automatically retries. */
  retryOfTaskId: z.string().nullable(),
  repositories: z
    .array(repositoryWorkResultSchema)
    .describe('Each repository of the work dir as the latest attempt that reported any left it (branch, commits, diff stat); empty until then'),
  connection: z
    .enum(['connected', 'reconnecting'])
    .nullable()
    .describe('For a live attempt: `reconnecting` while its daemon is silent and the attempt is kept for its reconnect grace, else `connected`; null when no attempt is live'),
  reconnectingSince: timestampSchema.nullable().describe('When the queue judged the attempt’s runtime offline; null unless reconnecting'),
  enqueuedAt: timestampSchema,
  terminalAt: timestampSchema.nullable(),
  updatedAt: timestampSchema,
});
export type TaskSummary = z.infer<typeof taskSummarySchema>;

export const taskDetailSchema = taskSummarySchema.extend({
  /** The agent's name when the task was created. */
  agentName: z.string(),
  source: taskSourceSchema,
  prompt: z.string(),
  forceFreshSession: z.boolean(),
  fireAt: timestampSchema.nullable(),
  expiresAt: timestampSchema.nullable(),
  startedAt: timestampSchema.nullable().describe('Start of the latest attempt'),
  failure: z.object({ reason: failureReasonSchema, message: z.string() }).nullable(),
  cancellation: z.object({ by: actorSchema, reason: z.string().nullable() }).nullable(),
});
export type TaskDetail = z.infer<typeof taskDetailSchema>;

export const taskListSchema = z.object({
  tasks: z.array(taskSummarySchema),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
});

// `input` is any JSON; documented loosely, since OpenAPI 3.0 has no recursive inline schema.
export const timelineSchema = z.object({
  messages: z.array(timelineEntrySchema.extend({ input: z.unknown().describe('tool_use input (any JSON), else null') })),
  nextSince: z.int().nullable().describe('Pass as `since` to continue: the last seq returned (or the `since` given when none)'),
  hasMore: z.boolean(),
});

const tokenCountsSchema = z.object({
  inputTokens: z.int(),
  outputTokens: z.int(),
  cacheReadTokens: z.int(),
  cacheWriteTokens: z.int(),
});

export const taskUsageSchema = z.object({
  taskId: z.string(),
  usage: z.array(tokenCountsSchema.extend({ attempt: z.int(), provider: z.string(), model: z.string() })),
  totals: tokenCountsSchema,
});
export type TaskUsage = z.infer<typeof taskUsageSchema>;
