import { DeliverPolicy, JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import { STREAM_CATALOG, subjects } from '@switchyard/contracts';
import { differingFields, toConsumerConfig, type ConsumerDefinition, type MessagingConnection } from '@switchyard/messaging';

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
  const { connection, definition } = options;
  const stream = connection.namespace.stream(definition.stream);
  const desired = toConsumerConfig(definition, connection.namespace);
  const existing = await connection.manager.consumers.info(stream, desired.durable_name).catch((error: unknown) => {
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound) return undefined;
    throw error;
  });
  if (!existing) {
    const checkpoint = await options.checkpoint();
    const start = checkpoint === undefined ? {} : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: checkpoint + 1 };
    try {
      await connection.manager.consumers.add(stream, { ...desired, ...start });
    } catch (error) {
      // Another replica created it first: fine, it is the same consumer.
      if (!(error instanceof JetStreamApiError && /already in use|already exists/i.test(error.message))) throw error;
    }
    connection.logger.info({ consumer: definition.name, startAfter: checkpoint ?? null }, 'timeline consumer created');
    return 'created';
  }
  const { durable_name: _durable, ack_policy: _ackPolicy, deliver_policy: _deliverPolicy, ...updatable } = desired;
  if (differingFields(updatable, existing.config).length === 0) return 'unchanged';
  await connection.manager.consumers.update(stream, desired.durable_name, updatable);
  return 'updated';
}

/** Removes the durable consumer (a rebuild starts over); true when there was one. */
export async function deleteTimelineConsumer(connection: MessagingConnection): Promise<boolean> {
  const stream = connection.namespace.stream(STREAM_CATALOG.TASK_EVENTS.name);
  return connection.manager.consumers.delete(stream, connection.namespace.consumer(TIMELINE_CONSUMER_NAME)).catch((error: unknown) => {
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound) return false;
    throw error;
  });
}
