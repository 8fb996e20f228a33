import { SERVICE_PUBLISHERS, subjects, type EventOf } from '@switchyard/contracts';
import type { TaskAttempts } from './task-attempts';

export type SessionEvent = EventOf<'session.pinned' | 'session.retired'>;

/** Who published a session event, by its subject (NATS permissions make the last token the sender). */
export type SessionEventSender =
  | { readonly kind: 'service' }
  | { readonly kind: 'daemon'; readonly daemonId: string }
  | { readonly kind: 'invalid'; readonly error: string };

const SERVICE_TOKENS: readonly string[] = Object.values(SERVICE_PUBLISHERS);

/**
 * A service token is no daemon's to use (reserved ids, per-daemon grants), so a service's session
 * event is taken as before; a daemon's is checked against the attempt it speaks for.
 */
export function senderOfSessionEvent(subject: string, event: SessionEvent): SessionEventSender {
  let publisher: string;
  let aggregateId: string;
  try {
    publisher = subjects.publisherOf(subject);
    aggregateId = subjects.aggregateIdOf(subject);
  } catch (error) {
    return { kind: 'invalid', error: `subject ${subject} names no publisher or session: ${error instanceof Error ? error.message : String(error)}` };
  }
  // A daemon may publish on any session's subject of its own, so the subject must be the event's.
  if (aggregateId !== event.aggregateId) return { kind: 'invalid', error: `subject ${subject} names session ${aggregateId}, the event ${event.aggregateId}` };
  return SERVICE_TOKENS.includes(publisher) ? { kind: 'service' } : { kind: 'daemon', daemonId: publisher };
}

/** The task a daemon's session event speaks for, and which of its attempts vouch for the publisher. */
export function attemptsVouchingFor(event: SessionEvent): { readonly taskId: string; readonly attempts: number | 'all' } | null {
  if (event.type === 'session.pinned') return { taskId: event.payload.taskId, attempts: event.payload.attempt };
  // A retirement names no attempt: any attempt of its task the publisher held vouches for it.
  return event.payload.taskId === null ? null : { taskId: event.payload.taskId, attempts: 'all' };
}

/**
 * What a daemon's session event is to the index:
 * - `held`: from the daemon holding (or having held) the attempt it speaks for, applied;
 * - `forged`: anyone else's, or a pin placing the session on another runtime than the task's,
 *   dead-lettered and never applied;
 * - `unheld`: nobody holds that attempt yet, retried (the claim commits before the daemon hears of it,
 *   so this should not last).
 */
export type SessionPublisherVerdict =
  | { readonly verdict: 'held' }
  | { readonly verdict: 'forged'; readonly error: string }
  | { readonly verdict: 'unheld'; readonly error: string };

export function checkSessionPublisher(options: { readonly daemonId: string; readonly event: SessionEvent; readonly task: TaskAttempts | undefined }): SessionPublisherVerdict {
  const { daemonId, event, task } = options;
  const vouching = attemptsVouchingFor(event);
  if (vouching === null) return { verdict: 'forged', error: `${event.type} from ${daemonId} names no task, so no attempt vouches for it` };
  const holders = task?.holders ?? new Map<number, string>();
  if (vouching.attempts === 'all') {
    if (holders.size === 0) return { verdict: 'unheld', error: `task ${vouching.taskId} has no claimed attempt yet; ${event.type} published by ${daemonId}` };
    if ([...holders.values()].includes(daemonId)) return { verdict: 'held' };
    return { verdict: 'forged', error: `${event.type} published by ${daemonId}, but no attempt of task ${vouching.taskId} was held by it` };
  }
  const attempt = `attempt ${vouching.attempts} of task ${vouching.taskId}`;
  const holder = holders.get(vouching.attempts);
  if (task === undefined || holder === undefined) return { verdict: 'unheld', error: `${attempt} has no holder yet; ${event.type} published by ${daemonId}` };
  if (holder !== daemonId) return { verdict: 'forged', error: `${event.type} published by ${daemonId}, but ${attempt} is held by ${holder}` };
  if (event.type === 'session.pinned' && event.payload.runtimeId !== task.runtimeId) {
    return { verdict: 'forged', error: `${event.type} by ${daemonId} places the session on ${event.payload.runtimeId}, but task ${task.taskId} runs on ${task.runtimeId}` };
  }
  return { verdict: 'held' };
}
