import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import type { MessagingConnection } from '../connection/messaging.connection';
import type { MessagingLogger } from '../connection/messaging.logger';
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


/** One running batch pull: what it was started with, and the batches in flight. */
interface BatchPullRun {
  readonly options: BatchPullOptions;
  readonly connection: MessagingConnection;
  readonly logger: MessagingLogger;
  readonly labels: { readonly stream: string; readonly consumer: string };
  readonly stream: string;
  readonly durable: string;
  readonly stopController: AbortController;
  readonly pipelineDepth: number;
  readonly inFlight: Set<Promise<void>>;
  current: ConsumerMessages | undefined;
}

/** A pull's messages in order; a `next()` that lost the race against the batch timer is kept for the next batch. */
interface MessageCursor {
  readonly iterator: AsyncIterator<JsMsg>;
  pending: Promise<IteratorResult<JsMsg>> | undefined;
}

const nextMessage = (cursor: MessageCursor): Promise<IteratorResult<JsMsg>> => (cursor.pending ??= cursor.iterator.next());

/**
 * A durable pull consumer read in batches, for handlers that write many messages per
 * transaction (the transcript projector). `startConsumer` hands messages out one by one and serializes a
 * subject, which would cap a batch at one message per task; this loop pulls continuously and cuts
 * batches by count, bytes and time, in delivery order, the next batch prepared while the previous
 * one is written.
 */
export async function startBatchPull(options: BatchPullOptions): Promise<RunningBatchPull> {
  const { connection, definition } = options;
  const run: BatchPullRun = {
    options,
    connection,
    logger: connection.logger,
    labels: { stream: definition.stream, consumer: definition.name },
    stream: connection.namespace.stream(definition.stream),
    durable: connection.namespace.consumer(definition.name),
    stopController: new AbortController(),
    pipelineDepth: options.pipelineDepth ?? 2,
    inFlight: new Set(),
    current: undefined,
  };

  await options.ensureConsumer();

  const loopDone = runConsumeLoop({
    connection,
    signal: run.stopController.signal,
    labels: run.labels,
    failureMessage: 'batch consume loop failed; restarting',
    consumeOnce: () => consumeOnce(run),
    recover: options.ensureConsumer,
    settled: () => Promise.all(run.inFlight),
  });

  return {
    stop: async () => {
      run.stopController.abort();
      await run.current?.close().catch(() => undefined);
      await loopDone;
      await flushAcks(connection);
    },
  };
}

/** One pull: cut batches from it and hand them out until the pull ends. */
async function consumeOnce(run: BatchPullRun): Promise<void> {
  const { logger, labels, options } = run;
  const consumer = await natsClients(run.connection).jetstream.consumers.get(run.stream, run.durable);
  // Pull ahead: the next batch arrives while the current one is being written.
  const messages = await consumer.consume({ max_messages: options.limits.maxMessages * 2 });
  run.current = messages;
  // Not awaited: `close` resolves only once the loop below has drained the pull.
  if (run.stopController.signal.aborted) void messages.close();
  watchStatus(run, messages).catch((error: unknown) => logger.error({ ...labels, error: describeCause(error) }, 'status watch failed'));
  const cursor: MessageCursor = { iterator: messages[Symbol.asyncIterator](), pending: undefined };
  for (;;) {
    const first = await nextMessage(cursor);
    cursor.pending = undefined;
    if (first.done) return;
    const { batch, ended } = await collectBatch(cursor, first.value, options.limits);
    await dispatchBatch(run, batch);
    if (ended) return;
  }
}

/** The messages after the first, until a limit is reached or the pull ends (`ended`). */
async function collectBatch(cursor: MessageCursor, first: JsMsg, limits: BatchLimits): Promise<{ readonly batch: JsMsg[]; readonly ended: boolean }> {
  const batch = [first];
  let bytes = first.data.length;
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), limits.maxWaitMs);
  });
  while (batch.length < limits.maxMessages && bytes < limits.maxBytes) {
    const result = await Promise.race([nextMessage(cursor), deadline]);
    if (result === 'deadline') break;
    cursor.pending = undefined;
    if (result.done) {
      ended = true;
      break;
    }
    batch.push(result.value);
    bytes += result.value.data.length;
  }
  clearTimeout(timer);
  return { batch, ended };
}

/** Starts the batch; waits for the oldest in flight when the pipeline is full. */
async function dispatchBatch(run: BatchPullRun, batch: JsMsg[]): Promise<void> {
  const { inFlight } = run;
  const running = runBatch(run, batch).finally(() => inFlight.delete(running));
  inFlight.add(running);
  if (inFlight.size >= run.pipelineDepth) await Promise.race(inFlight);
}

async function runBatch(run: BatchPullRun, batch: JsMsg[]): Promise<void> {
  const { stopController } = run;
  if (stopController.signal.aborted) {
    for (const message of batch) settle(() => message.nak());
    return;
  }
  try {
    await run.options.handleBatch(
      batch.map((message) => toPulledMessage(run.connection, message)),
      stopController.signal,
    );
  } catch (error) {
    run.logger.error({ ...run.labels, size: batch.length, error: describeCause(error) }, 'batch failed; handing it back');
    for (const message of batch) settle(() => message.nak(CONSUME_RESTART_DELAY_MS));
  }
}

async function watchStatus(run: BatchPullRun, messages: ConsumerMessages): Promise<void> {
  const { logger, labels } = run;
  for await (const status of messages.status()) {
    if (status.type === 'heartbeats_missed') logger.warn({ ...labels, count: status.count }, 'consumer heartbeats missed');
    if (status.type === 'consumer_deleted' || status.type === 'consumer_not_found') {
      logger.warn({ ...labels, status: status.type }, 'consumer disappeared; recreating');
      await run.options.ensureConsumer().catch((error: unknown) => logger.error({ ...labels, error: describeCause(error) }, 'recreating consumer failed'));
      await messages.close();
      return;
    }
  }
}
