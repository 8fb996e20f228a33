import type { MessagingConnection } from '../connection/messaging.connection';
import { headersToRecord } from '../headers/trace-context.propagation';
import { messageHeaders } from '../nats-core/nats-core.bridge';
import { natsClients } from '../connection/nats-clients';

export interface StoredMessageView {
  /** Logical subject. */
  readonly subject: string;
  readonly seq: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

/** Every message currently held by a (logical) stream, for assertions in tests and tooling. */
export async function readStream(connection: MessagingConnection, logicalStream: string): Promise<StoredMessageView[]> {
  const name = connection.namespace.stream(logicalStream);
  const { state } = await natsClients(connection).manager.streams.info(name);
  const messages: StoredMessageView[] = [];
  if (state.messages === 0) return messages;
  for (let seq = state.first_seq; seq <= state.last_seq; seq += 1) {
    const stored = await natsClients(connection).manager.streams.getMessage(name, { seq }).catch(() => null);
    if (!stored) continue;
    messages.push({
      subject: connection.namespace.logicalSubject(stored.subject),
      seq: stored.seq,
      headers: headersToRecord(messageHeaders({ headers: stored.header })),
      text: new TextDecoder().decode(stored.data),
    });
  }
  return messages;
}
