import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { DataSource } from 'typeorm';
import { STREAM_CATALOG, isRuntimeOfDaemon, parseEvent, subjects, type SwitchyardEvent } from '@switchyard/contracts';
import { PermanentError, eventConsumer, type ConsumerDefinition, type JetStreamEventContext } from '@switchyard/messaging';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { DaemonsRepository } from '../daemons/daemons.repository';
import { projectRuntimeEvent, type RuntimeEvent, type RuntimeOwner } from './runtime-view.projection';

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

/** Why a runtime event was acked without being projected (a retry would change nothing). */
export const RUNTIME_EVENT_IGNORED_REASONS = {
  daemonRevoked: 'daemon_revoked',
  workspaceNotEnrolled: 'workspace_not_enrolled',
  runtimeOfAnotherOwner: 'runtime_of_another_owner',
  runtimeIdOfAnotherDaemon: 'runtime_id_of_another_daemon',
} as const;
export type RuntimeEventIgnoredReason = (typeof RUNTIME_EVENT_IGNORED_REASONS)[keyof typeof RUNTIME_EVENT_IGNORED_REASONS];

/**
 * Keeps `runtime_view` from the RUNTIME_EVENTS stream with a durable consumer (from the start of
 * the stream's retention on first boot). Writes are idempotent and ordered by the time the
 * JetStream server stored each event, never the payload's `occurredAt`, which the publisher
 * chooses: replicas sharing the consumer, redeliveries, concurrency and a forged clock cannot move
 * a runtime back, or forward, in time.
 *
 * Who may say what: the daemon is the publisher the subject names (`runtime.<type>.<runtimeId>.<daemonId>`,
 * vouched for by NATS permissions); an event whose payload names another daemon is dead-lettered.
 * An enrolled daemon registers runtimes only into the workspace it enrolled in, and nothing once
 * revoked; a daemon with no enrollment (directly minted credentials) is taken at its payload's word.
 * A runtime never changes workspace or daemon. Refused events are acked with a warning.
 */
@Controller()
export class RuntimeViewProjector {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly daemons: DaemonsRepository,
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
    const event = parsed.event;
    const publisher = subjects.publisherOf(context.getSubject());
    if (event.payload.daemonId !== publisher) throw new PermanentError(`${event.type} naming daemon ${event.payload.daemonId} published by ${publisher}`);
    const refusal = await this.refusalOf(event);
    if (refusal) {
      this.ignore({ event, reason: refusal });
      return;
    }
    const outcome = await projectRuntimeEvent(this.dataSource, { event, storedAt: context.getStoredAt() });
    if (outcome.kind === 'foreign') this.ignore({ event, reason: RUNTIME_EVENT_IGNORED_REASONS.runtimeOfAnotherOwner, owner: outcome.owner });
  }

  private async refusalOf(event: RuntimeEvent): Promise<RuntimeEventIgnoredReason | undefined> {
    // A runtime id names its daemon (`isRuntimeOfDaemon`): nobody registers another's first.
    if (!isRuntimeOfDaemon(event.payload.runtimeId, event.payload.daemonId)) return RUNTIME_EVENT_IGNORED_REASONS.runtimeIdOfAnotherDaemon;
    const enrollment = await this.daemons.enrollmentOf(event.payload.daemonId);
    if (!enrollment) return undefined;
    if (enrollment.revoked) return RUNTIME_EVENT_IGNORED_REASONS.daemonRevoked;
    if (event.type === 'runtime.registered' && event.payload.workspaceId !== enrollment.workspaceId) return RUNTIME_EVENT_IGNORED_REASONS.workspaceNotEnrolled;
    return undefined;
  }

  private ignore(options: { readonly event: RuntimeEvent; readonly reason: RuntimeEventIgnoredReason; readonly owner?: RuntimeOwner }): void {
    const { event, reason, owner } = options;
    this.logger.warn(
      {
        event: 'runtime_event_ignored',
        reason,
        type: event.type,
        eventId: event.eventId,
        runtimeId: event.payload.runtimeId,
        daemonId: event.payload.daemonId,
        ...(event.type === 'runtime.registered' ? { workspaceId: event.payload.workspaceId } : {}),
        ...(owner ? { ownerWorkspaceId: owner.workspaceId, ownerDaemonId: owner.daemonId } : {}),
      },
      `${event.type} of runtime ${event.payload.runtimeId} from daemon ${event.payload.daemonId} ignored: ${reason}`,
    );
  }
}
