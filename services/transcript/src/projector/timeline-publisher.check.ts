import { subjects, type TaskMessagePayload } from '@switchyard/contracts';
import { attemptKey, type AttemptHolders } from '@switchyard/persistence';

/**
 * What a `task.message` is to the projector, by who published it (the subject's last token, which
 * NATS permissions make the sender) against who holds its attempt:
 * - `held`: the holder's own, stored;
 * - `forged`: another identity's, never stored (nor allowed to take the seq);
 * - `unheld`: nobody holds the attempt yet, retried (the claim commits before its reply, so this
 *   should not last).
 */
export type PublisherVerdict =
  | { readonly verdict: 'held' }
  | { readonly verdict: 'forged'; readonly error: Error }
  | { readonly verdict: 'unheld'; readonly error: Error };

export function checkPublisher(options: { readonly subject: string; readonly payload: Pick<TaskMessagePayload, 'taskId' | 'attempt'>; readonly holders: AttemptHolders }): PublisherVerdict {
  const { subject, payload } = options;
  let publisher: string;
  try {
    publisher = subjects.publisherOf(subject);
  } catch (error) {
    return { verdict: 'forged', error: new Error(`subject ${subject} names no publisher`, { cause: error }) };
  }
  const holder = options.holders.get(attemptKey(payload));
  const attempt = `attempt ${payload.attempt} of task ${payload.taskId}`;
  if (holder === undefined) return { verdict: 'unheld', error: new Error(`${attempt} has no holder yet; published by ${publisher}`) };
  if (holder !== publisher) return { verdict: 'forged', error: new Error(`published by ${publisher}, but ${attempt} is held by ${holder}`) };
  return { verdict: 'held' };
}
