import type { MessagingConnection } from '../connection/messaging.connection';
import { natsClients } from '../connection/nats-clients';
import { describeCause } from '../errors/messaging.errors';

export interface PermissionViolations {
  /** The server's refusals seen so far, e.g. `Permissions Violation for Publish to "x"`. */
  readonly seen: readonly string[];
  /** Resolves with the first refusal that matches, once it arrives. */
  next(pattern?: RegExp): Promise<string>;
}

/** Watches a connection for the server's permission refusals (they arrive as async errors). */
export function watchPermissionViolations(connection: MessagingConnection): PermissionViolations {
  const seen: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (text: string) => void }> = [];
  void (async () => {
    for await (const status of natsClients(connection).nats.status()) {
      if (status.type !== 'error') continue;
      const text = describeCause(status.error);
      if (!/permissions violation/i.test(text)) continue;
      seen.push(text);
      for (const waiter of [...waiters]) {
        if (!waiter.pattern.test(text)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(text);
      }
    }
  })();
  return {
    seen,
    next: (pattern = /./) => {
      const already = seen.find((text) => pattern.test(text));
      return already !== undefined ? Promise.resolve(already) : new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
  };
}
