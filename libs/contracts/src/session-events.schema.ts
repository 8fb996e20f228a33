import { z } from 'zod';
import { defineEvent, type EventEnvelope } from './event-envelope.schema';
import { positiveIntegerSchema } from './shared-fields.schema';
import { identifierSchema } from './subject-segment';

/** A task's CLI session and the work dir it lives in; the resume index is built from these. */
export interface SessionPinnedPayload {
  sessionId: string;
  taskId: string;
  attempt: number;
  runtimeId: string;
  workDir: string;
}
export const sessionPinnedPayloadSchema = z.object({
  sessionId: identifierSchema,
  taskId: identifierSchema,
  attempt: positiveIntegerSchema,
  runtimeId: identifierSchema,
  workDir: z.string().min(1),
});
export const SESSION_PINNED = defineEvent({
  type: 'session.pinned',
  schemaVersion: 1,
  aggregate: 'session',
  payload: sessionPinnedPayloadSchema,
});
export type SessionPinnedEvent = EventEnvelope<'session.pinned', SessionPinnedPayload, 1>;

/** Why a session may no longer be resumed; most are "poisoned" outcomes (design §7). */
export const SESSION_RETIRE_REASONS = [
  'iteration_limit',
  'fallback_message',
  'invalid_request',
  'context_overflow',
  'semantic_inactivity',
  'oversized_resume',
  'resume_rejected',
  /** The daemon found the CLI's session store gone before starting (it would reject the resume). */
  'session_store_missing',
  'work_dir_missing',
  'runtime_changed',
] as const;
export type SessionRetireReason = (typeof SESSION_RETIRE_REASONS)[number];

export interface SessionRetiredPayload {
  sessionId: string;
  /** The task whose outcome retired the session, if any. */
  taskId: string | null;
  reason: SessionRetireReason;
  message: string | null;
}
export const sessionRetiredPayloadSchema = z.object({
  sessionId: identifierSchema,
  taskId: identifierSchema.nullable(),
  reason: z.enum(SESSION_RETIRE_REASONS),
  message: z.string().nullable(),
});
export const SESSION_RETIRED = defineEvent({
  type: 'session.retired',
  schemaVersion: 1,
  aggregate: 'session',
  payload: sessionRetiredPayloadSchema,
});
export type SessionRetiredEvent = EventEnvelope<'session.retired', SessionRetiredPayload, 1>;
