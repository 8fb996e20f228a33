import { HEADERS } from '@switchyard/contracts';
import { headersFromRecord, headersToRecord, injectTraceContext } from '@switchyard/messaging';
import type { EntityManager } from 'typeorm';
import {
  ConcurrencyConflictError,
  DuplicateEventError,
  EventStorageError,
  EventStoreError,
  InvalidAppendError,
  POSTGRES_UNIQUE_VIOLATION,
  postgresErrorCode,
  postgresErrorConstraint,
} from '../errors/event-store.errors';
import {
  STORED_EVENT_COLUMNS,
  managerOf,
  toStoredEvent,
  type EventStoreTarget,
  type NewEvent,
  type StoredEvent,
  type StoredEventRow,
} from './stored-event.types';

/** Name of the unique (aggregate_id, version) constraint in the foundation migration. */
export const AGGREGATE_VERSION_CONSTRAINT = 'outbox_event_aggregate_version_unique';

/**
 * A data-modifying statement sent with an append's insert, as one of its common table expressions:
 * one round trip to Postgres for both (a projection row, a token). It is given the number of its
 * first parameter. All of them see the snapshot the insert sees, so none may touch `outbox_event`,
 * and no two may change the same row.
 */
export type AlongsideStatement = (firstParameter: number) => { readonly sql: string; readonly parameters: readonly unknown[] };

/** Inline projection: writes views with the manager of the append's transaction. */
export type InlineProjection = (manager: EntityManager, events: readonly StoredEvent[]) => Promise<void>;

export type AppendEventsOptions = EventStoreTarget & {
  readonly aggregateId: string;
  /** The version the decision was made on: 0 for a new aggregate. */
  readonly expectedVersion: number;
  readonly events: readonly NewEvent[];
  /** Runs after the insert, in the same transaction; if it throws, nothing is stored. */
  readonly project?: InlineProjection;
  /**
   * The caller runs in its own transaction and reruns all of it on `ConcurrencyConflictError`
   * (`withOptimisticRetry` around the transaction), and `expectedVersion` comes from events it
   * loaded in that transaction. Then the append needs neither a savepoint nor a separate version
   * read, three statements fewer: a writer that appended in between still makes the insert fail
   * on the unique (aggregate_id, version) index, which aborts the caller's transaction.
   */
  readonly callerRerunsOnConflict?: boolean;
  /** Sent with the insert (see `AlongsideStatement`); only with `callerRerunsOnConflict`. */
  readonly alongside?: readonly AlongsideStatement[];
};

export interface AppendResult {
  readonly aggregateId: string;
  /** The aggregate's version after the append (expectedVersion + events.length). */
  readonly version: number;
  readonly events: readonly StoredEvent[];
}

export type LoadEventsOptions = EventStoreTarget & {
  readonly aggregateId: string;
  /** Only events with a higher version (e.g. after a snapshot); defaults to 0, i.e. all. */
  readonly afterVersion?: number;
};

// 8 parameters per row; keeps one INSERT far below Postgres's 65535-parameter limit.
const ROWS_PER_INSERT = 1_000;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface PreparedRow {
  readonly aggregateId: string;
  readonly eventId: string;
  readonly version: number;
  readonly event: NewEvent;
  readonly headers: Record<string, string>;
  readonly occurredAt: Date;
}

/**
 * Appends events with versions expectedVersion+1.. and runs the inline projection, in one
 * transaction (a savepoint when `manager` is already inside one). A writer that decided on a stale
 * version gets `ConcurrencyConflictError`: from the version check, or from the unique
 * (aggregate_id, version) constraint when the other writer committed in between. The check also
 * keeps versions gap-free, so version n is always committed before n+1 becomes visible, which the
 * relay relies on for per-aggregate order.
 *
 * After the caller's transaction commits, call `relay.wake()` to publish without waiting for a poll.
 * No events: nothing is checked, stored or projected.
 */
export async function appendEvents(options: AppendEventsOptions): Promise<AppendResult> {
  const { aggregateId, expectedVersion, events } = options;
  const rows = prepareRows(aggregateId, expectedVersion, events);
  if (rows.length === 0) return { aggregateId, version: expectedVersion, events: [] };
  // Only inside a transaction: else the insert and the projection would not be atomic.
  if (options.callerRerunsOnConflict && options.manager?.queryRunner?.isTransactionActive) {
    const stored = await insertRows(options.manager, rows, { aggregateId, expectedVersion }, options.alongside);
    await options.project?.(options.manager, stored);
    return { aggregateId, version: expectedVersion + rows.length, events: stored };
  }

  if (options.alongside && options.alongside.length > 0) throw new InvalidAppendError('statements alongside an append need the caller\'s transaction (callerRerunsOnConflict)');
  let projectionError: unknown;
  try {
    return await managerOf(options).transaction(async (manager) => {
      const actualVersion = await currentVersion(manager, aggregateId);
      if (actualVersion !== expectedVersion) throw new ConcurrencyConflictError({ aggregateId, expectedVersion, actualVersion });
      const stored = await insertRows(manager, rows, { aggregateId, expectedVersion });
      if (options.project) {
        try {
          await options.project(manager, stored);
        } catch (error) {
          projectionError = error;
          throw error;
        }
      }
      return { aggregateId, version: expectedVersion + rows.length, events: stored };
    });
  } catch (error) {
    // The projection's own errors belong to the caller's domain and pass through unchanged.
    if (error instanceof EventStoreError || (projectionError !== undefined && error === projectionError)) throw error;
    // E.g. the connection died at COMMIT: the outcome is unknown. A retry with the same event ids
    // then fails with DuplicateEventError or ConcurrencyConflictError if the first one committed.
    throw new EventStorageError(`appending to ${aggregateId} failed`, error);
  }
}

/** One aggregate's part of `appendEventsOfAggregates`. */
export interface AggregateAppend {
  readonly aggregateId: string;
  /** The version the decision was made on: 0 for a new aggregate. */
  readonly expectedVersion: number;
  readonly events: readonly NewEvent[];
}

/**
 * The appends of several aggregates with one insert, in the caller's transaction, for a caller that
 * reruns all of it on `ConcurrencyConflictError` (as `callerRerunsOnConflict` does for one
 * aggregate): a writer that appended to any of them in between makes the insert fail on the unique
 * (aggregate_id, version) index. A claim of ten tasks stores its events in one statement, not ten.
 * The caller projects the stored events itself, in the same transaction.
 */
export async function appendEventsOfAggregates(options: {
  readonly manager: EntityManager;
  readonly appends: readonly AggregateAppend[];
  /** Sent with the insert (see `AlongsideStatement`). */
  readonly alongside?: readonly AlongsideStatement[];
}): Promise<AppendResult[]> {
  if (!options.manager.queryRunner?.isTransactionActive) throw new InvalidAppendError('appendEventsOfAggregates needs the caller\'s transaction');
  const aggregates = new Set<string>();
  const rows = options.appends.flatMap((append) => {
    if (aggregates.has(append.aggregateId)) throw new InvalidAppendError(`aggregate ${append.aggregateId} appears twice in one append`);
    aggregates.add(append.aggregateId);
    return prepareRows(append.aggregateId, append.expectedVersion, append.events);
  });
  const first = options.appends[0];
  if (!first || rows.length === 0) return options.appends.map(({ aggregateId, expectedVersion }) => ({ aggregateId, version: expectedVersion, events: [] }));
  const stored = await insertRows(options.manager, rows, {
    // Which aggregate conflicted is read from the violation when it can be.
    aggregateId: first.aggregateId,
    expectedVersion: first.expectedVersion,
    expectedVersionOf: (aggregateId) => options.appends.find((append) => append.aggregateId === aggregateId)?.expectedVersion,
  }, options.alongside);
  return options.appends.map(({ aggregateId, expectedVersion, events }) => ({
    aggregateId,
    version: expectedVersion + events.length,
    events: stored.filter((event) => event.aggregateId === aggregateId),
  }));
}

/** The aggregate's events in version order. */
export async function loadEvents(options: LoadEventsOptions): Promise<StoredEvent[]> {
  const afterVersion = options.afterVersion ?? 0;
  try {
    const rows = await managerOf(options).query<StoredEventRow[]>(
      `select ${STORED_EVENT_COLUMNS} from outbox_event where aggregate_id = $1 and version > $2 order by version`,
      [options.aggregateId, afterVersion],
    );
    return rows.map(toStoredEvent);
  } catch (error) {
    throw new EventStorageError(`loading the events of ${options.aggregateId} failed`, error);
  }
}

/** The events of many aggregates in one read, each aggregate's in version order (none: no entry). */
export async function loadEventsOfAggregates(options: EventStoreTarget & { readonly aggregateIds: readonly string[] }): Promise<Map<string, StoredEvent[]>> {
  const byAggregate = new Map<string, StoredEvent[]>();
  if (options.aggregateIds.length === 0) return byAggregate;
  try {
    const rows = await managerOf(options).query<StoredEventRow[]>(
      `select ${STORED_EVENT_COLUMNS} from outbox_event where aggregate_id = any($1) order by aggregate_id, version`,
      [[...options.aggregateIds]],
    );
    for (const event of rows.map(toStoredEvent)) {
      const events = byAggregate.get(event.aggregateId) ?? [];
      events.push(event);
      byAggregate.set(event.aggregateId, events);
    }
    return byAggregate;
  } catch (error) {
    throw new EventStorageError(`loading the events of ${options.aggregateIds.length} aggregates failed`, error);
  }
}

async function currentVersion(manager: EntityManager, aggregateId: string): Promise<number> {
  try {
    const rows = await manager.query<Array<{ version: number }>>(
      'select coalesce(max(version), 0)::int as version from outbox_event where aggregate_id = $1',
      [aggregateId],
    );
    return rows[0]?.version ?? 0;
  } catch (error) {
    throw new EventStorageError(`reading the version of ${aggregateId} failed`, error);
  }
}

/** Whom a unique violation of (aggregate_id, version) is reported against. */
interface ConflictTarget {
  readonly aggregateId: string;
  readonly expectedVersion: number;
  /** For an insert of several aggregates: the one the violation names, if known. */
  readonly expectedVersionOf?: (aggregateId: string) => number | undefined;
}

async function insertRows(manager: EntityManager, rows: readonly PreparedRow[], conflict: ConflictTarget, alongside: readonly AlongsideStatement[] = []): Promise<StoredEvent[]> {
  const stored: StoredEvent[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const chunk = rows.slice(start, start + ROWS_PER_INSERT);
    const parameters: unknown[] = [];
    const tuples = chunk.map((row) => {
      const base = parameters.length;
      parameters.push(
        row.eventId,
        row.aggregateId,
        row.version,
        row.event.envelope.type,
        row.event.subject,
        JSON.stringify(row.event.envelope),
        JSON.stringify(row.headers),
        row.occurredAt,
      );
      const placeholder = (offset: number): string => `$${base + offset}`;
      return `(${placeholder(1)}, ${placeholder(2)}, ${placeholder(3)}, ${placeholder(4)}, ${placeholder(5)}, ${placeholder(6)}::jsonb, ${placeholder(7)}::jsonb, ${placeholder(8)})`;
    });
    // The statements alongside go with the first insert.
    const expressions = (start === 0 ? alongside : []).map((statement, index) => {
      const { sql, parameters: own } = statement(parameters.length + 1);
      parameters.push(...own);
      return `alongside_${index + 1} as (${sql})`;
    });
    try {
      const inserted = await manager.query<StoredEventRow[]>(
        `${expressions.length > 0 ? `with ${expressions.join(', ')} ` : ''}insert into outbox_event (id, aggregate_id, version, type, subject, payload, headers, occurred_at)
         values ${tuples.join(', ')} returning ${STORED_EVENT_COLUMNS}`,
        parameters,
      );
      stored.push(...inserted.map(toStoredEvent));
    } catch (error) {
      // A statement alongside failed on its own table: its error is the caller's.
      if (expressions.length > 0 && isOtherTablesViolation(error)) throw error;
      throw translateInsertError(error, conflict);
    }
  }
  return stored.sort((left, right) => (left.aggregateId === right.aggregateId ? left.version - right.version : left.aggregateId < right.aggregateId ? -1 : 1));
}

/** A constraint violation that names a constraint of a table other than `outbox_event`. */
function isOtherTablesViolation(error: unknown): boolean {
  const constraint = postgresErrorConstraint(error);
  return constraint !== undefined && !constraint.startsWith('outbox_event');
}

function translateInsertError(error: unknown, conflict: ConflictTarget): EventStoreError {
  const named = conflictingAggregateOf(error);
  const namedVersion = named === undefined ? undefined : conflict.expectedVersionOf?.(named);
  const { aggregateId, expectedVersion } = named !== undefined && namedVersion !== undefined ? { aggregateId: named, expectedVersion: namedVersion } : conflict;
  if (postgresErrorCode(error) === POSTGRES_UNIQUE_VIOLATION) {
    if (postgresErrorConstraint(error) === AGGREGATE_VERSION_CONSTRAINT) {
      return new ConcurrencyConflictError({ aggregateId, expectedVersion, cause: error });
    }
    return new DuplicateEventError({ aggregateId, cause: error });
  }
  return new EventStorageError(`inserting events of ${aggregateId} failed`, error);
}

/** `Key (aggregate_id, version)=(<id>, 3) already exists.`: the aggregate a violation names. */
function conflictingAggregateOf(error: unknown): string | undefined {
  const detail = (error as { detail?: unknown; driverError?: { detail?: unknown } } | null)?.detail ?? (error as { driverError?: { detail?: unknown } } | null)?.driverError?.detail;
  if (typeof detail !== 'string') return undefined;
  return /^Key \(aggregate_id, version\)=\((.*), \d+\) already exists/.exec(detail)?.[1];
}

function prepareRows(aggregateId: string, expectedVersion: number, events: readonly NewEvent[]): PreparedRow[] {
  if (aggregateId.trim() === '') throw new InvalidAppendError('aggregateId is empty');
  if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 0) {
    throw new InvalidAppendError(`expectedVersion must be a non-negative integer, got ${expectedVersion}`);
  }
  const seen = new Set<string>();
  return events.map((event, index) => {
    const { envelope } = event;
    const position = `event ${index} (${envelope.type})`;
    if (envelope.aggregateId !== aggregateId) {
      throw new InvalidAppendError(`${position} belongs to ${envelope.aggregateId}, not ${aggregateId}`);
    }
    if (!UUID_PATTERN.test(envelope.eventId)) throw new InvalidAppendError(`${position} has an eventId that is not a UUID`);
    const eventId = envelope.eventId.toLowerCase();
    if (seen.has(eventId)) throw new InvalidAppendError(`${position} repeats event id ${eventId}`);
    seen.add(eventId);
    if (event.subject.trim() === '') throw new InvalidAppendError(`${position} has an empty subject`);
    const occurredAt = new Date(envelope.occurredAt);
    if (Number.isNaN(occurredAt.getTime())) throw new InvalidAppendError(`${position} has an invalid occurredAt`);
    return { aggregateId, eventId, version: expectedVersion + index + 1, event, headers: storedHeaders(event), occurredAt };
  });
}

/**
 * The headers the relay publishes with. Envelope metadata wins over caller headers so routers can
 * trust it; the trace context is captured now because the relay publishes later, outside the
 * request that caused the event. The message id is the relay's to set.
 */
function storedHeaders(event: NewEvent): Record<string, string> {
  const { envelope } = event;
  const headers: Record<string, string> = { ...event.headers };
  delete headers[HEADERS.messageId];
  if (headers[HEADERS.traceparent] === undefined) {
    Object.assign(headers, headersToRecord(injectTraceContext(headersFromRecord({}))));
  }
  headers[HEADERS.eventType] = envelope.type;
  headers[HEADERS.schemaVersion] = String(envelope.schemaVersion);
  headers[HEADERS.correlationId] = envelope.correlationId;
  if (envelope.causationId !== null) headers[HEADERS.causationId] = envelope.causationId;
  else delete headers[HEADERS.causationId];
  return headers;
}
