import type { EventEnvelope } from '@switchyard/contracts';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Where the store runs its statements: a data source (the store opens its own transaction) or an
 * entity manager (inside the caller's transaction the store uses a savepoint, so a conflict rolls
 * back only the append and the caller's transaction stays usable).
 */
export type EventStoreTarget = { readonly dataSource: DataSource; readonly manager?: undefined } | { readonly manager: EntityManager; readonly dataSource?: undefined };

/**
 * One event to append. The `outbox_event.payload` column stores the FULL contract envelope
 * ({eventId, type, schemaVersion, aggregateId, occurredAt, correlationId, causationId, payload}) and
 * the relay publishes it verbatim, so the row's id, type and occurred_at columns are taken from the
 * envelope and can never disagree with the published body.
 */
export interface NewEvent {
  readonly envelope: EventEnvelope;
  /** Logical subject to publish on, e.g. `task.claimed.<taskId>` (see `subjects` in contracts). */
  readonly subject: string;
  /**
   * Extra NATS headers stored with the row. The store adds the envelope's type, schema version,
   * correlation and causation ids, and the active W3C trace context unless `traceparent` is given.
   */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One row of the event store as read back. */
export interface StoredEvent {
  /** The event id (`envelope.eventId`), also the `Nats-Msg-Id` the relay publishes with. */
  readonly eventId: string;
  readonly aggregateId: string;
  /** 1-based, contiguous per aggregate. */
  readonly version: number;
  readonly type: string;
  readonly subject: string;
  readonly envelope: EventEnvelope;
  readonly headers: Readonly<Record<string, string>>;
  readonly occurredAt: Date;
  /** When the relay had the event acknowledged by JetStream; null until then. */
  readonly publishedAt: Date | null;
}

/** The columns every query of this library selects, in the shape `toStoredEvent` reads. */
export const STORED_EVENT_COLUMNS = 'id, aggregate_id, version, type, subject, payload, headers, occurred_at, published_at';

export interface StoredEventRow {
  readonly id: string;
  readonly aggregate_id: string;
  readonly version: number;
  readonly type: string;
  readonly subject: string;
  readonly payload: EventEnvelope;
  readonly headers: Record<string, string> | null;
  readonly occurred_at: Date;
  readonly published_at: Date | null;
}

export function toStoredEvent(row: StoredEventRow): StoredEvent {
  return {
    eventId: row.id,
    aggregateId: row.aggregate_id,
    version: Number(row.version),
    type: row.type,
    subject: row.subject,
    envelope: row.payload,
    headers: row.headers ?? {},
    occurredAt: row.occurred_at,
    publishedAt: row.published_at,
  };
}

/** The manager to run statements on, whichever kind of target was given. */
export function managerOf(target: EventStoreTarget): EntityManager {
  return target.manager ?? target.dataSource.manager;
}
