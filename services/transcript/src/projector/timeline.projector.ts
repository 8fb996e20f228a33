import { parseEvent, type TaskMessageEvent } from '@switchyard/contracts';
import {
  DEAD_LETTER_REASONS,
  describeCause,
  exponentialBackoffDelay,
  durableConsumerBacklog,
  publishDeadLetter,
  sleep,
  startBatchPull,
  type BatchLimits,
  type ConsumerDefinition,
  type DeadLetterReason,
  type ExponentialBackoffOptions,
  type MessagingConnection,
  type PulledMessage,
  type RunningBatchPull,
} from '@switchyard/messaging';
import { readConsumerCheckpoint, type AttemptHolders } from '@switchyard/persistence';
import { createMessageSanitizer, decodeUtf8Lossy } from '@switchyard/redaction';
import type { JsonLogger } from '@switchyard/service-kit';
import type { DataSource } from 'typeorm';
import { AttemptHolderCache } from './attempt-holder.cache';
import { holdProjectorLock, type HeldLock } from './projector.lock';
import { ProjectorStats, startStatsLog } from './projector-stats';
import { writeTimelineBatch } from './timeline-batch.writer';
import { TIMELINE_CONSUMER_NAME, ensureTimelineConsumer, timelineConsumerDefinition, type TimelineConsumerSettings } from './timeline-consumer.definition';
import { checkPublisher } from './timeline-publisher.check';
import { mapTimelineBatch, type TimelineBatch } from './timeline-row.mapper';
import { startProjectionSpans } from './projection.spans';

/** Attempts whose holder is remembered; one entry is a few dozen bytes. */
const DEFAULT_HOLDER_CACHE_SIZE = 10_000;
/** Redelivery of a message whose attempt has no holder yet, until the consumer's last delivery. */
const DEFAULT_UNHELD_RETRY: UnheldRetry = { initialDelayMs: 1_000, maximumDelayMs: 30_000 };

export type UnheldRetry = Pick<ExponentialBackoffOptions, 'initialDelayMs' | 'maximumDelayMs'>;

export interface TimelineProjectorOptions {
  readonly connection: MessagingConnection;
  readonly dataSource: DataSource;
  readonly logger: JsonLogger;
  readonly batch: BatchLimits;
  readonly consumer: TimelineConsumerSettings;
  readonly maxToolOutputChars: number;
  readonly statsIntervalMs: number;
  /** Hold the shared projector lock (default). A rebuild, which holds it exclusively, says false. */
  readonly holdLock?: boolean;
  /** Attempts whose holder is remembered (LRU). */
  readonly holderCacheSize?: number;
  /** Redelivery delays of a message whose attempt has no holder yet. */
  readonly unheldRetry?: UnheldRetry;
}

export interface RunningTimelineProjector {
  readonly stats: ProjectorStats;
  /** The checkpoint's row name: the namespaced durable consumer name. */
  readonly checkpointName: string;
  /** Messages the durable consumer has not delivered or not had acknowledged yet. */
  pendingMessages(): Promise<number>;
  stop(): Promise<void>;
}

/** What every step of the projector works with. */
interface Projector {
  readonly connection: MessagingConnection;
  readonly dataSource: DataSource;
  readonly logger: JsonLogger;
  readonly definition: ConsumerDefinition;
  readonly checkpointName: string;
  readonly sanitize: ReturnType<typeof createMessageSanitizer>;
  readonly stats: ProjectorStats;
  readonly holders: AttemptHolderCache;
  readonly unheldRetry: UnheldRetry;
}

interface AcceptedMessage {
  readonly message: PulledMessage;
  readonly event: TaskMessageEvent;
}

/** A database error that retrying will not fix (bad data, a constraint); the batch is split. */
class UnwritableBatchError extends Error {}

/**
 * The transcript projector: `task.message` events into `task_message` / `task_usage` in batches,
 * each batch and the checkpoint in one transaction, acked only after the commit. Redelivery and
 * duplicates are absorbed by `on conflict do nothing`; a malformed event, or one not published by
 * the daemon holding its attempt, goes to the dead-letter subject and the stream moves on; a
 * database outage pauses the projector (the batch is retried in place, its ack deadline extended)
 * instead of burning deliveries.
 */
export async function startTimelineProjector(options: TimelineProjectorOptions): Promise<RunningTimelineProjector> {
  const projector = projectorOf(options);
  const lifetime = new AbortController();
  const lock = options.holdLock === false ? undefined : await holdSharedLock(projector, lifetime.signal);
  let pull: RunningBatchPull;
  try {
    pull = await startBatchPull({
      connection: projector.connection,
      definition: projector.definition,
      limits: options.batch,
      ensureConsumer: () =>
        ensureTimelineConsumer({ connection: projector.connection, definition: projector.definition, checkpoint: () => readConsumerCheckpoint(projector.dataSource, projector.checkpointName) }),
      handleBatch: batchHandler(projector),
    });
  } catch (error) {
    await lock?.release();
    throw error;
  }
  const pendingMessages = (): Promise<number> => durableConsumerBacklog(projector.connection, projector.definition);
  const statsLog = startStatsLog({ stats: projector.stats, intervalMs: options.statsIntervalMs, logger: projector.logger, pending: pendingMessages });
  projector.logger.info({ event: 'projector_started', consumer: projector.definition.name, batch: options.batch }, 'transcript projector started');
  return {
    stats: projector.stats,
    checkpointName: projector.checkpointName,
    pendingMessages,
    stop: async () => {
      lifetime.abort();
      statsLog.stop();
      await pull.stop();
      await lock?.release().catch((error: unknown) => projector.logger.warn({ error: describeCause(error) }, 'releasing the projector lock failed'));
      projector.logger.info({ event: 'projector_stopped', ...projector.stats.totals() }, 'transcript projector stopped');
    },
  };
}

function projectorOf(options: TimelineProjectorOptions): Projector {
  return {
    connection: options.connection,
    dataSource: options.dataSource,
    logger: options.logger,
    definition: timelineConsumerDefinition(options.consumer),
    checkpointName: options.connection.namespace.consumer(TIMELINE_CONSUMER_NAME),
    sanitize: createMessageSanitizer({ maxToolOutputChars: options.maxToolOutputChars }),
    stats: new ProjectorStats(),
    holders: new AttemptHolderCache(options.holderCacheSize ?? DEFAULT_HOLDER_CACHE_SIZE),
    unheldRetry: options.unheldRetry ?? DEFAULT_UNHELD_RETRY,
  };
}

/** Projectors share the lock; a rebuild holds it exclusively, so a projector waits for it. */
function holdSharedLock(projector: Projector, signal: AbortSignal): Promise<HeldLock | undefined> {
  return holdProjectorLock({
    dataSource: projector.dataSource,
    signal,
    onWait: () => projector.logger.warn({ event: 'projector_waiting_for_rebuild' }, 'a timeline rebuild is running; waiting'),
  });
}

/**
 * Batches are written one at a time, in delivery order: each takes its turn when handed out.
 * Decoding, dead-lettering and mapping overlap the previous batch's write.
 */
function batchHandler(projector: Projector): (messages: readonly PulledMessage[], signal: AbortSignal) => Promise<void> {
  let writeTurn: Promise<void> = Promise.resolve();
  return async (messages, signal) => {
    const previousTurn = writeTurn;
    let endTurn: () => void = () => undefined;
    writeTurn = new Promise((resolve) => (endTurn = resolve));
    try {
      const accepted = await acceptMessages(projector, messages, signal);
      if (accepted === 'stopped') return;
      const spans = startProjectionSpans({ consumer: projector.definition.name, messages: accepted.map((entry) => ({ message: entry.message, taskId: entry.event.payload.taskId })) });
      try {
        await writeAccepted({ projector, accepted, messages, previousTurn, signal });
        spans.end();
      } catch (error) {
        spans.end(error);
        throw error;
      }
    } finally {
      endTurn();
    }
  };
}

/** Writes the accepted messages in the batch's turn and settles them; a batch the database refuses is written one by one. */
async function writeAccepted(options: {
  readonly projector: Projector;
  readonly accepted: readonly AcceptedMessage[];
  readonly messages: readonly PulledMessage[];
  readonly previousTurn: Promise<void>;
  readonly signal: AbortSignal;
}): Promise<void> {
  const { projector, accepted, signal } = options;
  const batch = mapped(projector, accepted);
  const highest = Math.max(0, ...options.messages.map((message) => message.streamSequence));
  await options.previousTurn;
  try {
    const outcome = await writeRetrying({ projector, accepted, batch, streamSequence: highest, signal });
    for (const entry of accepted) {
      if (outcome === 'written') entry.message.ack();
      else entry.message.nak();
    }
  } catch (error) {
    if (!(error instanceof UnwritableBatchError)) throw error;
    projector.logger.warn({ event: 'timeline_batch_split', size: accepted.length, error: error.message }, 'batch could not be written; writing its messages one by one');
    await writeOneByOne(projector, accepted, signal);
  }
}

/**
 * The batch's valid timeline events published by the holder of their attempt. A malformed event,
 * or one published by anyone else, is dead-lettered (and takes no seq); one whose attempt has no
 * holder yet is handed back, and dead-lettered on the consumer's last delivery.
 */
async function acceptMessages(projector: Projector, messages: readonly PulledMessage[], signal: AbortSignal): Promise<AcceptedMessage[] | 'stopped'> {
  const decoded: AcceptedMessage[] = [];
  for (const message of messages) {
    const result = decodeTimelineEvent(message.data);
    if (result.ok) decoded.push({ message, event: result.event });
    else await deadLetter({ projector, message, reason: result.reason, error: result.error });
  }
  const holders = await readHoldersRetrying({ projector, entries: decoded, signal });
  if (holders === 'stopped') {
    for (const entry of decoded) entry.message.nak();
    return 'stopped';
  }
  const accepted: AcceptedMessage[] = [];
  for (const entry of decoded) {
    const check = checkPublisher({ subject: entry.message.subject, payload: entry.event.payload, holders });
    if (check.verdict === 'held') accepted.push(entry);
    else if (check.verdict === 'forged') await deadLetter({ projector, message: entry.message, reason: DEAD_LETTER_REASONS.permanentError, error: check.error });
    else if (entry.message.deliveryCount >= projector.definition.maxDeliver) {
      await deadLetter({ projector, message: entry.message, reason: DEAD_LETTER_REASONS.maxDeliverExceeded, error: check.error });
    } else {
      const delay = exponentialBackoffDelay(entry.message.deliveryCount, projector.unheldRetry);
      projector.logger.warn({ event: 'timeline_message_unheld', streamSeq: entry.message.streamSequence, delay, error: check.error.message }, 'timeline message of an attempt with no holder yet; retrying');
      entry.message.nak(delay);
    }
  }
  return accepted;
}

/** The holders of the entries' attempts, retrying in place while the database is unavailable. */
async function readHoldersRetrying(options: { readonly projector: Projector; readonly entries: readonly AcceptedMessage[]; readonly signal: AbortSignal }): Promise<AttemptHolders | 'stopped'> {
  const { projector, entries, signal } = options;
  const pairs = entries.map((entry) => entry.event.payload);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await projector.holders.holdersOf(projector.dataSource, pairs);
    } catch (error) {
      if (!isTransientDatabaseError(error)) throw error;
      if (signal.aborted) return 'stopped';
      const delay = exponentialBackoffDelay(attempt, { initialDelayMs: 200, maximumDelayMs: 10_000 });
      projector.logger.warn({ event: 'timeline_holder_read_retry', attempt, delay, error: describeCause(error) }, 'database unavailable; retrying the holder lookup');
      for (const entry of entries) entry.message.working();
      await sleep(delay, signal);
    }
  }
}

function mapped(projector: Projector, accepted: readonly AcceptedMessage[]): TimelineBatch {
  return mapTimelineBatch(
    accepted.map((entry) => entry.event),
    projector.sanitize,
  );
}

/** Writes, retrying in place while the database is unavailable; 'stopped' if stopped meanwhile. */
async function writeRetrying(options: {
  readonly projector: Projector;
  readonly accepted: readonly AcceptedMessage[];
  readonly batch: TimelineBatch;
  readonly streamSequence: number;
  readonly signal: AbortSignal;
}): Promise<'written' | 'stopped'> {
  const { projector, accepted, signal } = options;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await writeOnce(options);
      return 'written';
    } catch (error) {
      if (!isTransientDatabaseError(error)) throw new UnwritableBatchError(describeCause(error), { cause: error });
      if (signal.aborted) return 'stopped';
      const delay = exponentialBackoffDelay(attempt, { initialDelayMs: 200, maximumDelayMs: 10_000 });
      projector.logger.warn({ event: 'timeline_write_retry', attempt, delay, size: accepted.length, error: describeCause(error) }, 'database unavailable; retrying the batch');
      for (const entry of accepted) entry.message.working();
      await sleep(delay, signal);
    }
  }
}

/** One transaction: the rows and the checkpoint; then the batch is counted. */
async function writeOnce(options: { readonly projector: Projector; readonly accepted: readonly AcceptedMessage[]; readonly batch: TimelineBatch; readonly streamSequence: number }): Promise<void> {
  const { projector, accepted, batch } = options;
  const started = process.hrtime.bigint();
  const result = await writeTimelineBatch({ dataSource: projector.dataSource, batch, checkpointName: projector.checkpointName, streamSequence: options.streamSequence });
  projector.stats.recordBatch({
    messages: accepted.length,
    rows: batch.messages.length,
    insertedRows: result.insertedMessages,
    usageRows: result.upsertedUsage,
    writeMs: Number(process.hrtime.bigint() - started) / 1e6,
    newestOccurredAt: accepted.reduce<string | undefined>((newest, entry) => (newest === undefined || entry.event.occurredAt > newest ? entry.event.occurredAt : newest), undefined),
    newestStoredAt: accepted.reduce<Date | undefined>((newest, entry) => (newest === undefined || entry.message.storedAt > newest ? entry.message.storedAt : newest), undefined),
  });
}

/** Finds the message the database refuses, dead-letters it, and writes the rest. */
async function writeOneByOne(projector: Projector, accepted: readonly AcceptedMessage[], signal: AbortSignal): Promise<void> {
  for (const [index, entry] of accepted.entries()) {
    try {
      const outcome = await writeRetrying({ projector, accepted: [entry], batch: mapped(projector, [entry]), streamSequence: entry.message.streamSequence, signal });
      if (outcome === 'stopped') {
        for (const rest of accepted.slice(index)) rest.message.nak();
        return;
      }
      entry.message.ack();
    } catch (error) {
      if (!(error instanceof UnwritableBatchError)) throw error;
      await deadLetter({ projector, message: entry.message, reason: DEAD_LETTER_REASONS.permanentError, error: error.cause });
    }
  }
}

/** A copy to `dlq.TASK_EVENTS.<consumer>`, then `term`; without a stored copy the message stays. */
async function deadLetter(options: { readonly projector: Projector; readonly message: PulledMessage; readonly reason: DeadLetterReason; readonly error: unknown }): Promise<void> {
  const { projector, message, reason, error } = options;
  try {
    message.working();
    await publishDeadLetter({
      connection: projector.connection,
      message,
      stream: projector.definition.stream,
      consumer: projector.definition.name,
      reason,
      error,
      traceContext: message.traceContext,
    });
    message.term();
    projector.stats.recordDeadLetter();
    projector.logger.warn({ event: 'timeline_message_dead_lettered', streamSeq: message.streamSequence, reason, error: describeCause(error) }, 'timeline event dead-lettered');
  } catch (publishError) {
    // Without a copy in the dead-letter stream the message must stay: hand it back for later.
    projector.logger.error({ streamSeq: message.streamSequence, reason, error: describeCause(publishError) }, 'dead-lettering failed; message handed back');
    message.nak(5_000);
  }
}

type DecodedEvent = { ok: true; event: TaskMessageEvent } | { ok: false; reason: DeadLetterReason; error: Error };

/** Bytes to a validated `task.message` event; invalid UTF-8 is replaced, not fatal. */
export function decodeTimelineEvent(data: Uint8Array): DecodedEvent {
  let json: unknown;
  try {
    json = JSON.parse(decodeUtf8Lossy(data));
  } catch (error) {
    return { ok: false, reason: DEAD_LETTER_REASONS.decodeFailed, error: error as Error };
  }
  const parsed = parseEvent(json);
  if (!parsed.ok) return { ok: false, reason: DEAD_LETTER_REASONS.permanentError, error: parsed.error };
  if (parsed.event.type !== 'task.message') {
    return { ok: false, reason: DEAD_LETTER_REASONS.permanentError, error: new Error(`${parsed.event.type} is not a timeline event`) };
  }
  return { ok: true, event: parsed.event };
}

// SQLSTATE classes that pass: connection (08), resources (53), operator intervention (57),
// system (58), transaction rollback (40: serialization, deadlock), lock not available.
const TRANSIENT_SQLSTATE_CLASSES = new Set(['08', '40', '53', '57', '58']);

/** Whether waiting may fix a failed write; errors without an SQLSTATE are network-level. */
export function isTransientDatabaseError(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2)) || code === '55P03';
}
