import { z } from 'zod';
import { DEFAULT_BRANCH_TEMPLATE, REPOSITORY_CHECKOUT_MODES, REPOSITORY_NAME_PATTERN, repositorySnapshotSchema } from '@switchyard/contracts';
import { timestampSchema } from '../common/api-schemas';
import { secretNameSchema } from '../secrets/secret.schemas';

// Shapes only; the rules that need the fields together are `repositorySettingsProblems` (400 `invalid_repository`).
const name = z
  .string()
  .regex(REPOSITORY_NAME_PATTERN, 'must be a lowercase slug: ^[a-z0-9][a-z0-9._-]{0,62}$ (it names the folder in the work dir)')
  .describe('Unique in the workspace: the folder in every work dir and `yard repo checkout <name>`');
const { url, localPath, defaultBranch, branchTemplate } = repositorySnapshotSchema.shape;

export const repositoryCredentialInputSchema = z
  .strictObject({
    kind: z.literal('https_token').optional().describe('The only kind: HTTP basic with a token (default)'),
    username: z.string().min(1).max(200).refine((value) => !/[\u0000-\u001f\u007f:]/.test(value), 'must not contain ":" or control characters'),
    secretName: secretNameSchema.describe('A secret of the workspace holding the token'),
  })
  .nullable();

export const createRepositorySchema = z.strictObject({
  name,
  checkoutMode: z.enum(REPOSITORY_CHECKOUT_MODES).optional().describe('Default `worktree`'),
  url: url.optional().describe('`worktree`: https://, http://, ssh://, file://, user@host:path or an absolute path; no credentials inside'),
  localPath: localPath.optional().describe('`local_directory`: an absolute path on the daemon’s machine, used in place'),
  defaultBranch: defaultBranch.optional().describe('Default `main`'),
  branchTemplate: branchTemplate.optional().describe(`The task branch; placeholders {source}, {task}, {agent}. Default \`${DEFAULT_BRANCH_TEMPLATE}\``),
  credential: repositoryCredentialInputSchema.optional(),
});
export type CreateRepositoryInput = z.infer<typeof createRepositorySchema>;

export const updateRepositorySchema = z
  .strictObject({
    name: name.optional(),
    checkoutMode: z.enum(REPOSITORY_CHECKOUT_MODES).optional(),
    url: url.optional(),
    localPath: localPath.optional(),
    defaultBranch: defaultBranch.optional(),
    branchTemplate: branchTemplate.optional(),
    credential: repositoryCredentialInputSchema.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), 'name at least one field to change');
export type UpdateRepositoryInput = z.infer<typeof updateRepositorySchema>;

export const repositoryViewSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  name: z.string(),
  checkoutMode: z.enum(REPOSITORY_CHECKOUT_MODES),
  url: z.string().nullable(),
  localPath: z.string().nullable(),
  defaultBranch: z.string(),
  branchTemplate: z.string(),
  credential: z.object({ kind: z.literal('https_token'), username: z.string(), secretName: z.string() }).nullable().describe('The secret by name; its value is never returned'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type RepositoryView = z.infer<typeof repositoryViewSchema>;

export const repositoryListSchema = z.object({ repositories: z.array(repositoryViewSchema) });
