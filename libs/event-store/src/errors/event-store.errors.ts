import { TechnicalError, type TechnicalErrorOptions } from '@switchyard/contracts';
/** Codes of every error raised by `@switchyard/event-store`. */
export const EVENT_STORE_ERROR_CODES = {
  /** Another writer appended to the aggregate first: reload, decide again, retry. */
  concurrencyConflict: 'concurrency_conflict',
  /** The same event id was appended before (a replayed command): retrying cannot help. */
  duplicateEvent: 'duplicate_event',
  /** The append request itself is wrong (mismatched aggregate id, bad version): a caller bug. */
  invalidAppend: 'invalid_append',
  /** The database refused or failed a statement of the store or the relay. */
  storageFailed: 'storage_failed',
  /** The relay lost its advisory lock (its dedicated connection died); another relay may take over. */
  leadershipLost: 'leadership_lost',
} as const;

export type EventStoreErrorCode = (typeof EVENT_STORE_ERROR_CODES)[keyof typeof EVENT_STORE_ERROR_CODES];

export type EventStoreErrorOptions = TechnicalErrorOptions;

/** Base of every error this library throws: a code, whether retrying can help, and the cause. */
export class EventStoreError extends TechnicalError<EventStoreErrorCode> {}

/**
 * The aggregate is no longer at `expectedVersion`. `actualVersion` is known when the version check
 * saw it; it is undefined when the unique (aggregate_id, version) constraint caught a writer that
 * committed between our check and our insert.
 */
export class ConcurrencyConflictError extends EventStoreError {
  readonly aggregateId: string;
  readonly expectedVersion: number;
  readonly actualVersion: number | undefined;

  constructor(options: { aggregateId: string; expectedVersion: number; actualVersion?: number; cause?: unknown }) {
    const actual = options.actualVersion === undefined ? 'a concurrent writer' : `version ${options.actualVersion}`;
    super(
      EVENT_STORE_ERROR_CODES.concurrencyConflict,
      `aggregate ${options.aggregateId} expected at version ${options.expectedVersion} but found ${actual}`,
      { isRetryable: true, cause: options.cause },
    );
    this.aggregateId = options.aggregateId;
    this.expectedVersion = options.expectedVersion;
    this.actualVersion = options.actualVersion;
  }
}

/** An event id already stored: the command that produced it ran before. */
export class DuplicateEventError extends EventStoreError {
  readonly aggregateId: string;

  constructor(options: { aggregateId: string; cause?: unknown }) {
    super(EVENT_STORE_ERROR_CODES.duplicateEvent, `an event appended to ${options.aggregateId} has an id that is already stored`, {
      isRetryable: false,
      cause: options.cause,
    });
    this.aggregateId = options.aggregateId;
  }
}

/** The append request is malformed; fix the caller. */
export class InvalidAppendError extends EventStoreError {
  constructor(message: string) {
    super(EVENT_STORE_ERROR_CODES.invalidAppend, message, { isRetryable: false });
  }
}

/** A statement of the store or the relay failed; `isRetryable` follows the Postgres error class. */
export class EventStorageError extends EventStoreError {
  constructor(message: string, cause: unknown) {
    super(EVENT_STORE_ERROR_CODES.storageFailed, `${message}: ${describeCause(cause)}`, {
      isRetryable: isTransientDatabaseError(cause),
      cause,
    });
  }
}

/** The relay's lock connection failed, so it no longer knows it is the only active relay. */
export class RelayLeadershipLostError extends EventStoreError {
  constructor(cause: unknown) {
    super(EVENT_STORE_ERROR_CODES.leadershipLost, `outbox relay lost its advisory lock connection: ${describeCause(cause)}`, {
      isRetryable: true,
      cause,
    });
  }
}

/** The SQLSTATE of a pg error, also when TypeORM wrapped it in a QueryFailedError. */
export function postgresErrorCode(error: unknown): string | undefined {
  return postgresErrorField(error, 'code');
}

/** The constraint a pg error names (unique and foreign key violations). */
export function postgresErrorConstraint(error: unknown): string | undefined {
  return postgresErrorField(error, 'constraint');
}

export const POSTGRES_UNIQUE_VIOLATION = '23505';

// Connection exceptions (08), serialization failures and deadlocks (40), insufficient resources
// (53), operator intervention such as admin shutdown (57P): the same statement may work later.
const TRANSIENT_SQLSTATE = /^(08|40|53|57P)/;

/** Whether a database error may go away on retry; errors without a SQLSTATE (lost sockets) count as transient. */
export function isTransientDatabaseError(error: unknown): boolean {
  const code = postgresErrorCode(error);
  if (code === undefined) return true;
  return TRANSIENT_SQLSTATE.test(code);
}

export function describeCause(cause: unknown): string {
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  return String(cause);
}

function postgresErrorField(error: unknown, field: 'code' | 'constraint'): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const direct = (error as Record<string, unknown>)[field];
  if (typeof direct === 'string') return direct;
  const driverError = (error as { driverError?: unknown }).driverError;
  if (typeof driverError === 'object' && driverError !== null) {
    const nested = (driverError as Record<string, unknown>)[field];
    if (typeof nested === 'string') return nested;
  }
  return undefined;
}
