import { z } from 'zod';
import { TASK_STATES } from '@switchyard/contracts';
import { timestampSchema } from '../common/api-schemas';

export const tokenTotalsSchema = z.object({
  inputTokens: z.int(),
  outputTokens: z.int(),
  cacheReadTokens: z.int(),
  cacheWriteTokens: z.int(),
});
export type TokenTotals = z.infer<typeof tokenTotalsSchema>;

export const modelUsageSchema = tokenTotalsSchema.extend({ provider: z.string(), model: z.string() });
export type ModelUsage = z.infer<typeof modelUsageSchema>;

export const issueTaskUsageSchema = z.object({
  taskId: z.string(),
  agentId: z.string(),
  status: z.enum(TASK_STATES),
  enqueuedAt: timestampSchema,
  byModel: z.array(modelUsageSchema).describe('Every attempt of the task, summed per provider and model'),
  totals: tokenTotalsSchema,
});

export const issueUsageSchema = z.object({
  issueId: z.string(),
  byModel: z.array(modelUsageSchema).describe('Over every task of the issue, failed and cancelled runs included'),
  totals: tokenTotalsSchema,
  tasks: z.array(issueTaskUsageSchema).describe('Oldest first; a task that reported no usage has empty `byModel`'),
});
export type IssueUsage = z.infer<typeof issueUsageSchema>;

export const agentUsageQuerySchema = z.strictObject({
  since: z.iso.datetime({ offset: true }).optional().describe('Only tasks enqueued at or after this time (ISO 8601)'),
});

export const agentUsageSchema = z.object({
  agentId: z.string(),
  since: timestampSchema.nullable(),
  taskCount: z.int().describe('Tasks that reported usage'),
  byModel: z.array(modelUsageSchema),
  totals: tokenTotalsSchema,
});
export type AgentUsage = z.infer<typeof agentUsageSchema>;
