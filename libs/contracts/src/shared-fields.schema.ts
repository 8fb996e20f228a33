import { z } from 'zod';

export const isoTimestampSchema = z.iso.datetime({ offset: true });
export const nonNegativeIntegerSchema = z.int().nonnegative();
export const positiveIntegerSchema = z.int().positive();

/** Vendor extras: one bag keyed by adapter id, never new top-level fields. */
export type AdapterMetadata = Record<string, Record<string, unknown>>;
export const adapterMetadataSchema = z.record(z.string().min(1), z.record(z.string(), z.unknown()));

export const ACTOR_KINDS = ['user', 'api_token', 'daemon', 'system', 'agent'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** Who asked for or performed something; `system` actors use a service name as id (e.g. `queue`), `agent` actors their agent id (an agent acting with its task token). */
export interface Actor {
  kind: ActorKind;
  id: string;
}
export const actorSchema = z.object({
  kind: z.enum(ACTOR_KINDS),
  id: z.string().min(1),
});

/** Token usage of one model; a run may report several. */
export interface TokenUsage {
  provider?: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}
export const tokenUsageSchema = z.object({
  provider: z.string().min(1).optional(),
  model: z.string().min(1),
  inputTokens: nonNegativeIntegerSchema,
  outputTokens: nonNegativeIntegerSchema,
  cacheReadTokens: nonNegativeIntegerSchema.optional(),
  cacheWriteTokens: nonNegativeIntegerSchema.optional(),
});
