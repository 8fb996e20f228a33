import { z } from 'zod';
import { createdApiTokenSchema } from '../tokens/api-token.schemas';
import { timestampSchema } from '../common/api-schemas';

/** Also a NATS subject segment and a daemon setting (`DAEMON_WORKSPACE_ID`), hence the narrow alphabet. */
export const workspaceIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must be 2-63 lowercase letters, digits or -, starting with a letter or digit');

export const createWorkspaceSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  id: workspaceIdSchema.optional().describe('Chosen id (what daemons put in DAEMON_WORKSPACE_ID); generated when absent'),
});
export type CreateWorkspaceInput = z.infer<typeof createWorkspaceSchema>;

export const workspaceViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: timestampSchema,
});
export type WorkspaceView = z.infer<typeof workspaceViewSchema>;

export const createdWorkspaceSchema = z.object({
  workspace: workspaceViewSchema,
  token: createdApiTokenSchema.describe('The first API token of the new workspace: shown this once'),
});
export type CreatedWorkspace = z.infer<typeof createdWorkspaceSchema>;
