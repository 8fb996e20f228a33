import { z } from 'zod';
import { timestampSchema } from '../common/api-schemas';

export const createApiTokenSchema = z.strictObject({
  name: z.string().trim().min(1).max(100).describe('What the token is for, e.g. `ci` or `laptop-7 daemon`'),
});
export type CreateApiTokenInput = z.infer<typeof createApiTokenSchema>;

/** A token as listed: never its secret nor its hash. */
export const apiTokenViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: timestampSchema,
  lastUsedAt: timestampSchema.nullable(),
  revokedAt: timestampSchema.nullable(),
  /** The token this request was made with. */
  current: z.boolean(),
});
export type ApiTokenView = z.infer<typeof apiTokenViewSchema>;

export const apiTokenListSchema = z.object({ tokens: z.array(apiTokenViewSchema) });

/** Returned once, at creation: only its SHA-256 is kept, so it cannot be shown again. */
export const createdApiTokenSchema = apiTokenViewSchema.omit({ current: true }).extend({
  token: z.string().describe('The secret, `sy_...`: shown this once, store it now'),
});
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;
