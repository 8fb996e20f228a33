import { STREAM_CATALOG, subjects } from '@switchyard/contracts';
import { deleteDurableConsumer, ensureDurableConsumer, type ConsumerDefinition, type MessagingConnection } from '@switchyard/messaging';

/** Logical durable name; with the namespace applied it also names the checkpoint row. */
export const TIMELINE_CONSUMER_NAME = 'transcript-timeline';

export interface TimelineConsumerSettings {
  readonly ackWaitMs: number;
  readonly maxDeliver: number;
  /** Deliveries in flight: a batch being written plus the next ones already pulled. */
  readonly maxAckPending: number;
}

/** Every `task.message.<taskId>` of TASK_EVENTS, explicitly acked. */
export function timelineConsumerDefinition(settings: TimelineConsumerSettings): ConsumerDefinition {
  return {
    stream: STREAM_CATALOG.TASK_EVENTS.name,
    name: TIMELINE_CONSUMER_NAME,
    description: 'transcript projector: task.message events into task_message and task_usage',
    filterSubjects: [subjects.eventTypeFilter('task.message')],
    ackWaitMs: settings.ackWaitMs,
    maxDeliver: settings.maxDeliver,
    maxAckPending: settings.maxAckPending,
    deliverPolicy: 'all',
  };
}

/**
 * Creates the durable consumer when it is missing, or brings its settings up to date. A new
 * consumer starts right after the checkpoint when there is one (the consumer was deleted, the
 * stream recreated): replaying is harmless but slow. Without a checkpoint it starts at the
 * beginning of the stream, which is what a rebuild wants.
 */
export async function ensureTimelineConsumer(options: {
  readonly connection: MessagingConnection;
  readonly definition: ConsumerDefinition;
  readonly checkpoint: () => Promise<number | undefined>;
}): Promise<'created' | 'updated' | 'unchanged'> {
  const { outcome, startedAfter } = await ensureDurableConsumer({ connection: options.connection, definition: options.definition, startAfter: options.checkpoint });
  if (outcome === 'created') options.connection.logger.info({ consumer: options.definition.name, startAfter: startedAfter ?? null }, 'timeline consumer created');
  return outcome;
}

/** Removes the durable consumer (a rebuild starts over); true when there was one. */
export function deleteTimelineConsumer(connection: MessagingConnection): Promise<boolean> {
  return deleteDurableConsumer(connection, { stream: STREAM_CATALOG.TASK_EVENTS.name, name: TIMELINE_CONSUMER_NAME });
}
