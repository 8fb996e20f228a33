import { z } from 'zod';
import { createdApiTokenSchema } from '../tokens/api-token.schemas';
import { timestampSchema } from '../common/api-schemas';
import { queuedTaskTtlSecondsSchema } from '../common/queued-task-ttl.schema';

const queuedTaskTtlSeconds = queuedTaskTtlSecondsSchema
  .nullable()
  .describe('Default TTL of the workspace’s queued tasks, in seconds (60 .. 2592000): one still unclaimed this long after it could first run fails `expired`. Null: no expiry');

/** Also a NATS subject segment and a daemon setting (`DAEMON_WORKSPACE_ID`), hence the narrow alphabet. */
export const workspaceIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must be 2-63 lowercase letters, digits or -, starting with a letter or digit');

export const createWorkspaceSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  id: workspaceIdSchema.optional().describe('Chosen id (what daemons put in DAEMON_WORKSPACE_ID); generated when absent'),
  queuedTaskTtlSeconds: queuedTaskTtlSeconds.optional(),
});
export type CreateWorkspaceInput = z.infer<typeof createWorkspaceSchema>;

export const updateWorkspaceSchema = z
  .strictObject({ queuedTaskTtlSeconds: queuedTaskTtlSeconds.optional() })
  .refine((input) => Object.keys(input).length > 0, 'name at least one setting to change');
export type UpdateWorkspaceInput = z.infer<typeof updateWorkspaceSchema>;

export const workspaceViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  queuedTaskTtlSeconds: queuedTaskTtlSecondsSchema.nullable(),
  createdAt: timestampSchema,
});
export type WorkspaceView = z.infer<typeof workspaceViewSchema>;

export const createdWorkspaceSchema = z.object({
  workspace: workspaceViewSchema,
  token: createdApiTokenSchema.describe('The first API token of the new workspace: shown this once'),
});
export type CreatedWorkspace = z.infer<typeof createdWorkspaceSchema>;
