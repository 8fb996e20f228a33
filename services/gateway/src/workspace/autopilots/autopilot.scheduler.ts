import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { JsonLogger } from '@switchyard/service-kit';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG, GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { ApiError } from '../common/api-error';
import { TasksService } from '../tasks/tasks.service';
import { TaskTriggersRepository } from '../triggers/task-triggers.repository';
import { AUTOPILOT_TRIGGER_PREFIX, AutopilotFiringService } from './autopilot-firing.service';
import { dueMinutes, floorToMinute, parseCronExpression } from './cron-expression';
import { AutopilotsRepository } from './autopilots.repository';

/**
 * The minute in ISO 8601 without seconds (`2030-01-07T09:00Z`): the request id derived from the
 * trigger key must be a NATS subject segment, which a `.` (as in `.000Z`) would split.
 */
export function scheduleDiscriminator(minute: Date): string {
  return `${minute.toISOString().slice(0, 16)}Z`;
}

/** Missed minutes older than this before a tick are not looked for (bounds the work after a long outage). */
export const SCHEDULE_LOOKBACK_MS = 7 * 24 * 60 * 60_000;

export interface TickReport {
  /** `<autopilotId>@<minute ISO>` for each firing this tick wrote. */
  readonly fired: string[];
  /** Due minutes passed over because a later one was due too (catch-up fires only the latest). */
  readonly skipped: number;
}

/**
 * Fires scheduled autopilots. Every replica ticks; per autopilot, one transaction locks its row
 * (`for update skip locked`: a replica busy with it is passed over), takes the due minutes after
 * the last fired one, writes a firing for the **latest** only, and records it as `last_fired_minute`;
 * the firing's key `autopilot:<id>:schedule:<minute>` is unique besides, so a minute fires once.
 * After the commit the firing is sent to the queue.
 */
@Injectable()
export class AutopilotScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly autopilots: AutopilotsRepository,
    private readonly firing: AutopilotFiringService,
    private readonly tasks: TasksService,
    private readonly triggers: TaskTriggersRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    const every = this.config.GATEWAY_AUTOPILOT_TICK_MS;
    if (every === 0) return;
    this.timer = setInterval(() => {
      // One tick at a time per replica: a slow one is not overlapped by the next.
      if (this.running) return;
      this.running = this.tick(new Date())
        .catch((error: unknown) => this.logger.error({ event: 'autopilot_tick_failed', err: error }, 'autopilot tick failed'))
        .finally(() => (this.running = undefined));
    }, every);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass at `now`; tests call it with a fixed clock. */
  async tick(now: Date): Promise<TickReport> {
    const fired: string[] = [];
    let skipped = 0;
    for (const id of await this.autopilots.scheduledIds()) {
      try {
        const outcome = await this.fireDue(id, now);
        if (outcome) {
          fired.push(`${id}@${outcome.minute.toISOString()}`);
          skipped += outcome.skipped;
        }
      } catch (error) {
        this.logger.warn({ event: 'autopilot_schedule_failed', autopilotId: id, err: error }, `autopilot ${id}: its scheduled firing failed`);
      }
    }
    await this.resendPending();
    return { fired, skipped };
  }

  private async fireDue(id: string, now: Date): Promise<{ minute: Date; skipped: number } | undefined> {
    const to = floorToMinute(now);
    const written = await this.autopilots.transaction(async (runner) => {
      const autopilot = await this.autopilots.lockScheduled(runner, id);
      if (!autopilot?.schedule) return undefined;
      const since = Math.max(
        floorToMinute(new Date(autopilot.scheduleSince)).getTime(),
        autopilot.lastFiredMinute === null ? 0 : Date.parse(autopilot.lastFiredMinute),
        to.getTime() - SCHEDULE_LOOKBACK_MS,
      );
      const due = dueMinutes(parseCronExpression(autopilot.schedule), new Date(since), to);
      const minute = due.at(-1);
      if (!minute) return undefined;
      await this.autopilots.setLastFiredMinute(runner, { id, minute });
      try {
        await this.tasks.usableAgent(autopilot.workspaceId, autopilot.agentId);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // The minute is spent either way: an agent fixed later does not get a burst of old firings.
        this.logger.warn({ event: 'autopilot_agent_unusable', autopilotId: id, minute, code: error.code }, `autopilot ${id} skipped ${minute.toISOString()}: ${error.message}`);
        return undefined;
      }
      const firing = await this.firing.write(runner, { autopilot, trigger: 'schedule', discriminator: scheduleDiscriminator(minute), firedAt: minute, payload: undefined });
      return { workspaceId: autopilot.workspaceId, trigger: firing.trigger, minute, skipped: due.length - 1 };
    });
    if (!written) return undefined;
    if (written.skipped > 0) {
      this.logger.info({ event: 'autopilot_catch_up', autopilotId: id, minute: written.minute, skipped: written.skipped }, `autopilot ${id}: ${written.skipped} earlier due minutes not fired`);
    }
    await this.firing.send(written.workspaceId, written.trigger);
    return { minute: written.minute, skipped: written.skipped };
  }

  /**
   * Firings written but not accepted by the queue (it was down, or a replica died between commit
   * and send) are sent again with their request id, for an hour; a minute old at least, so a firing
   * being sent right now by another replica is left to it.
   */
  private async resendPending(): Promise<void> {
    const pending = await this.triggers.pendingByPrefix({ prefix: AUTOPILOT_TRIGGER_PREFIX, olderThanSeconds: 60, youngerThanSeconds: 3_600, limit: 50 });
    for (const { workspaceId, trigger } of pending) {
      try {
        await this.firing.send(workspaceId, trigger);
      } catch (error) {
        this.logger.warn({ event: 'autopilot_resend_failed', triggerKey: trigger.triggerKey, err: error }, `autopilot firing ${trigger.triggerKey} still not sent`);
      }
    }
  }
}
