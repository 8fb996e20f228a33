import { context as otelContext, type Context } from '@opentelemetry/api';
import { millis } from '../nats-core/nats-core.bridge';
import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import { HEADERS } from '@switchyard/contracts';
import { redeliveryDelay } from '../backoff/retry-backoff';
import { jsonCodec, type MessageCodec } from '../codec/message.codec';
import type { MessagingConnection } from '../connection/messaging.connection';
import { describeCause, isRetryableError } from '../errors/messaging.errors';
import type { ConsumerDefinition } from '../provisioning/stream.definitions';
import { provisionConsumers } from '../provisioning/stream.provisioner';
import { DEAD_LETTER_REASONS, publishDeadLetter, type DeadLetterEvent, type DeadLetterReason } from './dead-letter.publisher';
import { flushAcks, runConsumeLoop, settle } from './consume-loop';
import { toPulledMessage, type PulledMessage } from './pulled-message';
import { KeyedConcurrencyLimiter } from './keyed-concurrency.limiter';
import { natsClients } from '../connection/nats-clients';

/** What a handler knows about the delivery it is processing. */
export interface DeliveryContext {
  /** Logical subject, stream and consumer. */
  readonly subject: string;
  readonly stream: string;
  readonly consumer: string;
  readonly streamSeq: number;
  /** 1 on the first delivery. */
  readonly deliveryCount: number;
  readonly maxDeliver: number;
  readonly messageId: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** The publisher's trace context (also the active context while the handler runs). */
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

/** Runs a durable pull consumer: ack after the handler resolves, nak with backoff, dead-letter poison. */
export async function startConsumer<T>(connection: MessagingConnection, options: StartConsumerOptions<T>): Promise<RunningConsumer> {
  const definition = options.consumer;
  const { logger, namespace } = connection;
  const streamName = namespace.stream(definition.stream);
  const consumerName = namespace.consumer(definition.name);
  const codec = options.codec ?? jsonCodec<T>();
  const shouldProvision = options.provision ?? true;
  const limiter = new KeyedConcurrencyLimiter(options.concurrency ?? 1);
  const backoffMs: number[] = [...(definition.backoffMs ?? [])];
  const fallbackDelayMs = options.retryDelayMs ?? 1_000;
  const stopController = new AbortController();
  const labels = { stream: definition.stream, consumer: definition.name };
  let current: ConsumerMessages | undefined;
  let maxDeliver = definition.maxDeliver;

  const ensureConsumer = async (): Promise<void> => {
    if (shouldProvision) await provisionConsumers(connection, [definition]);
  };
  await ensureConsumer();

  const deadLetter = async (
    message: PulledMessage,
    { reason, error }: { reason: DeadLetterReason; error: unknown },
  ): Promise<void> => {
    try {
      message.working();
      const { event } = await publishDeadLetter({ connection, message, ...labels, reason, error, traceContext: message.traceContext });
      message.term();
      logger.warn({ ...labels, reason, streamSeq: event.streamSeq, error: event.detail }, 'message dead-lettered');
      options.onDeadLetter?.(event);
    } catch (publishError) {
      // Without a dead-letter copy the message must stay in the stream; hand it back for later.
      logger.error({ ...labels, reason, error: describeCause(publishError) }, 'dead-lettering failed; message handed back');
      message.nak(redeliveryDelay({ deliveryCount: message.deliveryCount, backoffMs, fallbackMs: fallbackDelayMs }));
    }
  };

  const handleMessage = async (raw: JsMsg): Promise<void> => {
    const message = toPulledMessage(connection, raw);
    const { deliveryCount, traceContext } = message;
    let decoded: T;
    try {
      decoded = codec.decode(message.data);
    } catch (error) {
      await deadLetter(message, { reason: DEAD_LETTER_REASONS.decodeFailed, error });
      return;
    }
    const delivery: DeliveryContext = {
      subject: message.subject,
      ...labels,
      streamSeq: message.streamSequence,
      deliveryCount,
      maxDeliver,
      messageId: message.headers[HEADERS.messageId],
      headers: message.headers,
      traceContext,
      working: () => message.working(),
    };
    try {
      await otelContext.with(traceContext, () => options.handler(decoded, delivery));
    } catch (error) {
      if (!isRetryableError(error)) {
        await deadLetter(message, { reason: DEAD_LETTER_REASONS.permanentError, error });
      } else if (deliveryCount >= maxDeliver) {
        await deadLetter(message, { reason: DEAD_LETTER_REASONS.maxDeliverExceeded, error });
      } else {
        const delay = redeliveryDelay({ deliveryCount, backoffMs, fallbackMs: fallbackDelayMs });
        logger.warn({ ...labels, streamSeq: delivery.streamSeq, deliveryCount, delay, error: describeCause(error) }, 'handler failed; will retry');
        message.nak(delay);
      }
      return;
    }
    message.ack();
  };

  // A deleted consumer stalls the pull until heartbeats are missed; recreating it and restarting
  // the pull recovers at once.
  const watchStatus = async (messages: ConsumerMessages): Promise<void> => {
    for await (const status of messages.status()) {
      switch (status.type) {
        case 'heartbeats_missed':
          logger.warn({ ...labels, count: status.count }, 'consumer heartbeats missed');
          break;
        case 'consumer_deleted':
        case 'consumer_not_found':
          logger.warn({ ...labels, status: status.type }, 'consumer disappeared; recreating');
          await ensureConsumer().catch((error: unknown) =>
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
  };

  const consumeOnce = async (): Promise<void> => {
    const consumer = await natsClients(connection).jetstream.consumers.get(streamName, consumerName);
    const info = await consumer.info(true);
    maxDeliver = info.config.max_deliver && info.config.max_deliver > 0 ? info.config.max_deliver : definition.maxDeliver;
    const serverBackoff = (info.config.backoff ?? []).map((delay) => millis(delay));
    if (serverBackoff.length > 0 && backoffMs.length === 0) backoffMs.push(...serverBackoff);
    const messages = await consumer.consume({ max_messages: options.concurrency ?? 1 });
    current = messages;
    // stop() may have run while this pull was being set up.
    if (stopController.signal.aborted) await messages.close();
    watchStatus(messages).catch((error: unknown) => logger.error({ ...labels, error: describeCause(error) }, 'status watch failed'));
    for await (const message of messages) {
      await limiter.acquire();
      if (stopController.signal.aborted) {
        // Fetched but never started: give it back so another instance takes it now.
        settle(() => message.nak());
        limiter.release();
        continue;
      }
      limiter.run(message.subject, () => handleMessage(message));
    }
  };

  const loopDone = runConsumeLoop({ connection, signal: stopController.signal, labels, failureMessage: 'consume loop failed; restarting', consumeOnce, recover: ensureConsumer });
  logger.info({ ...labels, concurrency: options.concurrency ?? 1 }, 'consumer started');

  return {
    ...labels,
    stop: async () => {
      stopController.abort();
      await current?.close();
      await loopDone;
      await limiter.idle();
      await flushAcks(connection);
      logger.info(labels, 'consumer stopped');
    },
  };
}
