import { z } from 'zod';
import { isoTimestampSchema, positiveIntegerSchema } from './shared-fields.schema';
import { identifierSchema } from './subject-segment';

/** Every event on the bus: the same envelope around a type-specific, versioned payload. */
export interface EventEnvelope<TType extends string = string, TPayload = unknown, TVersion extends number = number> {
  /** UUIDv7, so ids sort by time. */
  eventId: string;
  /** Explicit dotted type such as `task.claimed`; never a class name. */
  type: TType;
  schemaVersion: TVersion;
  /** The task, runtime or session the event belongs to; also the subject's trailing token. */
  aggregateId: string;
  occurredAt: string;
  /** Shared by every event and command of one logical operation (e.g. one user request). */
  correlationId: string;
  /** The event or command request id that directly caused this one; null for an origin. */
  causationId: string | null;
  payload: TPayload;
}

export const AGGREGATE_KINDS = ['task', 'runtime', 'session'] as const;
export type AggregateKind = (typeof AGGREGATE_KINDS)[number];

const envelopeFields = {
  eventId: z.uuid({ version: 'v7' }),
  aggregateId: identifierSchema,
  occurredAt: isoTimestampSchema,
  correlationId: z.string().min(1),
  causationId: z.string().min(1).nullable(),
};

/** Any well-formed envelope, payload unchecked; the first step of parsing. */
export const baseEventEnvelopeSchema = z.object({
  ...envelopeFields,
  type: z.string().regex(/^[a-z]+(\.[a-z_]+)+$/, 'Event types are dotted lower-case words'),
  schemaVersion: positiveIntegerSchema,
  payload: z.unknown(),
});

/** The envelope schema for one event type, generic over its payload schema. */
export function eventEnvelopeSchema<TType extends string, TVersion extends number, TPayload extends z.ZodType>(definition: {
  type: TType;
  schemaVersion: TVersion;
  payload: TPayload;
}) {
  return z.object({
    ...envelopeFields,
    type: z.literal(definition.type),
    schemaVersion: z.literal(definition.schemaVersion),
    payload: definition.payload,
  });
}

/** Aggregate id key per kind: the envelope's `aggregateId` must equal this payload field. */
export const AGGREGATE_ID_FIELDS = {
  task: 'taskId',
  runtime: 'runtimeId',
  session: 'sessionId',
} as const satisfies Record<AggregateKind, string>;

type AggregatePayload<TKind extends AggregateKind> = Record<(typeof AGGREGATE_ID_FIELDS)[TKind], string>;

/** One catalog entry: the type string constant, its version, its aggregate and its schemas. */
export function defineEvent<
  const TType extends `${TKind}.${string}`,
  const TVersion extends number,
  TKind extends AggregateKind,
  TPayload extends z.ZodType<AggregatePayload<TKind>>,
>(definition: { type: TType; schemaVersion: TVersion; aggregate: TKind; payload: TPayload }) {
  const aggregateIdField = AGGREGATE_ID_FIELDS[definition.aggregate];
  const envelope = eventEnvelopeSchema(definition).superRefine((event, context) => {
    const { aggregateId, payload } = event as { aggregateId: string; payload: Record<string, unknown> };
    if (payload[aggregateIdField] !== aggregateId) {
      context.addIssue({
        code: 'custom',
        path: ['aggregateId'],
        message: `aggregateId must equal payload.${aggregateIdField}`,
      });
    }
  });
  return { ...definition, aggregateIdField, envelope };
}
