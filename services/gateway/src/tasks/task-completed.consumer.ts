import { STREAM_CATALOG, parseEvent, subjects, type TaskCompletedPayload } from '@switchyard/contracts';
import { PermanentError, type MessagingClient } from '@switchyard/messaging';

const SECOND = 1_000;

/**
 * A durable consumer of `task.completed.>` (TASK_EVENTS) for one gateway reaction to a finished
 * task. It keeps no checkpoint, so `onCompleted` must be idempotent by the task. It starts with new
 * events on first boot (history is not replayed as new reactions); after that a gateway that was
 * down catches up from the consumer's position. A malformed event goes to the dead letters.
 */
export async function startTaskCompletedConsumer(
  client: MessagingClient,
  options: { readonly name: string; readonly onCompleted: (payload: TaskCompletedPayload) => Promise<void> },
): Promise<void> {
  await client.startConsumer<unknown>({
    consumer: {
      stream: STREAM_CATALOG.TASK_EVENTS.name,
      name: options.name,
      filterSubjects: [subjects.eventTypeFilter('task.completed')],
      deliverPolicy: 'new',
      ackWaitMs: 30 * SECOND,
      backoffMs: [2 * SECOND, 10 * SECOND, 30 * SECOND, 60 * SECOND, 300 * SECOND],
      maxDeliver: 20,
    },
    concurrency: 4,
    handler: async (message) => {
      const parsed = parseEvent(message);
      if (!parsed.ok) throw new PermanentError(`task.completed event rejected: ${parsed.error.message}`, parsed.error);
      if (parsed.event.type !== 'task.completed') throw new PermanentError(`${parsed.event.type} on the task.completed consumer`, undefined);
      await options.onCompleted(parsed.event.payload);
    },
  });
}
