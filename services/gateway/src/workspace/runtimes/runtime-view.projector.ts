import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { DataSource } from 'typeorm';
import { STREAM_CATALOG, parseEvent, subjects, type SwitchyardEvent } from '@switchyard/contracts';
import { PermanentError, eventConsumer, type ConsumerDefinition, type JetStreamEventContext } from '@switchyard/messaging';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { projectRuntimeEvent, type RuntimeEvent } from './runtime-view.projection';

export const RUNTIME_VIEW_CONSUMER = 'gateway-runtime-view';

const SECOND = 1_000;

const RUNTIME_VIEW_CONSUMER_DEFINITION: ConsumerDefinition = {
  stream: STREAM_CATALOG.RUNTIME_EVENTS.name,
  name: RUNTIME_VIEW_CONSUMER,
  filterSubjects: [subjects.aggregateKindFilter('runtime')],
  deliverPolicy: 'all',
  ackWaitMs: 10 * SECOND,
  backoffMs: [10 * SECOND, 30 * SECOND, 60 * SECOND, 120 * SECOND, 300 * SECOND],
  maxDeliver: 10,
};

function isRuntimeEvent(event: SwitchyardEvent): event is RuntimeEvent {
  return event.type === 'runtime.registered' || event.type === 'runtime.heartbeat' || event.type === 'runtime.offline';
}

/**
 * Keeps `runtime_view` from the RUNTIME_EVENTS stream with a durable consumer (from the start of
 * the stream's retention on first boot). Writes are idempotent and ordered by occurred-at, so
 * replicas sharing the consumer, redeliveries and concurrency cannot move a runtime back in time.
 * Generous redelivery: a registration lost to a database outage would hide a runtime until its
 * daemon restarts. The daemon is the publisher the subject names (`runtime.<type>.<runtimeId>.<daemonId>`):
 * an event whose payload names another daemon is dead-lettered, never projected.
 */
@Controller()
export class RuntimeViewProjector {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  @EventPattern(RUNTIME_VIEW_CONSUMER, eventConsumer({ consumer: RUNTIME_VIEW_CONSUMER_DEFINITION, concurrency: 4 }))
  async apply(@Payload() message: unknown, @Ctx() context: JetStreamEventContext): Promise<void> {
    const parsed = parseEvent(message);
    if (!parsed.ok) {
      // A runtime event type newer than this build: nothing to project, not poison.
      if (parsed.error.code === 'unknown_event_type') {
        this.logger.debug({ event: 'runtime_event_skipped', type: parsed.error.claimedType }, 'runtime event type not projected');
        return;
      }
      throw new PermanentError(`runtime event rejected: ${parsed.error.message}`, parsed.error);
    }
    if (!isRuntimeEvent(parsed.event)) return;
    const publisher = subjects.publisherOf(context.getSubject());
    if (parsed.event.payload.daemonId !== publisher) throw new PermanentError(`${parsed.event.type} naming daemon ${parsed.event.payload.daemonId} published by ${publisher}`);
    await projectRuntimeEvent(this.dataSource, parsed.event);
  }
}
