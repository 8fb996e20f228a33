import { ROOT_CONTEXT } from '@opentelemetry/api';
import { parseEvent, type TaskMessageEvent } from '@switchyard/contracts';
import {
  DEAD_LETTER_REASONS,
  describeCause,
  exponentialBackoffDelay,
  extractTraceContext,
  durableConsumerBacklog,
  publishDeadLetter,
  settle,
  sleep,
  startBatchPull,
  type BatchLimits,
  type DeadLetterReason,
  type JsMsg,
  type MessagingConnection,
} from '@switchyard/messaging';
import { readConsumerCheckpoint } from '@switchyard/persistence';
import { createMessageSanitizer, decodeUtf8Lossy } from '@switchyard/redaction';
import type { JsonLogger } from '@switchyard/service-kit';
import type { DataSource } from 'typeorm';
import { holdProjectorLock } from './projector.lock';
import { ProjectorStats, startStatsLog } from './projector-stats';
import { writeTimelineBatch } from './timeline-batch.writer';
import { TIMELINE_CONSUMER_NAME, ensureTimelineConsumer, timelineConsumerDefinition, type TimelineConsumerSettings } from './timeline-consumer.definition';
import { mapTimelineBatch, type TimelineBatch } from './timeline-row.mapper';

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
}

export interface RunningTimelineProjector {
  readonly stats: ProjectorStats;
  /** The checkpoint's row name: the namespaced durable consumer name. */
  readonly checkpointName: string;
  /** Messages the durable consumer has not delivered or not had acknowledged yet. */
  pendingMessages(): Promise<number>;
  stop(): Promise<void>;
}

interface AcceptedMessage {
  readonly message: JsMsg;
  readonly event: TaskMessageEvent;
}

/** A database error that retrying will not fix (bad data, a constraint); the batch is split. */
class UnwritableBatchError extends Error {}

/**
 * The transcript projector: `task.message` events into `task_message` / `task_usage` in batches,
 * each batch and the checkpoint in one transaction, acked only after the commit. Redelivery and
 * duplicates are absorbed by `on conflict do nothing`; a malformed event goes to the dead-letter
 * subject and the stream moves on; a database outage pauses the projector (the batch is retried
 * in place, its ack deadline extended) instead of burning deliveries.
 */
export async function startTimelineProjector(options: TimelineProjectorOptions): Promise<RunningTimelineProjector> {
  const { connection, dataSource, logger } = options;
  const definition = timelineConsumerDefinition(options.consumer);
  const checkpointName = connection.namespace.consumer(TIMELINE_CONSUMER_NAME);
  const sanitize = createMessageSanitizer({ maxToolOutputChars: options.maxToolOutputChars });
  const stats = new ProjectorStats();
  const lifetime = new AbortController();

  const lock =
    options.holdLock === false
      ? undefined
      : await holdProjectorLock({ dataSource, signal: lifetime.signal, onWait: () => logger.warn({ event: 'projector_waiting_for_rebuild' }, 'a timeline rebuild is running; waiting') });

  const pendingMessages = (): Promise<number> => durableConsumerBacklog(connection, definition);

  const deadLetter = async (message: JsMsg, reason: DeadLetterReason, error: unknown): Promise<void> => {
    try {
      settle(() => message.working());
      await publishDeadLetter({
        connection,
        message,
        stream: definition.stream,
        consumer: definition.name,
        reason,
        error,
        traceContext: extractTraceContext(message.headers, ROOT_CONTEXT),
      });
      // No reason argument: nats-server < 2.10.4 ignores `+TERM <reason>` (and redelivers); the
      // reason is in the dead-letter copy's headers.
      settle(() => message.term());
      stats.recordDeadLetter();
      logger.warn({ event: 'timeline_message_dead_lettered', streamSeq: message.info.streamSequence, reason, error: describeCause(error) }, 'malformed timeline event dead-lettered');
    } catch (publishError) {
      // Without a copy in the dead-letter stream the message must stay: hand it back for later.
      logger.error({ streamSeq: message.info.streamSequence, reason, error: describeCause(publishError) }, 'dead-lettering failed; message handed back');
      settle(() => message.nak(5_000));
    }
  };

  const mapped = (accepted: readonly AcceptedMessage[]): TimelineBatch =>
    mapTimelineBatch(
      accepted.map((entry) => entry.event),
      sanitize,
    );

  /** Writes, retrying in place while the database is unavailable; 'stopped' if stopped meanwhile. */
  const write = async (accepted: readonly AcceptedMessage[], batch: TimelineBatch, streamSequence: number, signal: AbortSignal): Promise<'written' | 'stopped'> => {
    for (let attempt = 1; ; attempt += 1) {
      const started = process.hrtime.bigint();
      try {
        const result = await writeTimelineBatch({ dataSource, batch, checkpointName, streamSequence });
        stats.recordBatch({
          messages: accepted.length,
          rows: batch.messages.length,
          insertedRows: result.insertedMessages,
          usageRows: result.upsertedUsage,
          writeMs: Number(process.hrtime.bigint() - started) / 1e6,
          newestOccurredAt: accepted.reduce<string | undefined>((newest, entry) => (newest === undefined || entry.event.occurredAt > newest ? entry.event.occurredAt : newest), undefined),
        });
        return 'written';
      } catch (error) {
        if (!isTransientDatabaseError(error)) throw new UnwritableBatchError(describeCause(error), { cause: error });
        if (signal.aborted) return 'stopped';
        const delay = exponentialBackoffDelay(attempt, { initialDelayMs: 200, maximumDelayMs: 10_000 });
        logger.warn({ event: 'timeline_write_retry', attempt, delay, size: accepted.length, error: describeCause(error) }, 'database unavailable; retrying the batch');
        for (const entry of accepted) settle(() => entry.message.working());
        await sleep(delay, signal);
      }
    }
  };

  // Batches are written one at a time, in delivery order: each takes its turn when handed out.
  let writeTurn: Promise<void> = Promise.resolve();

  const handleBatch = async (messages: readonly JsMsg[], signal: AbortSignal): Promise<void> => {
    const previousTurn = writeTurn;
    let endTurn: () => void = () => undefined;
    writeTurn = new Promise((resolve) => (endTurn = resolve));
    try {
      // Decoding, dead-lettering and mapping overlap the previous batch's write.
      const accepted: AcceptedMessage[] = [];
      let highest = 0;
      for (const message of messages) {
        highest = Math.max(highest, message.info.streamSequence);
        const decoded = decodeTimelineEvent(message.data);
        if (decoded.ok) accepted.push({ message, event: decoded.event });
        else await deadLetter(message, decoded.reason, decoded.error);
      }
      const batch = mapped(accepted);
      await previousTurn;
      try {
        const outcome = await write(accepted, batch, highest, signal);
        for (const entry of accepted) settle(() => (outcome === 'written' ? entry.message.ack() : entry.message.nak()));
      } catch (error) {
        if (!(error instanceof UnwritableBatchError)) throw error;
        logger.warn({ event: 'timeline_batch_split', size: accepted.length, error: error.message }, 'batch could not be written; writing its messages one by one');
        await writeOneByOne(accepted, signal);
      }
    } finally {
      endTurn();
    }
  };

  // Finds the message the database refuses, dead-letters it, and writes the rest.
  const writeOneByOne = async (accepted: readonly AcceptedMessage[], signal: AbortSignal): Promise<void> => {
    for (const [index, entry] of accepted.entries()) {
      try {
        if ((await write([entry], mapped([entry]), entry.message.info.streamSequence, signal)) === 'stopped') {
          for (const rest of accepted.slice(index)) settle(() => rest.message.nak());
          return;
        }
        settle(() => entry.message.ack());
      } catch (error) {
        if (!(error instanceof UnwritableBatchError)) throw error;
        await deadLetter(entry.message, DEAD_LETTER_REASONS.permanentError, error.cause);
      }
    }
  };

  let pull: Awaited<ReturnType<typeof startBatchPull>>;
  try {
    pull = await startBatchPull({
      connection,
      definition,
      limits: options.batch,
      ensureConsumer: () => ensureTimelineConsumer({ connection, definition, checkpoint: () => readConsumerCheckpoint(dataSource, checkpointName) }),
      handleBatch,
    });
  } catch (error) {
    await lock?.release();
    throw error;
  }
  const statsLog = startStatsLog({ stats, intervalMs: options.statsIntervalMs, logger, pending: pendingMessages });
  logger.info({ event: 'projector_started', consumer: definition.name, batch: options.batch }, 'transcript projector started');

  return {
    stats,
    checkpointName,
    pendingMessages,
    stop: async () => {
      lifetime.abort();
      statsLog.stop();
      await pull.stop();
      await lock?.release().catch((error: unknown) => logger.warn({ error: describeCause(error) }, 'releasing the projector lock failed'));
      logger.info({ event: 'projector_stopped', ...stats.totals() }, 'transcript projector stopped');
    },
  };
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
