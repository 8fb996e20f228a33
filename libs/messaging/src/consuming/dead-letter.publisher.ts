import type { Context } from '@opentelemetry/api';
import { HEADERS } from '@switchyard/contracts';
import type { MessagingConnection } from '../connection/messaging.connection';
import { describeCause } from '../errors/messaging.errors';
import { sanitizeHeaderValue } from '../headers/trace-context.propagation';
import { deadLetterSubject } from '../provisioning/stream.definitions';
import { publish, type PublishResult } from '../publishing/jetstream.publisher';

export const DEAD_LETTER_REASONS = {
  /** The handler threw a non-retryable error (`PermanentError` or `isRetryable: false`). */
  permanentError: 'permanent_error',
  /** The last allowed delivery failed too. */
  maxDeliverExceeded: 'max_deliver_exceeded',
  /** The payload could not be decoded. */
  decodeFailed: 'decode_failed',
} as const;

export type DeadLetterReason = (typeof DEAD_LETTER_REASONS)[keyof typeof DEAD_LETTER_REASONS];

export interface DeadLetterEvent {
  readonly reason: DeadLetterReason;
  readonly detail: string;
  /** Logical names. */
  readonly stream: string;
  readonly consumer: string;
  readonly subject: string;
  readonly streamSeq: number;
  readonly deliveries: number;
  readonly deadLetterSeq: number;
}

/** What a dead-letter copy is made of: a delivered message (`PulledMessage` is one). */
export interface DeadLetterSource {
  /** Logical subject. */
  readonly subject: string;
  readonly data: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
  readonly streamSequence: number;
  readonly deliveryCount: number;
}

export interface DeadLetterOptions {
  readonly connection: MessagingConnection;
  readonly message: DeadLetterSource;
  /** Logical stream and consumer names. */
  readonly stream: string;
  readonly consumer: string;
  readonly reason: DeadLetterReason;
  readonly error: unknown;
  readonly traceContext: Context;
}

/**
 * Publishes a copy of `message` to `dlq.<stream>.<consumer>` with the reason and origin in headers.
 * The copy's id is derived from the stream sequence, so a retried dead-lettering is stored once.
 */
export async function publishDeadLetter(options: DeadLetterOptions): Promise<{ event: DeadLetterEvent; result: PublishResult }> {
  const { connection, message, stream, consumer, reason } = options;
  const subject = message.subject;
  const detail = sanitizeHeaderValue(`${reason}: ${describeCause(options.error)}`, 512);
  // JetStream's own headers (msg id, expectations) belong to the original publish, not the copy.
  const carried = Object.fromEntries(
    Object.entries(message.headers).filter(([name]) => !name.toLowerCase().startsWith('nats-')),
  );
  const result = await publish(connection, {
    subject: deadLetterSubject(stream, consumer),
    data: message.data,
    messageId: `${stream}:${consumer}:${message.streamSequence}`,
    traceContext: options.traceContext,
    retry: { maxAttempts: 5 },
    headers: {
      ...carried,
      [HEADERS.deadLetterReason]: detail,
      [HEADERS.deadLetterStream]: stream,
      [HEADERS.deadLetterConsumer]: consumer,
      [HEADERS.deadLetterSubject]: subject,
      [HEADERS.deadLetterDeliveries]: String(message.deliveryCount),
    },
  });
  return {
    result,
    event: {
      reason,
      detail,
      stream,
      consumer,
      subject,
      streamSeq: message.streamSequence,
      deliveries: message.deliveryCount,
      deadLetterSeq: result.seq,
    },
  };
}
