import type { MessagingConnection } from '../connection/messaging.connection';
import { natsClients } from '../connection/nats-clients';
import type { Notice } from '../core-notices/core-notices';

export interface CollectedNotices {
  /** Every notice received so far, in arrival order. */
  readonly received: readonly Notice[];
  /** Resolves with the notices once at least `count` have arrived; rejects after `timeoutMs` (default 15 s). */
  waitFor(count: number, options?: { readonly timeoutMs?: number }): Promise<readonly Notice[]>;
  /** Stops listening; what arrived stays in `received`. */
  close(): void;
}

/**
 * Listens on core NATS `subject` (wildcards allowed) and keeps what arrives, answering nothing (in
 * `queueGroup`, it stands in for a responder that never replies). Resolves once the server has
 * the subscription, so a message published after this call is never missed.
 */
export async function collectNotices(
  connection: MessagingConnection,
  subject: string,
  options: { readonly max?: number; readonly queueGroup?: string; readonly onNotice?: (notice: Notice) => void } = {},
): Promise<CollectedNotices> {
  const { nats } = natsClients(connection);
  const received: Notice[] = [];
  const waiters = new Set<() => void>();
  const subscription = nats.subscribe(connection.namespace.subject(subject), {
    ...(options.max === undefined ? {} : { max: options.max }),
    ...(options.queueGroup === undefined ? {} : { queue: options.queueGroup }),
    callback: (error, message) => {
      if (error) return;
      const notice = { subject: connection.namespace.logicalSubject(message.subject), text: message.string() };
      received.push(notice);
      options.onNotice?.(notice);
      for (const wake of waiters) wake();
    },
  });
  await nats.flush();
  return {
    received,
    close: () => subscription.unsubscribe(),
    waitFor: (count, waitOptions = {}) =>
      new Promise((resolve, reject) => {
        const timeoutMs = waitOptions.timeoutMs ?? 15_000;
        const check = (): void => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve([...received]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${received.length} of ${count} messages on ${subject} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
  };
}

/** Publishes `text` as it is (no JSON encoding) on core NATS, e.g. a malformed notice. */
export function publishRawNotice(connection: MessagingConnection, subject: string, text: string): void {
  natsClients(connection).nats.publish(connection.namespace.subject(subject), text);
}

/** Resolves once the server has processed everything this connection sent so far. */
export async function flushConnection(connection: MessagingConnection): Promise<void> {
  await natsClients(connection).nats.flush();
}
