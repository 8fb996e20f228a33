import { z } from 'zod';
import { AUTOPILOT_TASK_TRIGGERS } from '@switchyard/contracts';
import { timestampSchema } from '../common/api-schemas';
import { cronProblem } from './cron-expression';

export const AUTOPILOT_MODES = ['run_only', 'create_issue'] as const;
export type AutopilotMode = (typeof AUTOPILOT_MODES)[number];
export type AutopilotTrigger = (typeof AUTOPILOT_TASK_TRIGGERS)[number];

/** The header a webhook caller proves itself with (the autopilot's own secret, not an API token). */
export const AUTOPILOT_SECRET_HEADER = 'x-switchyard-autopilot-secret';
/** A firing's payload, serialized, may be this long; longer is 413 `payload_too_large`. */
export const AUTOPILOT_PAYLOAD_MAX_CHARACTERS = 64 * 1024;

const noNul = (value: string): boolean => !value.includes('\0');

const scheduleSchema = z
  .string()
  .trim()
  .max(200)
  .superRefine((value, context) => {
    const problem = cronProblem(value);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: `not a 5-field cron expression: ${problem}` });
  })
  .nullable()
  .describe('5-field cron (minute hour day-of-month month day-of-week), UTC: `*`, values, lists, ranges, steps; null: webhook and manual runs only');

const autopilotFields = {
  name: z.string().trim().min(1).max(200).refine(noNul, 'must not contain NUL'),
  agentId: z.string().min(1).max(256).describe('An active agent of the workspace'),
  instructions: z.string().trim().min(1).max(100_000).refine(noNul, 'must not contain NUL'),
  mode: z.enum(AUTOPILOT_MODES).describe('`run_only`: each firing is one task; `create_issue`: each firing creates an issue assigned to the agent, whose assignment makes the task'),
  schedule: scheduleSchema,
  enabled: z.boolean(),
};

export const createAutopilotSchema = z.strictObject({
  name: autopilotFields.name,
  agentId: autopilotFields.agentId,
  instructions: autopilotFields.instructions,
  mode: autopilotFields.mode.optional().describe('Default `run_only`'),
  schedule: autopilotFields.schedule.optional(),
  enabled: autopilotFields.enabled.optional().describe('Default true; a disabled autopilot is not scheduled and its webhook is refused'),
});
export type CreateAutopilotInput = z.infer<typeof createAutopilotSchema>;

export const updateAutopilotSchema = z
  .strictObject({
    name: autopilotFields.name.optional(),
    agentId: autopilotFields.agentId.optional(),
    instructions: autopilotFields.instructions.optional(),
    mode: autopilotFields.mode.optional(),
    schedule: autopilotFields.schedule.optional(),
    enabled: autopilotFields.enabled.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), 'name at least one field to change');
export type UpdateAutopilotInput = z.infer<typeof updateAutopilotSchema>;

export const runAutopilotSchema = z.strictObject({
  payload: z.unknown().optional().describe('Any JSON; the prompt shows it pretty-printed (cut at 16,000 characters)'),
});

export const autopilotViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  agentId: z.string(),
  instructions: z.string(),
  mode: z.enum(AUTOPILOT_MODES),
  schedule: z.string().nullable(),
  enabled: z.boolean(),
  lastFiredMinute: timestampSchema.nullable().describe('The latest scheduled minute that fired'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type AutopilotView = z.infer<typeof autopilotViewSchema>;

export const createdAutopilotSchema = autopilotViewSchema.extend({
  webhookSecret: z.string().describe('Send it as `X-Switchyard-Autopilot-Secret` to the webhook; shown this once, only its hash is stored'),
});
export type CreatedAutopilot = z.infer<typeof createdAutopilotSchema>;

export const autopilotListSchema = z.object({ autopilots: z.array(autopilotViewSchema) });

/** What one firing made: the task, and in `create_issue` mode the issue whose assignment made it. */
export const autopilotFiringSchema = z.object({
  autopilotId: z.string(),
  trigger: z.enum(AUTOPILOT_TASK_TRIGGERS),
  issueId: z.string().nullable(),
  taskId: z.string(),
  repeated: z.boolean().describe('True when an earlier request with the same `Idempotency-Key` made this firing'),
});
export type AutopilotFiring = z.infer<typeof autopilotFiringSchema>;
