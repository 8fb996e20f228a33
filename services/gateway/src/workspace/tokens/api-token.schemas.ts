import { z } from 'zod';
import { timestampSchema } from '../common/api-schemas';
import { permissionSchema } from '../common/access.schemas';

export const createApiTokenSchema = z.strictObject({
  name: z.string().trim().min(1).max(100).describe('What the token is for, e.g. `ci` or `laptop-7 daemon`'),
  scopes: z
    .array(permissionSchema)
    .min(1)
    .max(64)
    .optional()
    .describe('Permissions of the role matrix the token may use, within your role; omitted: all your role allows (now and as it changes)'),
  expiresInDays: z.number().int().min(1).max(3650).optional().describe('Omitted: it does not expire'),
});
export type CreateApiTokenInput = z.infer<typeof createApiTokenSchema>;

export const listApiTokensQuerySchema = z.strictObject({
  all: z.enum(['true', 'false']).default('false').describe('`true`: every member’s tokens (needs tokens:manage_all); else your own'),
});

/** A token as listed: never its secret nor its hash. */
export const apiTokenViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  userId: z.string().describe('Whose token it is'),
  scopes: z.array(permissionSchema).nullable().describe('null: all its holder’s role allows'),
  createdAt: timestampSchema,
  expiresAt: timestampSchema.nullable(),
  lastUsedAt: timestampSchema.nullable().describe('When it was last used, to the minute'),
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
