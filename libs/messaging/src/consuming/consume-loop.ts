import { sleep } from '../backoff/retry-backoff';
import type { MessagingConnection } from '../connection/messaging.connection';
import { describeCause } from '../errors/messaging.errors';
import { natsClients } from '../connection/nats-clients';

/** Pause before a failed consume loop starts again. */
export const CONSUME_RESTART_DELAY_MS = 1_000;

/**
 * Runs `consumeOnce` until stopped or the connection closes. A failure is logged, `recover` repairs
 * what it can (the consumer may be gone), `settled` waits for work still in hand, and the loop
 * starts again after a pause: one broken pull never ends a consumer.
 */
export async function runConsumeLoop(options: {
  readonly connection: MessagingConnection;
  readonly signal: AbortSignal;
  readonly labels: Record<string, unknown>;
  readonly failureMessage: string;
  readonly consumeOnce: () => Promise<void>;
  readonly recover: () => Promise<unknown>;
  readonly settled?: () => Promise<unknown>;
}): Promise<void> {
  const { connection, signal } = options;
  while (!signal.aborted && !natsClients(connection).nats.isClosed()) {
    try {
      await options.consumeOnce();
    } catch (error) {
      connection.logger.error({ ...options.labels, error: describeCause(error) }, options.failureMessage);
      await options.recover().catch(() => undefined);
    } finally {
      await options.settled?.();
    }
    if (!signal.aborted) await sleep(CONSUME_RESTART_DELAY_MS, signal);
  }
}

/** Acks fail only when the connection is gone; the server then redelivers, which is the fallback. */
export function settle(action: () => void): void {
  try {
    action();
  } catch {
    // Deliberately ignored: see above.
  }
}

/** Pushes the final acks out before callers close the connection. */
export async function flushAcks(connection: MessagingConnection): Promise<void> {
  const { nats } = natsClients(connection);
  if (!nats.isClosed()) await nats.flush().catch(() => undefined);
}
