import { z } from 'zod';
import { defineEvent, type EventEnvelope } from './event-envelope.schema';
import { isoTimestampSchema, nonNegativeIntegerSchema, positiveIntegerSchema } from './shared-fields.schema';
import { identifierSchema } from './subject-segment';

/** Wire protocol families; several runtime identities share one family (and one adapter folder). */
export const PROTOCOL_FAMILIES = [
  'claude-stream-json',
  'codex-app-server',
  'acp',
  'opencode-ndjson',
  'pi-json',
  'copilot-jsonl',
  'openclaw-jsonl',
  'dsh-jsonl',
  'antigravity-json',
] as const;
export type ProtocolFamily = (typeof PROTOCOL_FAMILIES)[number];
export const protocolFamilySchema = z.enum(PROTOCOL_FAMILIES);

export interface RuntimeRegisteredPayload {
  daemonId: string;
  /** The workspace whose agents may use this runtime (the daemon's own workspace). */
  workspaceId: string;
  runtimeId: string;
  /** The CLI identity, e.g. `claude-code`, `qwen-code`, `gemini-cli`. */
  identity: string;
  /** The model provider it talks to by default, when known. */
  provider: string | null;
  version: string;
  protocolFamily: ProtocolFamily;
  commandName: string;
  /** Runtime profile that added this runtime, null for one detected on PATH. */
  profileId: string | null;
  /** Task slots the daemon offers to this runtime. */
  capacity: number;
  /** Model ids the CLI listed when asked (`opencode models`), in its order; empty when it cannot say. */
  models: string[];
}
export const runtimeRegisteredPayloadSchema = z.object({
  daemonId: identifierSchema,
  workspaceId: identifierSchema,
  runtimeId: identifierSchema,
  identity: z.string().min(1),
  provider: z.string().min(1).nullable(),
  version: z.string().min(1),
  protocolFamily: protocolFamilySchema,
  commandName: z.string().min(1),
  profileId: identifierSchema.nullable(),
  capacity: positiveIntegerSchema,
  // Optional on the wire: registrations published before model discovery still parse, with none.
  models: z.array(z.string().min(1).max(200)).max(500).default([]),
});
export const RUNTIME_REGISTERED = defineEvent({
  type: 'runtime.registered',
  schemaVersion: 1,
  aggregate: 'runtime',
  payload: runtimeRegisteredPayloadSchema,
});
export type RuntimeRegisteredEvent = EventEnvelope<'runtime.registered', RuntimeRegisteredPayload, 1>;

export interface RuntimeHeartbeatPayload {
  daemonId: string;
  runtimeId: string;
  /** Lets the queue spot tasks it believes running that the daemon no longer has. */
  activeTaskIds: string[];
  freeSlots: number;
}
export const runtimeHeartbeatPayloadSchema = z.object({
  daemonId: identifierSchema,
  runtimeId: identifierSchema,
  activeTaskIds: z.array(identifierSchema),
  freeSlots: nonNegativeIntegerSchema,
});
export const RUNTIME_HEARTBEAT = defineEvent({
  type: 'runtime.heartbeat',
  schemaVersion: 1,
  aggregate: 'runtime',
  payload: runtimeHeartbeatPayloadSchema,
});
export type RuntimeHeartbeatEvent = EventEnvelope<'runtime.heartbeat', RuntimeHeartbeatPayload, 1>;

export const RUNTIME_OFFLINE_REASONS = ['heartbeat_missed', 'daemon_shutdown', 'not_detected'] as const;
export type RuntimeOfflineReason = (typeof RUNTIME_OFFLINE_REASONS)[number];

export interface RuntimeOfflinePayload {
  daemonId: string;
  runtimeId: string;
  reason: RuntimeOfflineReason;
  lastHeartbeatAt: string | null;
}
export const runtimeOfflinePayloadSchema = z.object({
  daemonId: identifierSchema,
  runtimeId: identifierSchema,
  reason: z.enum(RUNTIME_OFFLINE_REASONS),
  lastHeartbeatAt: isoTimestampSchema.nullable(),
});
export const RUNTIME_OFFLINE = defineEvent({
  type: 'runtime.offline',
  schemaVersion: 1,
  aggregate: 'runtime',
  payload: runtimeOfflinePayloadSchema,
});
export type RuntimeOfflineEvent = EventEnvelope<'runtime.offline', RuntimeOfflinePayload, 1>;
