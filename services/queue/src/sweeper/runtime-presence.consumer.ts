import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { DataSource } from 'typeorm';
import { EVENT_CATALOG, STREAM_CATALOG, isRuntimeOfDaemon, lateHeartbeatGapMs, subjects, type EventOf } from '@switchyard/contracts';
import { PermanentError, eventConsumer, zodCodec, type ConsumerDefinition, type JetStreamEventContext } from '@switchyard/messaging';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import type { QueueConfig } from '../queue.config';
import { WorkAvailableNudger } from '../claim/work-available.nudger';
import { QUEUE_CONFIG, QUEUE_LOGGER } from '../queue.injection-keys';

export const RUNTIME_PRESENCE_CONSUMER: ConsumerDefinition = {
  stream: STREAM_CATALOG.RUNTIME_EVENTS.name,
  name: 'queue-runtime-presence',
  filterSubjects: [subjects.eventTypeFilter('runtime.heartbeat')],
  deliverPolicy: 'new',
  ackWaitMs: 10_000,
  maxDeliver: 5,
};

/**
 * Keeps `runtime_presence` from the daemons' `runtime.heartbeat.<runtimeId>.<daemonId>` events. The
 * daemon is the one the subject names (its NATS identity may publish there only); a heartbeat
 * whose payload names another daemon, or a runtime whose id is not under the sender's
 * (`isRuntimeOfDaemon`), is dead-lettered, never recorded. Presence is
 * stamped with the queue's clock on arrival (the clock the sweeper judges by), so a daemon's
 * skewed clock cannot keep it alive;
 * a heartbeat older than the offline window (a redelivery after an outage) proves nothing and is
 * ignored. Every gap longer than the daemons' interval plus a second is logged with its length:
 * it is how close a live runtime came to being judged offline.
 */
@Controller()
export class RuntimePresenceConsumer {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(QUEUE_CONFIG) private readonly config: QueueConfig,
    @Inject(QUEUE_LOGGER) private readonly logger: JsonLogger,
    private readonly nudger: WorkAvailableNudger,
  ) {}

  @EventPattern(
    RUNTIME_PRESENCE_CONSUMER.name,
    eventConsumer<EventOf<'runtime.heartbeat'>>({ consumer: RUNTIME_PRESENCE_CONSUMER, codec: zodCodec(EVENT_CATALOG['runtime.heartbeat'].envelope as never), concurrency: 8 }),
  )
  async record(@Payload() heartbeat: EventOf<'runtime.heartbeat'>, @Ctx() context: JetStreamEventContext): Promise<void> {
    const daemonId = subjects.publisherOf(context.getSubject());
    if (heartbeat.payload.daemonId !== daemonId) throw new PermanentError(`heartbeat naming daemon ${heartbeat.payload.daemonId} published by ${daemonId}`);
    // A runtime id names its daemon: no daemon holds another's runtime by heartbeating it first.
    if (!isRuntimeOfDaemon(heartbeat.payload.runtimeId, daemonId)) throw new PermanentError(`heartbeat of runtime ${heartbeat.payload.runtimeId}, which is not under daemon ${daemonId}'s id`);
    // Judged by when the JetStream server stored it, not by the daemon's own clock.
    const ageMs = Date.now() - context.getStoredAt().getTime();
    if (ageMs > this.config.QUEUE_RUNTIME_OFFLINE_AFTER_MS) return;
    const arrivedAt = new Date();
    // The CTE reads the row as it was before this statement: the previous heartbeat's arrival. A
    // runtime never changes daemon: a heartbeat for another daemon's runtime changes nothing. A
    // heartbeat after a silence longer than the offline window starts a new run of heartbeats
    // (`online_since`): the sweeper gives a daemon back from a disconnect a full window to renew.
    const rows: Array<{ first: boolean; previous: Date | null }> = await this.dataSource.query(
      `with before as (select last_heartbeat_at, offline_since from runtime_presence where runtime_id = $1)
       insert into runtime_presence (runtime_id, daemon_id, last_heartbeat_at, offline_since, online_since)
       values ($1, $2, $3, null, $3)
       on conflict (runtime_id) do update set last_heartbeat_at = excluded.last_heartbeat_at, offline_since = null,
         online_since = case
           when runtime_presence.offline_since is not null
             or runtime_presence.last_heartbeat_at < excluded.last_heartbeat_at - make_interval(secs => $4 / 1000.0)
           then excluded.last_heartbeat_at
           else runtime_presence.online_since end
         where runtime_presence.daemon_id = excluded.daemon_id
       returning (select last_heartbeat_at from before) as previous,
                 coalesce((select offline_since is not null from before), true) as first`,
      [heartbeat.payload.runtimeId, daemonId, arrivedAt.toISOString(), this.config.QUEUE_RUNTIME_OFFLINE_AFTER_MS],
    );
    const row = rows[0];
    if (!row) {
      this.logger.warn({ event: 'heartbeat_ignored', runtimeId: heartbeat.payload.runtimeId, daemonId }, `heartbeat of runtime ${heartbeat.payload.runtimeId} from daemon ${daemonId}, which does not hold it, ignored`);
      return;
    }
    // Work queued while nobody was known to hold the runtime got no nudge: its holder hears now.
    if (row.first) await this.nudger.nudge([heartbeat.payload.runtimeId]);
    this.logGap(heartbeat, row.previous, arrivedAt);
  }

  private logGap(heartbeat: EventOf<'runtime.heartbeat'>, previous: Date | null, arrivedAt: Date): void {
    if (previous === null) return;
    const gapMs = lateHeartbeatGapMs({ previousAt: new Date(previous).getTime(), at: arrivedAt.getTime(), intervalMs: this.config.QUEUE_HEARTBEAT_INTERVAL_MS });
    if (gapMs === undefined) return;
    this.logger.warn(
      { event: 'runtime_heartbeat_gap', runtimeId: heartbeat.payload.runtimeId, daemonId: heartbeat.payload.daemonId, gapMs, offlineAfterMs: this.config.QUEUE_RUNTIME_OFFLINE_AFTER_MS },
      `runtime ${heartbeat.payload.runtimeId}: heartbeat ${gapMs} ms after the previous one`,
    );
  }
}
