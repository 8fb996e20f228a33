import { ClosedConnectionError, DrainingConnectionError, RequestError, type Msg } from '../nats-core/nats-core.bridge';
import { ROOT_CONTEXT, SpanKind, context as otelContext, type Attributes, type Context } from '@opentelemetry/api';
import type { z } from 'zod';
import { HEADERS, type CommandError } from '@switchyard/contracts';
import type { MessagingConnection } from '../connection/messaging.connection';
import { DecodeError, RemoteRequestError, RequestFailedError, describeCause } from '../errors/messaging.errors';
import { extractTraceContext, headersFromRecord, headersToRecord, injectTraceContext } from '../headers/trace-context.propagation';
import { REPLY_ERROR_CODES, ReplyError, decodeReply, encodeReply, parseWith, type ReplyEnvelope } from './reply.envelope';
import { natsClients } from '../connection/nats-clients';
import { commandNameOf, inIncomingSpan, inOutgoingSpan, messagingAttributes, subjectTemplateOf } from '../tracing/messaging.spans';

export interface RequestOptions<TRequest, TResponse> {
  /** Logical subject, e.g. `queue.command.claim`. */
  readonly subject: string;
  readonly data: TRequest;
  /** Idempotency key of the command, sent as a header; repeating it must return the first outcome. */
  readonly requestId: string;
  readonly timeoutMs?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The trace this request belongs to; defaults to the active OpenTelemetry context. Inside a trace
   * the request is a CLIENT span of it, and the request carries that span's context.
   */
  readonly traceContext?: Context;
  /** Added to the request's span: ids (the task), never values of the payload. */
  readonly spanAttributes?: Attributes;
  /** Validates the reply's data. */
  readonly responseSchema?: z.ZodType<TResponse>;
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Sends a command over core NATS request/reply and returns the reply's data. Throws
 * `RemoteRequestError` for an error reply and `RequestFailedError` (retryable) for timeouts and
 * missing responders.
 */
export async function request<TRequest, TResponse = unknown>(
  connection: MessagingConnection,
  options: RequestOptions<TRequest, TResponse>,
): Promise<TResponse> {
  const envelope = await sendRequest(connection, options);
  if (!envelope.ok) {
    throw new RemoteRequestError({
      subject: options.subject,
      replyCode: envelope.error.code,
      message: envelope.error.message,
      isRetryable: envelope.error.retryable,
    });
  }
  return parseWith(envelope.result, { schema: options.responseSchema, what: `reply from ${options.subject}` });
}

/**
 * Like `request`, but returns the whole reply: `alreadyApplied` on a repeated request id, or the
 * refusal, instead of throwing it. Transport failures still throw `RequestFailedError`.
 */
export async function requestReply<TRequest, TResponse = unknown>(
  connection: MessagingConnection,
  options: RequestOptions<TRequest, TResponse>,
): Promise<ReplyEnvelope<TResponse>> {
  const envelope = await sendRequest(connection, options);
  if (!envelope.ok) return envelope;
  const result = parseWith(envelope.result, { schema: options.responseSchema, what: `reply from ${options.subject}` });
  return envelope.alreadyApplied ? { ok: true, result, alreadyApplied: true } : { ok: true, result };
}

function sendRequest<TRequest, TResponse>(
  connection: MessagingConnection,
  options: RequestOptions<TRequest, TResponse>,
): Promise<ReplyEnvelope<unknown>> {
  return inOutgoingSpan(
    {
      parent: options.traceContext ?? otelContext.active(),
      kind: SpanKind.CLIENT,
      describe: () => ({
        name: `request ${commandNameOf(options.subject) ?? subjectTemplateOf(options.subject)}`,
        attributes: { ...messagingAttributes(options.subject, { type: 'send', name: 'request' }), ...options.spanAttributes },
      }),
    },
    (carried) => sendRequestOnce(connection, { ...options, traceContext: carried }),
  );
}

/** `options.traceContext` is what the request carries: the request span's, or the caller's when none started. */
async function sendRequestOnce<TRequest, TResponse>(
  connection: MessagingConnection,
  options: RequestOptions<TRequest, TResponse> & { readonly traceContext: Context },
): Promise<ReplyEnvelope<unknown>> {
  const headers = injectTraceContext(headersFromRecord({ ...options.headers, [HEADERS.requestId]: options.requestId }), options.traceContext);
  let reply: Msg;
  try {
    reply = await natsClients(connection).nats.request(connection.namespace.subject(options.subject), textEncoder.encode(JSON.stringify(options.data)), {
      timeout: options.timeoutMs ?? 5_000,
      headers,
    });
  } catch (error) {
    const isRetryable = !(error instanceof ClosedConnectionError || error instanceof DrainingConnectionError);
    const reason = error instanceof RequestError && error.isNoResponders() ? 'no responders' : describeCause(error);
    throw new RequestFailedError(options.subject, reason, { isRetryable, cause: error });
  }
  return decodeReply(reply.data);
}

export interface RequestContext {
  /** Logical subject. */
  readonly subject: string;
  readonly requestId: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** The sender's trace context; while the handler runs, a SERVER span of it is active (when it carries one). */
  readonly traceContext: Context;
}

export interface ServeRequestsOptions<TRequest, TResponse> {
  /** Logical subject (wildcards allowed). */
  readonly subject: string;
  /** Instances sharing a queue group split the requests between them. */
  readonly queueGroup: string;
  /** Validates requests; a mismatch answers `invalid_request` without calling the handler. */
  readonly requestSchema?: z.ZodType<TRequest>;
  readonly handler: (request: TRequest, context: RequestContext) => Promise<TResponse>;
  /**
   * `result` (default): the handler returns the result and throws `ReplyError` to refuse.
   * `reply`: the handler returns the whole `CommandReply` (to say `alreadyApplied`, or refuse
   * without throwing); it is sent as it is.
   */
  readonly handlerReturns?: 'result' | 'reply';
}

export interface RequestServer {
  readonly subject: string;
  /** Stops taking requests and waits for the ones in progress to be answered. */
  stop(): Promise<void>;
}

/** Answers requests on a queue group; handler errors become error replies, never crashes. */
export function serveRequests<TRequest, TResponse>(
  connection: MessagingConnection,
  options: ServeRequestsOptions<TRequest, TResponse>,
): RequestServer {
  const { logger, namespace } = connection;
  const subscription = natsClients(connection).nats.subscribe(namespace.subject(options.subject), { queue: options.queueGroup });
  const inFlight = new Set<Promise<void>>();

  const answer = async (message: Msg): Promise<void> => {
    let requestId: string | undefined;
    let envelope: ReplyEnvelope<TResponse>;
    try {
      const context = requestContextOf(connection, message);
      requestId = context.requestId;
      const payload = parseRequest(message.data);
      const decoded = parseWith(payload, { schema: options.requestSchema, what: 'request' });
      const result = await inIncomingSpan(
        {
          parent: context.traceContext,
          kind: SpanKind.SERVER,
          describe: () => ({
            name: `handle ${commandNameOf(options.subject) ?? subjectTemplateOf(options.subject)}`,
            attributes: messagingAttributes(context.subject, { type: 'process', name: 'handle' }),
          }),
        },
        () => options.handler(decoded, context),
      );
      envelope = options.handlerReturns === 'reply' ? (result as ReplyEnvelope<TResponse>) : { ok: true, result };
    } catch (error) {
      envelope = { ok: false, error: toReplyError(error) };
      const level = envelope.error.code === REPLY_ERROR_CODES.internal ? 'error' : 'warn';
      logger[level]({ subject: options.subject, requestId, error: describeCause(error) }, 'request answered with an error');
    }
    if (!message.reply) {
      logger.warn({ subject: options.subject }, 'message without reply subject ignored');
      return;
    }
    try {
      message.respond(encodeReply(envelope));
    } catch (error) {
      logger.error({ subject: options.subject, error: describeCause(error) }, 'reply could not be sent');
    }
  };

  const loop = async (): Promise<void> => {
    for await (const message of subscription) {
      // `answer` catches what the request can cause; this catch is for our own defects, which
      // must cost one request, never the process (an unhandled rejection would end it).
      const task = answer(message)
        .catch((error: unknown) => logger.error({ subject: options.subject, error: describeCause(error) }, 'request could not be answered'))
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
  };
  const loopDone = loop().catch((error: unknown) =>
    logger.error({ subject: options.subject, error: describeCause(error) }, 'request subscription ended'),
  );
  logger.info({ subject: options.subject, queueGroup: options.queueGroup }, 'serving requests');

  return {
    subject: options.subject,
    stop: async () => {
      if (!subscription.isClosed()) await subscription.drain().catch(() => undefined);
      await loopDone;
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** Headers are the sender's bytes too: ones nats.js cannot parse make the request invalid, not the responder crash. */
function requestContextOf(connection: MessagingConnection, message: Msg): RequestContext {
  let headers: Record<string, string>;
  let traceContext: Context;
  try {
    headers = headersToRecord(message.headers);
    traceContext = extractTraceContext(message.headers, ROOT_CONTEXT);
  } catch (error) {
    throw new DecodeError(`request headers are unreadable: ${describeCause(error)}`, error);
  }
  return { subject: connection.namespace.logicalSubject(message.subject), requestId: headers[HEADERS.requestId], headers, traceContext };
}

function parseRequest(data: Uint8Array): unknown {
  try {
    return JSON.parse(textDecoder.decode(data)) as unknown;
  } catch (error) {
    throw new DecodeError('request is not valid JSON', error);
  }
}

export function toReplyError(error: unknown): CommandError {
  if (error instanceof ReplyError) return { code: error.code, message: error.message, retryable: error.retryable };
  if (error instanceof DecodeError) return { code: REPLY_ERROR_CODES.invalidRequest, message: error.message, retryable: false };
  // Internal details stay in the responder's log; the request id makes a retry safe.
  return { code: REPLY_ERROR_CODES.internal, message: 'internal error', retryable: true };
}
