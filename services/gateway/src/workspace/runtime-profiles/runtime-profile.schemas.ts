import { z } from 'zod';
import { PROTOCOL_FAMILIES, protocolFamilySchema, runtimeProfileSchema } from '@switchyard/contracts';
import { ApiError } from '../common/api-error';
import { timestampSchema } from '../common/api-schemas';

// The contracts' rules (the daemon reads profiles with the same schema); the id is the gateway's.
const { displayName, commandName } = runtimeProfileSchema.shape;
const fixedArgs = runtimeProfileSchema.shape.fixedArgs.unwrap();
const description = z.string().trim().max(1_000).nullable();

export const createRuntimeProfileSchema = z.strictObject({
  displayName,
  protocolFamily: protocolFamilySchema,
  commandName,
  fixedArgs: fixedArgs.optional().describe('Placed right after the executable, before every adapter argument (default none)'),
  description: description.optional(),
  enabled: z.boolean().optional().describe('Default true'),
});
export type CreateRuntimeProfileInput = z.infer<typeof createRuntimeProfileSchema>;

export const updateRuntimeProfileSchema = z
  .strictObject({
    displayName: displayName.optional(),
    protocolFamily: protocolFamilySchema.optional(),
    commandName: commandName.optional(),
    fixedArgs: fixedArgs.optional(),
    description: description.optional(),
    enabled: z.boolean().optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), 'name at least one field to change');
export type UpdateRuntimeProfileInput = z.infer<typeof updateRuntimeProfileSchema>;

export const runtimeProfileViewSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  protocolFamily: protocolFamilySchema,
  commandName: z.string(),
  fixedArgs: z.array(z.string()),
  description: z.string().nullable(),
  enabled: z.boolean(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type RuntimeProfileView = z.infer<typeof runtimeProfileViewSchema>;

export const runtimeProfileListSchema = z.object({ profiles: z.array(runtimeProfileViewSchema) });

/**
 * A request naming a family outside `PROTOCOL_FAMILIES` gets its own code and the accepted list:
 * the same list the database's check constraint holds.
 */
export function unknownProtocolFamilyError(body: unknown): ApiError | undefined {
  const family = typeof body === 'object' && body !== null ? (body as { protocolFamily?: unknown }).protocolFamily : undefined;
  if (family === undefined || protocolFamilySchema.safeParse(family).success) return undefined;
  return new ApiError('unknown_protocol_family', `protocolFamily ${JSON.stringify(family)} is not one of: ${PROTOCOL_FAMILIES.join(', ')}`, {
    accepted: [...PROTOCOL_FAMILIES],
  });
}
