import { z } from 'zod';
import { protocolFamilySchema, type ProtocolFamily } from './runtime-events.schema';
import { identifierSchema } from './subject-segment';

/**
 * A custom runtime: a command the daemon looks up on PATH and drives with an existing protocol
 * family, its fixed arguments placed right after the executable (e.g. `kimi` + `acp`).
 */
export interface RuntimeProfile {
  profileId: string;
  displayName: string;
  protocolFamily: ProtocolFamily;
  /** A bare command name looked up on the daemon's PATH, never a path or a shell string. */
  commandName: string;
  fixedArgs: string[];
}
export const runtimeProfileSchema = z.object({
  profileId: identifierSchema,
  displayName: z.string().trim().min(1).max(100),
  protocolFamily: protocolFamilySchema,
  commandName: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,99}$/, 'must be a bare command name (letters, digits, . _ + -), not a path or shell text'),
  fixedArgs: z.array(z.string().max(1_000)).max(50).default([]),
});
