import { z } from 'zod';
import { ApiError } from '../common/api-error';
import { timestampSchema } from '../common/api-schemas';
import { repositoryViewSchema } from './repository.schemas';

// The same rule as an issue's free-text `project`, which names a project by this name.
const projectName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((value) => !value.includes('\u0000'), 'must not contain NUL');
const description = z.string().trim().max(10_000).nullable();

export const createProjectSchema = z.strictObject({
  name: projectName.describe('Unique in the workspace; cannot change: issues name their project by it (`issue.project`)'),
  description: description.optional(),
});
export type CreateProjectInput = z.infer<typeof createProjectSchema>;

export const updateProjectSchema = z.strictObject({ description });
export type UpdateProjectInput = z.infer<typeof updateProjectSchema>;

/** A PATCH naming `name` gets told why, not just "unrecognized key". */
export function projectRenameError(body: unknown): ApiError | undefined {
  if (typeof body !== 'object' || body === null || !('name' in body)) return undefined;
  const message = 'cannot change: issues name their project by it (issue.project)';
  return new ApiError('validation_failed', `invalid body: name: ${message}`, { issues: [{ path: 'name', message }] });
}

export const projectViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type ProjectView = z.infer<typeof projectViewSchema>;

export const projectListSchema = z.object({ projects: z.array(projectViewSchema) });

export const projectDetailSchema = projectViewSchema.extend({ repositories: z.array(repositoryViewSchema) });
export type ProjectDetail = z.infer<typeof projectDetailSchema>;
