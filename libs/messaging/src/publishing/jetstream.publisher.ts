import {
  ClosedConnectionError,
  ConnectionError,
  DrainingConnectionError,
  RequestError,
  TimeoutError,
} from '../nats-core/nats-core.bridge';
import { JetStreamApiCodes, JetStreamApiError, type JetStreamPublishOptions } from '@nats-io/jetstream';
import { context as otelContext, SpanKind, trace, type Context } from '@opentelemetry/api';
import { exponentialBackoffDelay, sleep, type ExponentialBackoffOptions } from '../backoff/retry-backoff';
import type { MessageCodec } from '../codec/message.codec';
import type { MessagingConnection } from '../connection/messaging.connection';
import { MESSAGING_ERROR_CODES, PublishError, type MessagingErrorCode } from '../errors/messaging.errors';
import { headersFromRecord, injectTraceContext } from '../headers/trace-context.propagation';
import { natsClients } from '../connection/nats-clients';
import { inOutgoingSpan, messagingAttributes, subjectTemplateOf } from '../tracing/messaging.spans';

export interface PublishRetryOptions extends ExponentialBackoffOptions {
  /** Attempts before giving up (`Infinity` retries until acknowledged or aborted). */
  readonly maxAttempts: number;
}

export const DEFAULT_PUBLISH_RETRY: PublishRetryOptions = {
  maxAttempts: 10,
  initialDelayMs: 100,
  maximumDelayMs: 5_000,
  multiplier: 2,
  jitter: 0.3,
};

export interface PublishExpectations {
  /** Logical stream the subject must land in. */
  readonly stream?: string;
  readonly lastSequence?: number;
  readonly lastSubjectSequence?: number;
  readonly lastMessageId?: string;
}

export interface PublishOptions<T> {
  /** Logical subject (the namespace is applied here). */
  readonly subject: string;
  readonly data: T;
  /** Deterministic de-duplication id (`Nats-Msg-Id`), e.g. `<taskId>:<seq>`. */
  readonly messageId: string;
  /** Extra headers (event type, correlation id, ...). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The trace this publish belongs to; defaults to the active OpenTelemetry context. Inside a trace
   * the publish is a PRODUCER span of it, and the message carries that span's context.
   */
  readonly traceContext?: Context;
  /** Defaults to JSON (a `Uint8Array` is sent as it is). */
  readonly codec?: MessageCodec<T>;
  readonly expect?: PublishExpectations;
  /** Wait for each JetStream ack. */
  readonly timeoutMs?: number;
  readonly retry?: Partial<PublishRetryOptions>;
  readonly signal?: AbortSignal;
}

export interface PublishResult {
  /** Logical stream name. */
  readonly stream: string;
  readonly seq: number;
  /** True when the stream already held this message id (still a success). */
  readonly duplicate: boolean;
}

const textEncoder = new TextEncoder();

/**
 * Publishes to JetStream and retries with bounded exponential backoff until the stream acks.
 * Retrying is safe because the message id makes the server drop repeats.
 */
export async function publish<T>(connection: MessagingConnection, options: PublishOptions<T>): Promise<PublishResult> {
  if (options.messageId.trim() === '') {
    throw new PublishError({
      code: MESSAGING_ERROR_CODES.publishRejected,
      subject: options.subject,
      attempts: 0,
      isRetryable: false,
      cause: new Error('messageId is required for de-duplication'),
    });
  }
  return inOutgoingSpan(
    {
      parent: options.traceContext ?? otelContext.active(),
      kind: SpanKind.PRODUCER,
      describe: () => ({ name: `publish ${subjectTemplateOf(options.subject)}`, attributes: messagingAttributes(options.subject, { type: 'send', name: 'publish' }) }),
    },
    (carried) => publishUntilAcknowledged(connection, { ...options, traceContext: carried }),
  );
}

/** `options.traceContext` is what the message carries: the publish span's, or the caller's when none started. */
async function publishUntilAcknowledged<T>(connection: MessagingConnection, options: PublishOptions<T> & { readonly traceContext: Context }): Promise<PublishResult> {
  const retry = { ...DEFAULT_PUBLISH_RETRY, ...options.retry };
  const subject = connection.namespace.subject(options.subject);
  const payload = encodePayload(options.data, options.codec);
  const publishOptions: Partial<JetStreamPublishOptions> = {
    msgID: options.messageId,
    headers: injectTraceContext(headersFromRecord(options.headers), options.traceContext),
    expect: toExpectations(connection, options.expect),
  };
  if (options.timeoutMs !== undefined) publishOptions.timeout = options.timeoutMs;

  for (let attempt = 1; ; attempt += 1) {
    try {
      const acknowledgement = await natsClients(connection).jetstream.publish(subject, payload, publishOptions);
      return {
        stream: connection.namespace.logicalStream(acknowledgement.stream),
        seq: acknowledgement.seq,
        duplicate: acknowledgement.duplicate,
      };
    } catch (error) {
      const failure = classifyPublishError(error);
      const exhausted = attempt >= retry.maxAttempts || options.signal?.aborted === true;
      if (!failure.isRetryable || exhausted) {
        throw new PublishError({ ...failure, subject: options.subject, attempts: attempt, cause: error });
      }
      const delay = exponentialBackoffDelay(attempt, retry);
      trace.getSpan(options.traceContext)?.addEvent('publish retry', { attempt, delay_ms: delay });
      connection.logger.warn(
        { subject: options.subject, messageId: options.messageId, attempt, delay, error: (error as Error).message },
        'publish not acknowledged, retrying',
      );
      await sleep(delay, options.signal);
    }
  }
}

/** Whether a failed publish may succeed on retry, and the code to report when it will not. */
export function classifyPublishError(error: unknown): { code: MessagingErrorCode; isRetryable: boolean } {
  if (error instanceof JetStreamApiError) {
    if (error.code === JetStreamApiCodes.StreamWrongLastSequence || error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown) {
      return { code: MESSAGING_ERROR_CODES.wrongLastSequence, isRetryable: false };
    }
    // 503: JetStream temporarily unavailable (leader election, restart).
    return { code: MESSAGING_ERROR_CODES.publishRejected, isRetryable: error.status === 503 };
  }
  if (error instanceof ClosedConnectionError || error instanceof DrainingConnectionError) {
    return { code: MESSAGING_ERROR_CODES.publishFailed, isRetryable: false };
  }
  if (error instanceof TimeoutError || error instanceof RequestError || error instanceof ConnectionError) {
    return { code: MESSAGING_ERROR_CODES.publishFailed, isRetryable: true };
  }
  // nats.js reports "no responders" on a JetStream subject (no stream yet, server restarting) as
  // JetStreamNotEnabled wrapping the RequestError.
  if (error instanceof Error && error.cause instanceof RequestError) {
    return { code: MESSAGING_ERROR_CODES.publishFailed, isRetryable: true };
  }
  return { code: MESSAGING_ERROR_CODES.publishFailed, isRetryable: false };
}

export function encodePayload<T>(data: T, codec: MessageCodec<T> | undefined): Uint8Array {
  if (codec) return codec.encode(data);
  if (data instanceof Uint8Array) return data;
  return textEncoder.encode(JSON.stringify(data));
}

function toExpectations(
  connection: MessagingConnection,
  expect: PublishExpectations | undefined,
): Partial<JetStreamPublishOptions['expect']> {
  const result: Partial<JetStreamPublishOptions['expect']> = {};
  if (!expect) return result;
  if (expect.stream !== undefined) result.streamName = connection.namespace.stream(expect.stream);
  if (expect.lastSequence !== undefined) result.lastSequence = expect.lastSequence;
  if (expect.lastSubjectSequence !== undefined) result.lastSubjectSequence = expect.lastSubjectSequence;
  if (expect.lastMessageId !== undefined) result.lastMsgID = expect.lastMessageId;
  return result;
}
