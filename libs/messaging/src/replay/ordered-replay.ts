import { DeliverPolicy, type ConsumerMessages, type JetStreamManager } from '@nats-io/jetstream';
import type { MessagingConnection } from '../connection/messaging.connection';
import { natsClients } from '../connection/nats-clients';

/** A message read back from a stream: its stream sequence, logical subject and payload. */
export interface StoredMessage {
  readonly seq: number;
  /** Logical subject: its last token names the publisher of an event. */
  readonly subject: string;
  json(): unknown;
}

export interface OrderedReplay {
  /** Every stored message on the subject from the start of the stream, then new ones as they come. */
  readonly messages: AsyncIterable<StoredMessage>;
  close(): Promise<void>;
}

/**
 * An ordered, ephemeral consumer over one subject (wildcards allowed) of a stream: nothing to
 * clean up on the server when the reader dies. One subject as a string: a list needs nats-server 2.10.
 */
export async function openOrderedReplay(connection: MessagingConnection, options: { readonly stream: string; readonly subject: string }): Promise<OrderedReplay> {
  const consumer = await natsClients(connection).jetstream.consumers.get(connection.namespace.stream(options.stream), {
    filter_subjects: connection.namespace.subject(options.subject),
    deliver_policy: DeliverPolicy.All,
  });
  const consumed: ConsumerMessages = await consumer.consume();
  let read = false;
  return {
    messages: (async function* () {
      read = true;
      for await (const message of consumed) yield { seq: message.seq, subject: connection.namespace.logicalSubject(message.subject), json: () => message.json() };
    })(),
    // nats.js resolves a close once the messages have been read to their end: a replay nobody
    // read (its reader stopped first) would wait for that forever.
    close: async () => {
      const closed = consumed.close();
      if (read) await closed;
    },
  };
}

type StreamMessageQuery = Parameters<JetStreamManager['streams']['getMessage']>[1];

/**
 * Every message stored on `subject` (wildcards allowed) of a stream when the read began, in
 * stream order, then the end: an ordered ephemeral consumer fetched in pages until nothing is
 * pending (audits and tools; nothing to clean up on the server).
 */
export async function* readStoredMessages(
  connection: MessagingConnection,
  options: { readonly stream: string; readonly subject: string; readonly pageSize?: number },
): AsyncGenerator<StoredMessage> {
  const consumer = await natsClients(connection).jetstream.consumers.get(connection.namespace.stream(options.stream), {
    filter_subjects: connection.namespace.subject(options.subject),
    deliver_policy: DeliverPolicy.All,
  });
  try {
    for (;;) {
      const page = await consumer.fetch({ max_messages: options.pageSize ?? 1_000, expires: 2_000 });
      let received = 0;
      let pending = 0;
      for await (const message of page) {
        received += 1;
        pending = message.info.pending;
        yield { seq: message.seq, subject: connection.namespace.logicalSubject(message.subject), json: () => message.json() };
      }
      if (received === 0 || pending === 0) return;
    }
  } finally {
    await consumer.delete().catch(() => undefined);
  }
}

/**
 * The first message on `subject` stored at or after stream sequence `fromSequence`, or undefined
 * when there is none. One direct read (STREAM.MSG.GET `next_by_subj`, nats-server 2.9+): nothing
 * is consumed.
 */
export async function firstStoredMessage(connection: MessagingConnection, options: { readonly stream: string; readonly subject: string; readonly fromSequence: number }): Promise<StoredMessage | undefined> {
  // nats.js types `next_by_subj` for direct gets only; the server takes it on STREAM.MSG.GET too.
  const query = { seq: options.fromSequence, next_by_subj: connection.namespace.subject(options.subject) } as unknown as StreamMessageQuery;
  const stored = await natsClients(connection).manager.streams.getMessage(connection.namespace.stream(options.stream), query);
  if (!stored) return undefined;
  return { seq: stored.seq, subject: connection.namespace.logicalSubject(stored.subject), json: () => stored.json() };
}
