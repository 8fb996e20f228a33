import { z } from 'zod';
import { PROTOCOL_FAMILIES, RUNTIME_OFFLINE_REASONS } from '@switchyard/contracts';
import { timestampSchema } from '../common/api-schemas';

export const RUNTIME_STATUSES = ['online', 'offline'] as const;
export type RuntimeStatus = (typeof RUNTIME_STATUSES)[number];

export const runtimeViewSchema = z.object({
  runtimeId: z.string(),
  daemonId: z.string(),
  /** The CLI identity, e.g. `claude-code`. */
  identity: z.string(),
  provider: z.string().nullable(),
  version: z.string(),
  protocolFamily: z.enum(PROTOCOL_FAMILIES),
  commandName: z.string(),
  profileId: z.string().nullable(),
  capacity: z.int(),
  models: z.array(z.string()).describe('Model ids the CLI listed when the daemon registered it (e.g. `opencode models`), in its order; empty when the CLI cannot list them or did not answer'),
  status: z.enum(RUNTIME_STATUSES).describe('`offline` after a `runtime.offline` event or when silent for GATEWAY_RUNTIME_OFFLINE_AFTER_MS'),
  offlineReason: z.enum(RUNTIME_OFFLINE_REASONS).nullable(),
  offlineSince: timestampSchema.nullable(),
  registeredAt: timestampSchema,
  lastHeartbeatAt: timestampSchema.nullable(),
  /** The last heartbeat, or the registration when none came yet. */
  lastSeenAt: timestampSchema,
});
export type RuntimeView = z.infer<typeof runtimeViewSchema>;

export const runtimeListSchema = z.object({ runtimes: z.array(runtimeViewSchema) });

export const runtimeListQuerySchema = z.strictObject({
  status: z.enum(RUNTIME_STATUSES).optional().describe('Only runtimes in this status'),
});
