import { z } from 'zod';
import { timestampSchema } from '../common/api-schemas';

/** What a repository credential names (`secretName`): letters, digits, `.`, `_`, `-`, at most 64. */
export const SECRET_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const secretNameSchema = z.string().regex(SECRET_NAME_PATTERN, 'must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$');
// Kept exactly as given (a token's spaces or newline are the token's), only NUL is refused.
const secretValueSchema = z
  .string()
  .min(1)
  .max(16_384)
  .refine((value) => !value.includes('\u0000'), 'must not contain NUL')
  .describe('Write-only: sealed at rest, never returned');
const description = z.string().trim().max(1_000).nullable();

export const createSecretSchema = z.strictObject({
  name: secretNameSchema.describe('Unique in the workspace; cannot change (repository credentials name it)'),
  value: secretValueSchema,
  description: description.optional(),
});
export type CreateSecretInput = z.infer<typeof createSecretSchema>;

export const updateSecretSchema = z
  .strictObject({ value: secretValueSchema.optional(), description: description.optional() })
  .refine((input) => input.value !== undefined || input.description !== undefined, 'name at least one field to change (value, description)');
export type UpdateSecretInput = z.infer<typeof updateSecretSchema>;

/** A secret as clients see it: never its value, only when the value was last set. */
export const secretViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  valueSetAt: timestampSchema,
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type SecretView = z.infer<typeof secretViewSchema>;

export const secretListSchema = z.object({ secrets: z.array(secretViewSchema) });
