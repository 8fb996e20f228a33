import type { MessagingConnection } from '../connection/messaging.connection';
import { natsClients } from '../connection/nats-clients';
import { headers } from '../nats-core/nats-core.bridge';

/**
 * Publishes `text` on core NATS as it is (no JSON encoding), as any client on the bus may: a body
 * that is not JSON, an empty one, and, with `unreadableHeader`, a header whose name nats.js
 * refuses to parse (the server passes it on untouched). Subjects are logical, `replyTo` included.
 */
export function publishRawMessage(
  connection: MessagingConnection,
  options: { readonly subject: string; readonly text: string; readonly replyTo?: string; readonly unreadableHeader?: boolean },
): void {
  const { namespace } = connection;
  natsClients(connection).nats.publish(namespace.subject(options.subject), options.text, {
    ...(options.replyTo === undefined ? {} : { reply: namespace.subject(options.replyTo) }),
    ...(options.unreadableHeader ? { headers: headersWithUnreadableName() } : {}),
  });
}

function headersWithUnreadableName(): ReturnType<typeof headers> {
  const malformed = headers();
  // nats.js checks a name when it is set, not when it encodes one already there.
  (malformed as unknown as { headers: Map<string, string[]> }).headers.set('bad name', ['x']);
  return malformed;
}
