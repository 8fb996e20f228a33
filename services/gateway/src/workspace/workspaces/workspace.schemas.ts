import { z } from 'zod';
import { createdApiTokenSchema } from '../tokens/api-token.schemas';
import { timestampSchema } from '../common/api-schemas';
import { queuedTaskTtlSecondsSchema } from '../common/queued-task-ttl.schema';

const queuedTaskTtlSeconds = queuedTaskTtlSecondsSchema
  .nullable()
  .describe('Default TTL of the workspace’s queued tasks, in seconds (60 .. 2592000): one still unclaimed this long after it could first run fails `expired`. Null: no expiry');

/** The id is the server's to choose (`ws-` and 20 hex digits): a chosen one could squat an id daemons are configured with. */
export const createWorkspaceSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
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
  role: z.literal('owner').describe('The creator owns the new workspace'),
  token: createdApiTokenSchema.describe('A first personal API token of the creator in the new workspace (all an owner may do): shown this once'),
});
export type CreatedWorkspace = z.infer<typeof createdWorkspaceSchema>;
