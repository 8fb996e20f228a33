import { STREAM_CATALOG, parseEvent, subjects, type TaskCompletedPayload } from '@switchyard/contracts';
import { PermanentError, eventConsumer } from '@switchyard/messaging';

const SECOND = 1_000;

/**
 * The `extras` of `@EventPattern(name, ...)` for a durable consumer of `task.completed.>`
 * (TASK_EVENTS) behind one gateway reaction to a finished task. It keeps no checkpoint, so the
 * reaction must be idempotent by the task. It starts with new events on first boot (history is
 * not replayed as new reactions); after that a gateway that was down catches up from the
 * consumer's position.
 */
export function taskCompletedConsumer(name: string): Record<string, unknown> {
  return eventConsumer({
    consumer: {
      stream: STREAM_CATALOG.TASK_EVENTS.name,
      name,
      filterSubjects: [subjects.eventTypeFilter('task.completed')],
      deliverPolicy: 'new',
      ackWaitMs: 30 * SECOND,
      backoffMs: [2 * SECOND, 10 * SECOND, 30 * SECOND, 60 * SECOND, 300 * SECOND],
      maxDeliver: 20,
    },
    concurrency: 4,
  });
}

/** The payload of a delivered `task.completed` event; anything else is poison (dead-lettered). */
export function completedTaskOf(message: unknown): TaskCompletedPayload {
  const parsed = parseEvent(message);
  if (!parsed.ok) throw new PermanentError(`task.completed event rejected: ${parsed.error.message}`, parsed.error);
  if (parsed.event.type !== 'task.completed') throw new PermanentError(`${parsed.event.type} on the task.completed consumer`, undefined);
  return parsed.event.payload;
}
