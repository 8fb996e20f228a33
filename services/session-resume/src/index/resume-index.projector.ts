import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { STREAM_CATALOG, subjects, type EventOf, type EventType } from '@switchyard/contracts';
import { MESSAGING_CONNECTION, type EventConsumerTable, type JetStreamEventContext, type MessagingConnection } from '@switchyard/messaging';
import { DATA_SOURCE, saveConsumerCheckpoint } from '@switchyard/persistence';
import type { DataSource } from 'typeorm';
import type { SessionResumeConfig } from '../session-resume.config';
import { applyIndexEvent, recordRetirement } from './resume-index.repository';
import { eventCodec } from './resume-event.codec';
import { assertSessionPublisher } from './session-publisher.guard';

/** The events the index is built from, and the stream each comes on. */
export const INDEXED_EVENT_STREAMS = {
  'task.enqueued': STREAM_CATALOG.TASK_EVENTS.name,
  'task.started': STREAM_CATALOG.TASK_EVENTS.name,
  'task.completed': STREAM_CATALOG.TASK_EVENTS.name,
  'task.failed': STREAM_CATALOG.TASK_EVENTS.name,
  'task.cancelled': STREAM_CATALOG.TASK_EVENTS.name,
  'session.pinned': STREAM_CATALOG.SESSION_EVENTS.name,
  'session.retired': STREAM_CATALOG.SESSION_EVENTS.name,
} as const satisfies Partial<Record<EventType, string>>;
export type IndexedEventType = keyof typeof INDEXED_EVENT_STREAMS;

/** Logical durable name of one event type's consumer, e.g. `session-resume-task_enqueued`; namespaced, it also names the checkpoint row. */
export function indexConsumerName(type: IndexedEventType): string {
  return `session-resume-${type.replace('.', '_')}`;
}

const INDEXED_EVENT_TYPES = Object.keys(INDEXED_EVENT_STREAMS) as IndexedEventType[];

/** The index consumers' names: the patterns of `ResumeIndexProjector.project`. */
export const INDEX_CONSUMER_NAMES = INDEXED_EVENT_TYPES.map(indexConsumerName);

/**
 * Every index consumer's options, from configuration (ack wait, deliveries before a dead letter):
 * the service definition hands them to the messaging transport, which reads them by pattern.
 */
export function resumeIndexConsumers(config: SessionResumeConfig): EventConsumerTable {
  return Object.fromEntries(
    INDEXED_EVENT_TYPES.map((type) => [
      indexConsumerName(type),
      {
        consumer: {
          stream: INDEXED_EVENT_STREAMS[type],
          name: indexConsumerName(type),
          description: `session-resume index: ${type} events`,
          filterSubjects: [subjects.eventTypeFilter(type)],
          deliverPolicy: 'all',
          ackWaitMs: config.SESSION_RESUME_ACK_WAIT_MS,
          maxDeliver: config.SESSION_RESUME_MAX_DELIVER,
        },
        codec: eventCodec([type]),
      },
    ]),
  );
}

/**
 * Projects the resume index from TASK_EVENTS and SESSION_EVENTS. One durable consumer per event
 * type (one filter subject each, which every supported nats-server accepts, and the projector
 * never reads the timeline), one message at a time: each event and its consumer's checkpoint
 * commit in one transaction, and the message is acked after the commit. The fold is idempotent
 * and does not depend on the order events of different types or streams arrive in, so
 * redelivery and interleaving are harmless; a malformed event is dead-lettered by the consumer.
 * A daemon's session event counts only from the daemon holding the attempt it speaks for (the
 * subject names the publisher); anyone else's is dead-lettered with the reason, the index untouched.
 */
@Controller()
export class ResumeIndexProjector {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
  ) {}

  @EventPattern(INDEX_CONSUMER_NAMES)
  async project(@Payload() event: EventOf<IndexedEventType>, @Ctx() context: JetStreamEventContext): Promise<void> {
    const delivery = context.getDelivery();
    if (event.type === 'session.pinned' || event.type === 'session.retired') await assertSessionPublisher({ dataSource: this.dataSource, subject: context.getSubject(), event });
    await this.dataSource.transaction(async (manager) => {
      await (event.type === 'session.retired' ? recordRetirement(manager, event) : applyIndexEvent(manager, event));
      await saveConsumerCheckpoint(manager, { consumerName: this.connection.namespace.consumer(delivery.consumer), streamSequence: delivery.streamSeq });
    });
  }
}
