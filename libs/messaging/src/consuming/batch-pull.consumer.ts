import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import type { MessagingConnection } from '../connection/messaging.connection';
import { describeCause } from '../errors/messaging.errors';
import type { ConsumerDefinition } from '../provisioning/stream.definitions';
import { CONSUME_RESTART_DELAY_MS, flushAcks, runConsumeLoop, settle } from './consume-loop';
import { toPulledMessage, type PulledMessage } from './pulled-message';
import { natsClients } from '../connection/nats-clients';

/** When a batch closes: whichever limit is reached first once its first message arrived. */
export interface BatchLimits {
  readonly maxMessages: number;
  /** Sum of payload sizes. */
  readonly maxBytes: number;
  readonly maxWaitMs: number;
}

export interface BatchPullOptions {
  readonly connection: MessagingConnection;
  readonly definition: ConsumerDefinition;
  readonly limits: BatchLimits;
  /** Creates or repairs the durable consumer: at start and whenever it disappears. */
  readonly ensureConsumer: () => Promise<unknown>;
  /**
   * Settles every message of the batch (ack, nak or term) before resolving. A throw naks the
   * messages it left unsettled. `signal` aborts at stop: hand unfinished work back. Called in
   * delivery order, with up to `pipelineDepth` batches in flight: a handler that must write in
   * order serializes that part itself (and overlaps the rest with the previous batch's write).
   */
  readonly handleBatch: (messages: readonly PulledMessage[], signal: AbortSignal) => Promise<void>;
  /** Batches handed out before the oldest has finished. Default 2. */
  readonly pipelineDepth?: number;
}

export interface RunningBatchPull {
  /** Stops pulling, finishes the batch in hand, and hands pulled-but-unstarted messages back. */
  stop(): Promise<void>;
}


/**
 * A durable pull consumer read in batches, for handlers that write many messages per
 * transaction (the transcript projector). `startConsumer` hands messages out one by one and serializes a
 * subject, which would cap a batch at one message per task; this loop pulls continuously and cuts
 * batches by count, bytes and time, in delivery order, the next batch prepared while the previous
 * one is written.
 */
export async function startBatchPull(options: BatchPullOptions): Promise<RunningBatchPull> {
  const { connection, definition, limits } = options;
  const { logger } = connection;
  const labels = { stream: definition.stream, consumer: definition.name };
  const stream = connection.namespace.stream(definition.stream);
  const durable = connection.namespace.consumer(definition.name);
  const stopController = new AbortController();
  const pipelineDepth = options.pipelineDepth ?? 2;
  const inFlight = new Set<Promise<void>>();
  let current: ConsumerMessages | undefined;

  await options.ensureConsumer();

  const watchStatus = async (messages: ConsumerMessages): Promise<void> => {
    for await (const status of messages.status()) {
      if (status.type === 'heartbeats_missed') logger.warn({ ...labels, count: status.count }, 'consumer heartbeats missed');
      if (status.type === 'consumer_deleted' || status.type === 'consumer_not_found') {
        logger.warn({ ...labels, status: status.type }, 'consumer disappeared; recreating');
        await options.ensureConsumer().catch((error: unknown) => logger.error({ ...labels, error: describeCause(error) }, 'recreating consumer failed'));
        await messages.close();
        return;
      }
    }
  };

  const runBatch = async (batch: JsMsg[]): Promise<void> => {
    if (stopController.signal.aborted) {
      for (const message of batch) settle(() => message.nak());
      return;
    }
    try {
      await options.handleBatch(
        batch.map((message) => toPulledMessage(connection, message)),
        stopController.signal,
      );
    } catch (error) {
      logger.error({ ...labels, size: batch.length, error: describeCause(error) }, 'batch failed; handing it back');
      for (const message of batch) settle(() => message.nak(CONSUME_RESTART_DELAY_MS));
    }
  };

  const consumeOnce = async (): Promise<void> => {
    const consumer = await natsClients(connection).jetstream.consumers.get(stream, durable);
    // Pull ahead: the next batch arrives while the current one is being written.
    const messages = await consumer.consume({ max_messages: limits.maxMessages * 2 });
    current = messages;
    if (stopController.signal.aborted) await messages.close();
    watchStatus(messages).catch((error: unknown) => logger.error({ ...labels, error: describeCause(error) }, 'status watch failed'));
    const iterator = messages[Symbol.asyncIterator]();
    // A `next()` that lost the race against the batch timer is kept for the next batch.
    let pending: Promise<IteratorResult<JsMsg>> | undefined;
    const next = (): Promise<IteratorResult<JsMsg>> => (pending ??= iterator.next());
    for (;;) {
      const first = await next();
      pending = undefined;
      if (first.done) return;
      const batch = [first.value];
      let bytes = first.value.data.length;
      let ended = false;
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'deadline'>((resolve) => {
        timer = setTimeout(() => resolve('deadline'), limits.maxWaitMs);
      });
      while (batch.length < limits.maxMessages && bytes < limits.maxBytes) {
        const result = await Promise.race([next(), deadline]);
        if (result === 'deadline') break;
        pending = undefined;
        if (result.done) {
          ended = true;
          break;
        }
        batch.push(result.value);
        bytes += result.value.data.length;
      }
      clearTimeout(timer);
      const running = runBatch(batch).finally(() => inFlight.delete(running));
      inFlight.add(running);
      if (inFlight.size >= pipelineDepth) await Promise.race(inFlight);
      if (ended) return;
    }
  };

  const loopDone = runConsumeLoop({
    connection,
    signal: stopController.signal,
    labels,
    failureMessage: 'batch consume loop failed; restarting',
    consumeOnce,
    recover: options.ensureConsumer,
    settled: () => Promise.all(inFlight),
  });

  return {
    stop: async () => {
      stopController.abort();
      await current?.close().catch(() => undefined);
      await loopDone;
      await flushAcks(connection);
    },
  };
}

