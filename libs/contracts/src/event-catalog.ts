import { z } from 'zod';
import { ContractViolation } from './contract-violation.error';
import { baseEventEnvelopeSchema } from './event-envelope.schema';
import { RUNTIME_HEARTBEAT, RUNTIME_OFFLINE, RUNTIME_REGISTERED } from './runtime-events.schema';
import type { RuntimeHeartbeatEvent, RuntimeOfflineEvent, RuntimeRegisteredEvent } from './runtime-events.schema';
import { SESSION_PINNED, SESSION_RETIRED } from './session-events.schema';
import type { SessionPinnedEvent, SessionRetiredEvent } from './session-events.schema';
import {
  TASK_CLAIMED,
  TASK_DEFERRED,
  TASK_ENQUEUED,
  TASK_EXPIRED,
  TASK_HEARTBEAT,
  TASK_LOCAL_DIRECTORY_AWAITED,
  TASK_REQUEUED,
  TASK_START_DEADLINE_EXTENDED,
  TASK_STARTED,
} from './task-lifecycle-events.schema';
import type {
  TaskClaimedEvent,
  TaskDeferredEvent,
  TaskEnqueuedEvent,
  TaskExpiredEvent,
  TaskHeartbeatEvent,
  TaskLocalDirectoryAwaitedEvent,
  TaskRequeuedEvent,
  TaskStartDeadlineExtendedEvent,
  TaskStartedEvent,
} from './task-lifecycle-events.schema';
import { TASK_MESSAGE, type TaskMessageEvent } from './task-message-event.schema';
import {
  TASK_CANCEL_REQUESTED,
  TASK_CANCELLED,
  TASK_COMPLETED,
  TASK_FAILED,
  TASK_TIMED_OUT,
} from './task-outcome-events.schema';
import type {
  TaskCancelledEvent,
  TaskCancelRequestedEvent,
  TaskCompletedEvent,
  TaskFailedEvent,
  TaskTimedOutEvent,
} from './task-outcome-events.schema';

/** Every event type string -> its current schema version, aggregate and schemas. */
export const EVENT_CATALOG = {
  [TASK_ENQUEUED.type]: TASK_ENQUEUED,
  [TASK_DEFERRED.type]: TASK_DEFERRED,
  [TASK_CLAIMED.type]: TASK_CLAIMED,
  [TASK_LOCAL_DIRECTORY_AWAITED.type]: TASK_LOCAL_DIRECTORY_AWAITED,
  [TASK_START_DEADLINE_EXTENDED.type]: TASK_START_DEADLINE_EXTENDED,
  [TASK_STARTED.type]: TASK_STARTED,
  [TASK_HEARTBEAT.type]: TASK_HEARTBEAT,
  [TASK_MESSAGE.type]: TASK_MESSAGE,
  [TASK_COMPLETED.type]: TASK_COMPLETED,
  [TASK_FAILED.type]: TASK_FAILED,
  [TASK_CANCEL_REQUESTED.type]: TASK_CANCEL_REQUESTED,
  [TASK_CANCELLED.type]: TASK_CANCELLED,
  [TASK_TIMED_OUT.type]: TASK_TIMED_OUT,
  [TASK_REQUEUED.type]: TASK_REQUEUED,
  [TASK_EXPIRED.type]: TASK_EXPIRED,
  [RUNTIME_REGISTERED.type]: RUNTIME_REGISTERED,
  [RUNTIME_HEARTBEAT.type]: RUNTIME_HEARTBEAT,
  [RUNTIME_OFFLINE.type]: RUNTIME_OFFLINE,
  [SESSION_PINNED.type]: SESSION_PINNED,
  [SESSION_RETIRED.type]: SESSION_RETIRED,
} as const;

export type EventCatalog = typeof EVENT_CATALOG;
export type EventType = keyof EventCatalog;
export const EVENT_TYPES = Object.keys(EVENT_CATALOG) as EventType[];

export type TaskEventType = Extract<EventType, `task.${string}`>;
export type RuntimeEventType = Extract<EventType, `runtime.${string}`>;
export type SessionEventType = Extract<EventType, `session.${string}`>;

export type SwitchyardEvent =
  | TaskEnqueuedEvent
  | TaskDeferredEvent
  | TaskClaimedEvent
  | TaskLocalDirectoryAwaitedEvent
  | TaskStartDeadlineExtendedEvent
  | TaskStartedEvent
  | TaskHeartbeatEvent
  | TaskMessageEvent
  | TaskCompletedEvent
  | TaskFailedEvent
  | TaskCancelRequestedEvent
  | TaskCancelledEvent
  | TaskTimedOutEvent
  | TaskRequeuedEvent
  | TaskExpiredEvent
  | RuntimeRegisteredEvent
  | RuntimeHeartbeatEvent
  | RuntimeOfflineEvent
  | SessionPinnedEvent
  | SessionRetiredEvent;

export type EventOf<TType extends EventType> = Extract<SwitchyardEvent, { type: TType }>;
export type PayloadOf<TType extends EventType> = EventOf<TType>['payload'];

/** Every current event, discriminated on `type`. */
export const eventSchema = z.discriminatedUnion('type', [
  TASK_ENQUEUED.envelope,
  TASK_DEFERRED.envelope,
  TASK_CLAIMED.envelope,
  TASK_LOCAL_DIRECTORY_AWAITED.envelope,
  TASK_START_DEADLINE_EXTENDED.envelope,
  TASK_STARTED.envelope,
  TASK_HEARTBEAT.envelope,
  TASK_MESSAGE.envelope,
  TASK_COMPLETED.envelope,
  TASK_FAILED.envelope,
  TASK_CANCEL_REQUESTED.envelope,
  TASK_CANCELLED.envelope,
  TASK_TIMED_OUT.envelope,
  TASK_REQUEUED.envelope,
  TASK_EXPIRED.envelope,
  RUNTIME_REGISTERED.envelope,
  RUNTIME_HEARTBEAT.envelope,
  RUNTIME_OFFLINE.envelope,
  SESSION_PINNED.envelope,
  SESSION_RETIRED.envelope,
]);

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && Object.hasOwn(EVENT_CATALOG, value);
}

export type ParseEventResult = { ok: true; event: SwitchyardEvent } | { ok: false; error: ContractViolation };

/**
 * Validates anything read off the bus. Never throws: a violation is a value the consumer routes to
 * the dead-letter subject with its code as the reason.
 */
export function parseEvent(input: unknown): ParseEventResult {
  const envelope = baseEventEnvelopeSchema.safeParse(input);
  if (!envelope.success) {
    return violation('invalid_envelope', 'Not a valid event envelope', envelope.error.issues, claimedType(input));
  }
  const { type, schemaVersion } = envelope.data;
  if (!isEventType(type)) {
    return violation('unknown_event_type', `Unknown event type ${type}`, [], type);
  }
  const expectedVersion = EVENT_CATALOG[type].schemaVersion;
  if (schemaVersion !== expectedVersion) {
    return violation(
      'unsupported_schema_version',
      `${type} schema version ${schemaVersion} is not supported (expected ${expectedVersion})`,
      [],
      type,
    );
  }
  const event = eventSchema.safeParse(input);
  if (!event.success) {
    const issues = event.error.issues;
    const payloadOnly = issues.every((issue) => issue.path[0] === 'payload');
    return violation(payloadOnly ? 'invalid_payload' : 'invalid_envelope', `Invalid ${type} event`, issues, type);
  }
  return { ok: true, event: event.data };
}

/** For producers and tests, where a violation is a bug. */
export function parseEventOrThrow(input: unknown): SwitchyardEvent {
  const result = parseEvent(input);
  if (!result.ok) throw result.error;
  return result.event;
}

function violation(
  code: ContractViolation['code'],
  message: string,
  issues: ContractViolation['issues'],
  type: string | null,
): ParseEventResult {
  return { ok: false, error: new ContractViolation(code, message, issues, type) };
}

function claimedType(input: unknown): string | null {
  if (typeof input !== 'object' || input === null || !('type' in input)) return null;
  return typeof input.type === 'string' ? input.type : null;
}
