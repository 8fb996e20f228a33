import { STREAM_CATALOG, parseEvent, subjects, type SwitchyardEvent, type TaskMessageEvent } from '@switchyard/contracts';
import { firstStoredMessage, type MessagingConnection } from '@switchyard/messaging';

/**
 * The seq of the first `task.message` of a task that the TASK_EVENTS stream still holds and the
 * feed would show (`isShown`: its attempt's holder published it), or undefined when it holds none.
 * Retention (age, bytes) drops the oldest messages first, so the stream holds every message of
 * the task from this seq on. Nothing is consumed.
 */
export async function firstStreamedMessageSeq(options: {
  readonly connection: MessagingConnection;
  readonly taskId: string;
  readonly isShown: (subject: string, event: TaskMessageEvent) => Promise<boolean>;
}): Promise<number | undefined> {
  const { connection, taskId } = options;
  // From any publisher: the daemon that ran the attempt is the subject's last token.
  const subject = subjects.aggregateEventFilter('task.message', taskId);
  for (let fromSequence = 1; ; ) {
    const stored = await firstStoredMessage(connection, { stream: STREAM_CATALOG.TASK_EVENTS.name, subject, fromSequence });
    if (!stored) return undefined;
    const event = eventOf(() => stored.json());
    if (event?.type === 'task.message' && (await options.isShown(stored.subject, event))) return event.payload.seq;
    // A malformed event is the projector's to dead-letter, a forged one too; look past it.
    fromSequence = stored.seq + 1;
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
