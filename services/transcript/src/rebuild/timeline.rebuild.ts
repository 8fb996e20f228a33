import { describeCause, sleep, type MessagingConnection } from '@switchyard/messaging';
import { deleteConsumerCheckpoint } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import type { DataSource } from 'typeorm';
import { tryRebuildLock } from '../projector/projector.lock';
import { TIMELINE_CONSUMER_NAME, deleteTimelineConsumer } from '../projector/timeline-consumer.definition';
import { startTimelineProjector, type TimelineProjectorOptions } from '../projector/timeline.projector';

export interface RebuildResult {
  readonly messages: number;
  readonly rowsInserted: number;
  readonly usageRows: number;
  readonly deadLettered: number;
  readonly durationMs: number;
}

export class RebuildRefusedError extends Error {}

/**
 * Rebuilds the timeline view from the stream: deletes the durable consumer, empties `task_message`
 * and `task_usage` and the checkpoint in one transaction, then replays TASK_EVENTS from its first
 * message with the projector's own code until the consumer has nothing pending. Every row value
 * comes from the events, so the result equals the view before (for events still in the stream).
 * Refuses while a projector runs (it holds the shared lock); the service waits while this runs.
 */
export async function rebuildTimeline(
  options: Omit<TimelineProjectorOptions, 'holdLock'> & {
    readonly connection: MessagingConnection;
    readonly dataSource: DataSource;
    readonly logger: JsonLogger;
    /** How often progress is checked and logged. */
    readonly pollMs?: number;
  },
): Promise<RebuildResult> {
  const { connection, dataSource, logger } = options;
  const started = Date.now();
  const lock = await tryRebuildLock(dataSource);
  if (!lock) throw new RebuildRefusedError('a transcript projector is running: stop the transcript service before rebuilding');
  try {
    await deleteTimelineConsumer(connection);
    await dataSource.transaction(async (manager) => {
      await manager.query('truncate task_message, task_usage');
      await deleteConsumerCheckpoint(manager, connection.namespace.consumer(TIMELINE_CONSUMER_NAME));
    });
    logger.info({ event: 'timeline_rebuild_started' }, 'timeline view emptied; replaying the stream');

    const projector = await startTimelineProjector({ ...options, holdLock: false });
    try {
      for (;;) {
        await sleep(options.pollMs ?? 250);
        const pending = await projector.pendingMessages().catch((error: unknown) => {
          logger.warn({ error: describeCause(error) }, 'consumer info failed');
          return Number.POSITIVE_INFINITY;
        });
        const totals = projector.stats.totals();
        logger.info({ event: 'timeline_rebuild_progress', messages: totals.messages, rowsInserted: totals.insertedRows, pending }, 'replaying');
        if (pending === 0) break;
      }
    } finally {
      await projector.stop();
    }
    const totals = projector.stats.totals();
    const result: RebuildResult = {
      messages: totals.messages,
      rowsInserted: totals.insertedRows,
      usageRows: totals.usageRows,
      deadLettered: totals.deadLettered,
      durationMs: Date.now() - started,
    };
    logger.info({ event: 'timeline_rebuild_finished', ...result }, 'timeline rebuilt');
    return result;
  } finally {
    await lock.release();
  }
}
