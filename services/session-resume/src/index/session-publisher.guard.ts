import { TechnicalError } from '@switchyard/contracts';
import { PermanentError } from '@switchyard/messaging';
import type { DataSource } from 'typeorm';
import { attemptsVouchingFor, checkSessionPublisher, senderOfSessionEvent, type SessionEvent } from '../domain/session-publisher.check';
import { readTaskAttempts } from '../trust/task-attempts.reader';

/** The attempt a daemon's session event speaks for has no holder yet: worth another delivery. */
export class UnheldAttemptError extends TechnicalError<'attempt_unheld'> {
  constructor(message: string) {
    super('attempt_unheld', message, { isRetryable: true });
  }
}

/**
 * Lets a session event into the index only from a service or from the daemon holding the attempt
 * it speaks for. A forgery throws `PermanentError`, so the consumer dead-letters it with the reason
 * at once; an unheld attempt throws a retryable error, so it is redelivered and dead-lettered on the
 * last delivery.
 */
export async function assertSessionPublisher(options: { readonly dataSource: DataSource; readonly subject: string; readonly event: SessionEvent }): Promise<void> {
  const { event } = options;
  const sender = senderOfSessionEvent(options.subject, event);
  if (sender.kind === 'service') return;
  if (sender.kind === 'invalid') throw new PermanentError(sender.error);
  const vouching = attemptsVouchingFor(event);
  const task = vouching === null ? undefined : await readTaskAttempts(options.dataSource, vouching);
  const check = checkSessionPublisher({ daemonId: sender.daemonId, event, task });
  if (check.verdict === 'forged') throw new PermanentError(check.error);
  if (check.verdict === 'unheld') throw new UnheldAttemptError(check.error);
}
