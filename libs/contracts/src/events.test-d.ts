import type { z } from 'zod';
import type { Equal, Expect } from './type-equality.helper';
import { createEvent } from './create-event';
import type { EventEnvelope, baseEventEnvelopeSchema } from './event-envelope.schema';
import type { EventCatalog, EventOf, EventType, SwitchyardEvent, eventSchema } from './event-catalog';
import type * as lifecycle from './task-lifecycle-events.schema';
import type * as outcome from './task-outcome-events.schema';
import type * as message from './task-message-event.schema';
import type * as runtime from './runtime-events.schema';
import type * as session from './session-events.schema';

type Payload<TSchema extends z.ZodType> = z.infer<TSchema>;
type Flat<TObject> = { [TKey in keyof TObject]: TObject[TKey] };
type Envelope<TType extends EventType> = z.infer<EventCatalog[TType]['envelope']>;

export type EventPayloadTypeTests = [
  Expect<Equal<Payload<typeof lifecycle.taskEnqueuedPayloadSchema>, lifecycle.TaskEnqueuedPayload>>,
  Expect<Equal<Payload<typeof lifecycle.taskDeferredPayloadSchema>, lifecycle.TaskDeferredPayload>>,
  Expect<Equal<Payload<typeof lifecycle.taskClaimedPayloadSchema>, lifecycle.TaskClaimedPayload>>,
  Expect<Equal<Payload<typeof lifecycle.taskStartedPayloadSchema>, lifecycle.TaskStartedPayload>>,
  Expect<Equal<Payload<typeof lifecycle.taskLocalDirectoryAwaitedPayloadSchema>, lifecycle.TaskLocalDirectoryAwaitedPayload>>,
  Expect<Equal<Payload<typeof lifecycle.taskStartDeadlineExtendedPayloadSchema>, lifecycle.TaskStartDeadlineExtendedPayload>>,
  Expect<Equal<Payload<typeof lifecycle.taskHeartbeatPayloadSchema>, lifecycle.TaskHeartbeatPayload>>,
  Expect<Equal<Payload<typeof lifecycle.taskRequeuedPayloadSchema>, lifecycle.TaskRequeuedPayload>>,
  Expect<Equal<Payload<typeof lifecycle.taskExpiredPayloadSchema>, lifecycle.TaskExpiredPayload>>,
  Expect<Equal<Payload<typeof message.taskMessagePayloadSchema>, message.TaskMessagePayload>>,
  Expect<Equal<Payload<typeof outcome.taskCompletedPayloadSchema>, outcome.TaskCompletedPayload>>,
  Expect<Equal<Payload<typeof outcome.taskFailedPayloadSchema>, outcome.TaskFailedPayload>>,
  Expect<Equal<Payload<typeof outcome.taskCancelRequestedPayloadSchema>, outcome.TaskCancelRequestedPayload>>,
  Expect<Equal<Payload<typeof outcome.taskCancelledPayloadSchema>, outcome.TaskCancelledPayload>>,
  Expect<Equal<Payload<typeof outcome.taskTimedOutPayloadSchema>, outcome.TaskTimedOutPayload>>,
  Expect<Equal<Payload<typeof runtime.runtimeRegisteredPayloadSchema>, runtime.RuntimeRegisteredPayload>>,
  // Producers may still leave `models` out; consumers always read a list.
  Expect<Equal<z.input<typeof runtime.runtimeRegisteredPayloadSchema>, Flat<Omit<runtime.RuntimeRegisteredPayload, 'models'> & { models?: string[] | undefined }>>>,
  Expect<Equal<Payload<typeof runtime.runtimeHeartbeatPayloadSchema>, runtime.RuntimeHeartbeatPayload>>,
  Expect<Equal<Payload<typeof runtime.runtimeOfflinePayloadSchema>, runtime.RuntimeOfflinePayload>>,
  Expect<Equal<Payload<typeof session.sessionPinnedPayloadSchema>, session.SessionPinnedPayload>>,
  Expect<Equal<Payload<typeof session.sessionRetiredPayloadSchema>, session.SessionRetiredPayload>>,
];

export type EventEnvelopeTypeTests = [
  Expect<Equal<z.infer<typeof baseEventEnvelopeSchema>, EventEnvelope>>,
  Expect<Equal<Envelope<'task.enqueued'>, lifecycle.TaskEnqueuedEvent>>,
  Expect<Equal<Envelope<'task.deferred'>, lifecycle.TaskDeferredEvent>>,
  Expect<Equal<Envelope<'task.claimed'>, lifecycle.TaskClaimedEvent>>,
  Expect<Equal<Envelope<'task.started'>, lifecycle.TaskStartedEvent>>,
  Expect<Equal<Envelope<'task.local_directory_awaited'>, lifecycle.TaskLocalDirectoryAwaitedEvent>>,
  Expect<Equal<Envelope<'task.start_deadline_extended'>, lifecycle.TaskStartDeadlineExtendedEvent>>,
  Expect<Equal<Envelope<'task.heartbeat'>, lifecycle.TaskHeartbeatEvent>>,
  Expect<Equal<Envelope<'task.requeued'>, lifecycle.TaskRequeuedEvent>>,
  Expect<Equal<Envelope<'task.expired'>, lifecycle.TaskExpiredEvent>>,
  Expect<Equal<Envelope<'task.message'>, message.TaskMessageEvent>>,
  Expect<Equal<Envelope<'task.completed'>, outcome.TaskCompletedEvent>>,
  Expect<Equal<Envelope<'task.failed'>, outcome.TaskFailedEvent>>,
  Expect<Equal<Envelope<'task.cancel_requested'>, outcome.TaskCancelRequestedEvent>>,
  Expect<Equal<Envelope<'task.cancelled'>, outcome.TaskCancelledEvent>>,
  Expect<Equal<Envelope<'task.timed_out'>, outcome.TaskTimedOutEvent>>,
  Expect<Equal<Envelope<'runtime.registered'>, runtime.RuntimeRegisteredEvent>>,
  Expect<Equal<Envelope<'runtime.heartbeat'>, runtime.RuntimeHeartbeatEvent>>,
  Expect<Equal<Envelope<'runtime.offline'>, runtime.RuntimeOfflineEvent>>,
  Expect<Equal<Envelope<'session.pinned'>, session.SessionPinnedEvent>>,
  Expect<Equal<Envelope<'session.retired'>, session.SessionRetiredEvent>>,
  // The discriminated union, the explicit union and the catalog keys describe the same events.
  Expect<Equal<z.infer<typeof eventSchema>, SwitchyardEvent>>,
  Expect<Equal<SwitchyardEvent['type'], EventType>>,
  Expect<Equal<{ [TType in EventType]: EventCatalog[TType]['type'] }, { [TType in EventType]: TType }>>,
];

// createEvent ties the payload to the type; never called, only compiled.
export function createEventIsTyped(): EventOf<'task.claimed'>['payload']['daemonId'] {
  const claimed = createEvent({
    type: 'task.claimed',
    payload: { taskId: 't1', attempt: 1, daemonId: 'd1', runtimeId: 'r1', startBy: '2025-01-01T00:00:00.000Z' },
  });
  // @ts-expect-error a task.started payload is not a task.claimed payload
  createEvent({ type: 'task.claimed', payload: { taskId: 't1', attempt: 1, daemonId: 'd1', runtimeId: 'r1', workDir: '/w' } });
  // @ts-expect-error unknown event types do not compile
  createEvent({ type: 'task.exploded', payload: {} });
  return claimed.payload.daemonId;
}
