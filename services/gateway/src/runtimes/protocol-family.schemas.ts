import { z } from 'zod';
import { PROTOCOL_FAMILIES } from '@switchyard/contracts';

export const protocolFamilyViewSchema = z.object({
  family: z.enum(PROTOCOL_FAMILIES),
  displayName: z.string(),
  runtimes: z.array(z.string()),
  adapter: z.enum(['available', 'planned']),
  resume: z.string(),
  cancel: z.string(),
  usage: z.string(),
});
export const protocolFamilyListSchema = z.object({ families: z.array(protocolFamilyViewSchema) });
export type ProtocolFamilyView = z.infer<typeof protocolFamilyViewSchema>;
