import { SpanKind, type Context } from '@opentelemetry/api';
import { SPAN_ATTRIBUTES } from '@switchyard/telemetry';
import { millis } from '../nats-core/nats-core.bridge';
import type { Consumer, ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import { HEADERS } from '@switchyard/contracts';
import { redeliveryDelay } from '../backoff/retry-backoff';
import { jsonCodec, type MessageCodec } from '../codec/message.codec';
import type { MessagingConnection } from '../connection/messaging.connection';
import type { MessagingLogger } from '../connection/messaging.logger';
import { describeCause, isRetryableError } from '../errors/messaging.errors';
import type { ConsumerDefinition } from '../provisioning/stream.definitions';
import { provisionConsumers } from '../provisioning/stream.provisioner';
import { DEAD_LETTER_REASONS, publishDeadLetter, type DeadLetterEvent, type DeadLetterReason } from './dead-letter.publisher';
import { flushAcks, runConsumeLoop, settle } from './consume-loop';
import { toPulledMessage, type PulledMessage } from './pulled-message';
import { KeyedConcurrencyLimiter } from './keyed-concurrency.limiter';
import { natsClients } from '../connection/nats-clients';
import { inIncomingSpan, messagingAttributes, subjectTemplateOf } from '../tracing/messaging.spans';

/** What a handler knows about the delivery it is processing. */
export interface DeliveryContext {
  /** Logical subject, stream and consumer. */
  readonly subject: string;
  readonly stream: string;
  readonly consumer: string;
  readonly streamSeq: number;
  /** When the JetStream server stored the message (its clock, not the publisher's). */
  readonly storedAt: Date;
  /** 1 on the first delivery. */
  readonly deliveryCount: number;
  readonly maxDeliver: number;
  readonly messageId: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** The publisher's trace context; while the handler runs, a CONSUMER span of it is active (when it carries one). */
  readonly traceContext: Context;
  /** Extends the ack deadline; call it periodically during long work. */
  working(): void;
}

/** Resolve to ack; throw to retry (or a non-retryable error to dead-letter at once). */
export type MessageHandler<T> = (message: T, delivery: DeliveryContext) => Promise<void>;

export interface StartConsumerOptions<T> {
  readonly consumer: ConsumerDefinition;
  readonly handler: MessageHandler<T>;
  /** Decodes payloads; defaults to JSON. A decode failure dead-letters the message. */
  readonly codec?: MessageCodec<T>;
  /** Handlers running at once; messages on the same subject never overlap. Default 1. */
  readonly concurrency?: number;
  /** Create or update the consumer before consuming and whenever it disappears. Default true. */
  readonly provision?: boolean;
  /** Redelivery delay after a handler error when the consumer has no backoff list. */
  readonly retryDelayMs?: number;
  readonly onDeadLetter?: (event: DeadLetterEvent) => void;
}

export interface RunningConsumer {
  /** Logical stream and consumer names. */
  readonly stream: string;
  readonly consumer: string;
  /** Stops pulling, waits for handlers in flight, and hands unstarted messages back. */
  stop(): Promise<void>;
}

/** One running consumer: what it was started with, and what it learned from the server since. */
interface ConsumerRun<T> {
  readonly connection: MessagingConnection;
  readonly logger: MessagingLogger;
  readonly options: StartConsumerOptions<T>;
  readonly definition: ConsumerDefinition;
  readonly labels: { readonly stream: string; readonly consumer: string };
  readonly streamName: string;
  readonly consumerName: string;
  readonly codec: MessageCodec<T>;
  readonly limiter: KeyedConcurrencyLimiter;
  /** The definition's backoff, else the server's once read. */
  readonly backoffMs: number[];
  readonly fallbackDelayMs: number;
  readonly stopController: AbortController;
  current: ConsumerMessages | undefined;
  maxDeliver: number;
}

/** Runs a durable pull consumer: ack after the handler resolves, nak with backoff, dead-letter poison. */
export async function startConsumer<T>(connection: MessagingConnection, options: StartConsumerOptions<T>): Promise<RunningConsumer> {
  const definition = options.consumer;
  const { logger, namespace } = connection;
  const run: ConsumerRun<T> = {
    connection,
    logger,
    options,
    definition,
    labels: { stream: definition.stream, consumer: definition.name },
    streamName: namespace.stream(definition.stream),
    consumerName: namespace.consumer(definition.name),
    codec: options.codec ?? jsonCodec<T>(),
    limiter: new KeyedConcurrencyLimiter(options.concurrency ?? 1),
    backoffMs: [...(definition.backoffMs ?? [])],
    fallbackDelayMs: options.retryDelayMs ?? 1_000,
    stopController: new AbortController(),
    current: undefined,
    maxDeliver: definition.maxDeliver,
  };
  const ensureConsumer = (): Promise<void> => ensureConsumerOf(run);
  await ensureConsumer();

  const { labels } = run;
  const loopDone = runConsumeLoop({
    connection,
    signal: run.stopController.signal,
    labels,
    failureMessage: 'consume loop failed; restarting',
    consumeOnce: () => consumeOnce(run),
    recover: ensureConsumer,
  });
  logger.info({ ...labels, concurrency: options.concurrency ?? 1 }, 'consumer started');

  return { ...labels, stop: () => stopConsumer(run, loopDone) };
}

async function ensureConsumerOf<T>(run: ConsumerRun<T>): Promise<void> {
  if (run.options.provision ?? true) await provisionConsumers(run.connection, [run.definition]);
}

async function stopConsumer<T>(run: ConsumerRun<T>, loopDone: Promise<void>): Promise<void> {
  run.stopController.abort();
  await run.current?.close();
  await loopDone;
  await run.limiter.idle();
  await flushAcks(run.connection);
  run.logger.info(run.labels, 'consumer stopped');
}

/** One pull: read the server's settings, then hand each message to the limiter until the pull ends. */
async function consumeOnce<T>(run: ConsumerRun<T>): Promise<void> {
  const { logger, labels, limiter, stopController } = run;
  const consumer = await natsClients(run.connection).jetstream.consumers.get(run.streamName, run.consumerName);
  await adoptServerSettings(run, consumer);
  const messages = await consumer.consume({ max_messages: run.options.concurrency ?? 1 });
  run.current = messages;
  // stop() may have run while this pull was being set up. Not awaited: `close` resolves only once
  // the loop below has drained the pull, so awaiting it here would wait forever.
  if (stopController.signal.aborted) void messages.close();
  watchStatus(run, messages).catch((error: unknown) => logger.error({ ...labels, error: describeCause(error) }, 'status watch failed'));
  for await (const message of messages) {
    await limiter.acquire();
    if (stopController.signal.aborted) {
      // Fetched but never started: give it back so another instance takes it now.
      settle(() => message.nak());
      limiter.release();
      continue;
    }
    limiter.run(message.subject, () => handleMessage(run, message));
  }
}

/** The server's max_deliver wins; its backoff is used when the definition names none. */
async function adoptServerSettings<T>(run: ConsumerRun<T>, consumer: Consumer): Promise<void> {
  const info = await consumer.info(true);
  run.maxDeliver = info.config.max_deliver && info.config.max_deliver > 0 ? info.config.max_deliver : run.definition.maxDeliver;
  const serverBackoff = (info.config.backoff ?? []).map((delay) => millis(delay));
  if (serverBackoff.length > 0 && run.backoffMs.length === 0) run.backoffMs.push(...serverBackoff);
}

// A deleted consumer stalls the pull until heartbeats are missed; recreating it and restarting
// the pull recovers at once.
async function watchStatus<T>(run: ConsumerRun<T>, messages: ConsumerMessages): Promise<void> {
  const { logger, labels } = run;
  for await (const status of messages.status()) {
    switch (status.type) {
      case 'heartbeats_missed':
        logger.warn({ ...labels, count: status.count }, 'consumer heartbeats missed');
        break;
      case 'consumer_deleted':
      case 'consumer_not_found':
        logger.warn({ ...labels, status: status.type }, 'consumer disappeared; recreating');
        await ensureConsumerOf(run).catch((error: unknown) =>
          logger.error({ ...labels, error: describeCause(error) }, 'recreating consumer failed'),
        );
        await messages.close();
        return;
      case 'stream_not_found':
        logger.error({ ...labels }, 'stream not found; waiting for it to be provisioned');
        break;
      default:
        break;
    }
  }
}

async function handleMessage<T>(run: ConsumerRun<T>, raw: JsMsg): Promise<void> {
  const message = toPulledMessage(run.connection, raw);
  let decoded: T;
  try {
    decoded = run.codec.decode(message.data);
  } catch (error) {
    await deadLetter(run, message, { reason: DEAD_LETTER_REASONS.decodeFailed, error });
    return;
  }
  const delivery = deliveryContextOf(run, message);
  try {
    await inIncomingSpan(
      {
        parent: message.traceContext,
        kind: SpanKind.CONSUMER,
        describe: () => ({
          name: `process ${subjectTemplateOf(message.subject)}`,
          attributes: { ...messagingAttributes(message.subject, { type: 'process', name: 'process' }), [SPAN_ATTRIBUTES.consumerGroup]: run.labels.consumer },
        }),
      },
      () => run.options.handler(decoded, delivery),
    );
  } catch (error) {
    await onHandlerFailure(run, message, error);
    return;
  }
  message.ack();
}

function deliveryContextOf<T>(run: ConsumerRun<T>, message: PulledMessage): DeliveryContext {
  return {
    subject: message.subject,
    ...run.labels,
    streamSeq: message.streamSequence,
    storedAt: message.storedAt,
    deliveryCount: message.deliveryCount,
    maxDeliver: run.maxDeliver,
    messageId: message.headers[HEADERS.messageId],
    headers: message.headers,
    traceContext: message.traceContext,
    working: () => message.working(),
  };
}

/** A permanent error or the last delivery dead-letters; anything else is retried after the backoff. */
async function onHandlerFailure<T>(run: ConsumerRun<T>, message: PulledMessage, error: unknown): Promise<void> {
  const { deliveryCount } = message;
  if (!isRetryableError(error)) {
    await deadLetter(run, message, { reason: DEAD_LETTER_REASONS.permanentError, error });
  } else if (deliveryCount >= run.maxDeliver) {
    await deadLetter(run, message, { reason: DEAD_LETTER_REASONS.maxDeliverExceeded, error });
  } else {
    const delay = redeliveryDelay({ deliveryCount, backoffMs: run.backoffMs, fallbackMs: run.fallbackDelayMs });
    run.logger.warn({ ...run.labels, streamSeq: message.streamSequence, deliveryCount, delay, error: describeCause(error) }, 'handler failed; will retry');
    message.nak(delay);
  }
}

async function deadLetter<T>(run: ConsumerRun<T>, message: PulledMessage, { reason, error }: { reason: DeadLetterReason; error: unknown }): Promise<void> {
  const { logger, labels } = run;
  try {
    message.working();
    const { event } = await publishDeadLetter({ connection: run.connection, message, ...labels, reason, error, traceContext: message.traceContext });
    message.term();
    logger.warn({ ...labels, reason, streamSeq: event.streamSeq, error: event.detail }, 'message dead-lettered');
    run.options.onDeadLetter?.(event);
  } catch (publishError) {
    // Without a dead-letter copy the message must stay in the stream; hand it back for later.
    logger.error({ ...labels, reason, error: describeCause(publishError) }, 'dead-lettering failed; message handed back');
    message.nak(redeliveryDelay({ deliveryCount: message.deliveryCount, backoffMs: run.backoffMs, fallbackMs: run.fallbackDelayMs }));
  }
}
