import { ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import type { JsMsg } from '@nats-io/jetstream';
import type { MessagingConnection } from '../connection/messaging.connection';
import { extractTraceContext, headersToRecord } from '../headers/trace-context.propagation';
import { messageHeaders } from '../nats-core/nats-core.bridge';
import { describeCause } from '../errors/messaging.errors';
import { settle } from './consume-loop';

/**
 * A message pulled from a durable consumer, for handlers that settle messages themselves (the
 * batch pull). Our own shape, not nats.js's: subjects are logical, headers a plain record, and
 * settling never throws (when the connection is gone the server redelivers, which is the fallback).
 */
export interface PulledMessage {
  /** Logical subject. */
  readonly subject: string;
  readonly data: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
  readonly streamSequence: number;
  /** When the JetStream server stored the message: the server's clock, which no publisher sets. */
  readonly storedAt: Date;
  /** 1 on the first delivery. */
  readonly deliveryCount: number;
  /** The publisher's trace context. */
  readonly traceContext: Context;
  ack(): void;
  /** Hands the message back, redelivered after `delayMs` (at once without). */
  nak(delayMs?: number): void;
  /** Never redelivered: only after a dead-letter copy was stored. */
  term(): void;
  /** Extends the ack deadline. */
  working(): void;
}

export function toPulledMessage(connection: MessagingConnection, message: JsMsg): PulledMessage {
  const subject = connection.namespace.logicalSubject(message.subject);
  const { headers, traceContext } = readHeaders(connection, { message, subject });
  return {
    subject,
    data: message.data,
    headers,
    streamSequence: message.info.streamSequence,
    storedAt: message.time,
    deliveryCount: message.info.deliveryCount,
    traceContext,
    ack: () => settle(() => message.ack()),
    nak: (delayMs) => settle(() => message.nak(delayMs)),
    // No reason argument: servers before 2.10.4 do not recognise `+TERM <reason>` and redeliver the
    // message forever. The reason travels in the dead-letter copy's headers instead.
    term: () => settle(() => message.term()),
    working: () => settle(() => message.working()),
  };
}

/**
 * Headers are the publisher's bytes: ones nats.js cannot parse (a name with a space) are read as
 * none, and logged. Throwing instead would hand the message back forever (and stall a batch).
 */
function readHeaders(connection: MessagingConnection, options: { readonly message: JsMsg; readonly subject: string }): { headers: Record<string, string>; traceContext: Context } {
  try {
    const headers = messageHeaders(options.message);
    return { headers: headersToRecord(headers), traceContext: extractTraceContext(headers, ROOT_CONTEXT) };
  } catch (error) {
    connection.logger.warn({ subject: options.subject, streamSeq: options.message.info.streamSequence, error: describeCause(error) }, 'unreadable message headers ignored');
    return { headers: {}, traceContext: ROOT_CONTEXT };
  }
}
