import { ContractViolation } from './contract-violation.error';
import { EVENT_CATALOG, type EventOf, type EventType, type PayloadOf } from './event-catalog';
import { uuidv7 } from './uuidv7';

export interface CreateEventInput<TType extends EventType> {
  type: TType;
  payload: PayloadOf<TType>;
  /** Defaults to the payload's task, runtime or session id, which it must equal anyway. */
  aggregateId?: string;
  /** Defaults to the new event's own id: it starts a new chain. */
  correlationId?: string;
  causationId?: string | null;
  /** Injectable for deterministic deciders and tests. */
  eventId?: string;
  occurredAt?: Date | string;
}

/** Builds a validated event; throws ContractViolation because a bad event here is a producer bug. */
export function createEvent<TType extends EventType>(input: CreateEventInput<TType>): EventOf<TType> {
  const definition = EVENT_CATALOG[input.type];
  if (definition === undefined) {
    throw new ContractViolation('unknown_event_type', `Unknown event type ${String(input.type)}`, [], String(input.type));
  }
  const payload = input.payload as object as Record<string, unknown>;
  const eventId = input.eventId ?? uuidv7();
  const occurredAt = input.occurredAt ?? new Date();
  const candidate = {
    eventId,
    type: input.type,
    schemaVersion: definition.schemaVersion,
    aggregateId: input.aggregateId ?? payload[definition.aggregateIdField],
    occurredAt: typeof occurredAt === 'string' ? occurredAt : occurredAt.toISOString(),
    correlationId: input.correlationId ?? eventId,
    causationId: input.causationId ?? null,
    payload: input.payload,
  };
  const result = definition.envelope.safeParse(candidate);
  if (!result.success) {
    const payloadOnly = result.error.issues.every((issue) => issue.path[0] === 'payload');
    throw new ContractViolation(
      payloadOnly ? 'invalid_payload' : 'invalid_envelope',
      `Invalid ${input.type} event: ${result.error.message}`,
      result.error.issues,
      input.type,
    );
  }
  return result.data as EventOf<TType>;
}

/** Correlation and causation for an event caused by another event (or a command's request id). */
export function causedBy(cause: { eventId: string; correlationId: string } | { requestId: string; correlationId?: string }): {
  correlationId: string;
  causationId: string;
} {
  if ('eventId' in cause) return { correlationId: cause.correlationId, causationId: cause.eventId };
  return { correlationId: cause.correlationId ?? cause.requestId, causationId: cause.requestId };
}
