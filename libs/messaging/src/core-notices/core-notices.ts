import type { z } from 'zod';
import type { MessagingConnection } from '../connection/messaging.connection';
import { decodeJsonText } from '../codec/message.codec';
import { DecodeError, describeCause } from '../errors/messaging.errors';
import { natsClients } from '../connection/nats-clients';

/** One core NATS message, with the subject as the application names it (namespace removed). */
export interface Notice {
  readonly subject: string;
  /** The payload as text (empty for a bare nudge). */
  readonly text: string;
}

export interface NoticeSubscription {
  unsubscribe(): void;
  /**
   * Resolves when the subscription ends: unsubscribed, `max` reached, the connection closed, or
   * the server ended it (e.g. a permissions violation, logged). Never rejects.
   */
  readonly closed: Promise<void>;
}

/**
 * Publishes on core NATS, at most once and unstored: nudges and notices whose loss a poll or a
 * reload repairs. `data` is sent as JSON; no data sends an empty message.
 */
export function publishNotice(connection: MessagingConnection, subject: string, data?: unknown): void {
  natsClients(connection).nats.publish(connection.namespace.subject(subject), data === undefined ? undefined : JSON.stringify(data));
}

/**
 * The JSON payload of `notice` as `schema` parses it. Throws `DecodeError` for a payload that is
 * not JSON or that the schema refuses; thrown inside `onNotice`, that is logged and the notice skipped.
 */
export function decodeNotice<Schema extends z.ZodType>(notice: Notice, schema: Schema): z.output<Schema> {
  return decodeJsonText(notice.text, schema);
}

/**
 * Subscribes on core NATS to `subject` (wildcards allowed) and hands each message to `onNotice`,
 * in arrival order, one at a time. Whatever `onNotice` throws or rejects with is logged with the
 * subject and the next message goes on: a poison message never ends the subscription or the
 * process. Anyone may publish on core NATS, so a `DecodeError` (see `decodeNotice`) is a warning;
 * any other error is a handler's defect.
 */
export function subscribeNotices(
  connection: MessagingConnection,
  options: { readonly subject: string; readonly max?: number; readonly onNotice: (notice: Notice) => void | Promise<void> },
): NoticeSubscription {
  const subscription = natsClients(connection).nats.subscribe(connection.namespace.subject(options.subject), options.max === undefined ? {} : { max: options.max });
  const closed = (async () => {
    for await (const message of subscription) {
      const subject = connection.namespace.logicalSubject(message.subject);
      try {
        await options.onNotice({ subject, text: message.string() });
      } catch (error) {
        if (error instanceof DecodeError) connection.logger.warn({ subject, error: describeCause(error) }, 'malformed notice ignored');
        else connection.logger.error({ subject, error: describeCause(error) }, 'notice handler failed; notice dropped');
      }
    }
  })().catch((error: unknown) => {
    // The iterator throws when the server ends the subscription (e.g. a permissions violation):
    // nobody may be awaiting `closed`, and an unhandled rejection would end the process.
    connection.logger.error({ subject: options.subject, error: describeCause(error) }, 'notice subscription ended by an error');
  });
  return { unsubscribe: () => subscription.unsubscribe(), closed };
}

/** Connection status changes (`disconnect`, `reconnect`, ...) until the connection closes. */
export async function* connectionStatus(connection: MessagingConnection): AsyncGenerator<{ readonly type: string }> {
  for await (const status of natsClients(connection).nats.status()) yield { type: status.type };
}
