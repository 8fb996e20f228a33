import { STREAM_CATALOG, parseEvent, subjects, type SwitchyardEvent } from '@switchyard/contracts';
import type { MessagingConnection } from '@switchyard/messaging';

type StreamMessageQuery = Parameters<MessagingConnection['manager']['streams']['getMessage']>[1];

/**
 * The seq of the first `task.message` of a task that the TASK_EVENTS stream still holds, or
 * undefined when it holds none. Retention (age, bytes) drops the oldest messages first, so the
 * stream holds every message of the task from this seq on. One direct read by subject: nothing is
 * consumed, and it works on nats-server 2.9.
 */
export async function firstStreamedMessageSeq(connection: MessagingConnection, taskId: string): Promise<number | undefined> {
  const stream = connection.namespace.stream(STREAM_CATALOG.TASK_EVENTS.name);
  const subject = connection.namespace.subject(subjects.taskEvent('task.message', taskId));
  for (let from = 1; ; ) {
    // STREAM.MSG.GET takes `next_by_subj` since nats-server 2.9; nats.js types it for direct gets only.
    const query = { seq: from, next_by_subj: subject } as unknown as StreamMessageQuery;
    const stored = await connection.manager.streams.getMessage(stream, query);
    if (!stored) return undefined;
    const event = eventOf(() => stored.json());
    if (event?.type === 'task.message' && event.payload.taskId === taskId) return event.payload.seq;
    // A malformed event is the projector's to dead-letter; look past it.
    from = stored.seq + 1;
  }
}

/** The event a stream message carries, or undefined when it is not valid JSON or not a valid event. */
export function eventOf(json: () => unknown): SwitchyardEvent | undefined {
  let data: unknown;
  try {
    data = json();
  } catch {
    return undefined;
  }
  const parsed = parseEvent(data);
  return parsed.ok ? parsed.event : undefined;
}
