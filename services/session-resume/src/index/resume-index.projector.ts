import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { STREAM_CATALOG, subjects, type EventOf, type EventType } from '@switchyard/contracts';
import { MessagingClient, type DeliveryContext } from '@switchyard/messaging';
import { DATA_SOURCE, saveConsumerCheckpoint } from '@switchyard/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import type { SessionResumeConfig } from '../session-resume.config';
import { SESSION_RESUME_CONFIG } from '../session-resume.tokens';
import { applyIndexEvent, recordRetirement } from './resume-index.repository';
import { eventCodec } from './resume-event.codec';

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

/**
 * Projects the resume index from TASK_EVENTS and SESSION_EVENTS. One durable consumer per event
 * type (one filter subject each, which every supported nats-server accepts, and the projector
 * never reads the timeline), one message at a time: each event and its consumer's checkpoint
 * commit in one transaction, and the message is acked after the commit. The fold is idempotent
 * and does not depend on the order events of different types or streams arrive in, so
 * redelivery and interleaving are harmless; a malformed event is dead-lettered by the consumer.
 */
@Injectable()
export class ResumeIndexProjector implements OnApplicationBootstrap {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(SESSION_RESUME_CONFIG) private readonly config: SessionResumeConfig,
    private readonly client: MessagingClient,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const type of Object.keys(INDEXED_EVENT_STREAMS) as IndexedEventType[]) {
      await this.client.startConsumer<EventOf<IndexedEventType>>({
        consumer: {
          stream: INDEXED_EVENT_STREAMS[type],
          name: indexConsumerName(type),
          description: `session-resume index: ${type} events`,
          filterSubjects: [subjects.eventTypeFilter(type)],
          deliverPolicy: 'all',
          ackWaitMs: this.config.SESSION_RESUME_ACK_WAIT_MS,
          maxDeliver: this.config.SESSION_RESUME_MAX_DELIVER,
        },
        codec: eventCodec([type]),
        handler: (event, delivery) =>
          this.project(delivery, (manager) => (event.type === 'session.retired' ? recordRetirement(manager, event) : applyIndexEvent(manager, event))),
      });
    }
  }
  private async project(delivery: DeliveryContext, write: (manager: EntityManager) => Promise<void>): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await write(manager);
      await saveConsumerCheckpoint(manager, { consumerName: this.client.namespace.consumer(delivery.consumer), streamSequence: delivery.streamSeq });
    });
  }
}
