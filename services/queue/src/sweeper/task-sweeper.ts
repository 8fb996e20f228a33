import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { OutboxRelay } from '@switchyard/event-store';
import { MESSAGING_CONNECTION, connectionStatus, type MessagingConnection } from '@switchyard/messaging';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import { WorkAvailableNudger } from '../claim/work-available.nudger';
import { QueueMetrics } from '../metrics/queue.metrics';
import type { TaskCommand } from '../domain/task.commands';
import type { Task } from '../domain/task.state';
import { commandErrorCodeOf } from '../domain/task-refusal';
import { runIdempotentCommand } from '../commands/run-idempotent-command';
import { overdueWindowsOf, retryBackoffOf, type QueueConfig } from '../queue.config';
import { QUEUE_CONFIG, QUEUE_LOGGER } from '../queue.injection-keys';
import { runtimesWithWorkFallenDue } from '../retry/due-retries.query';
import { applyThenRetry } from '../retry/enqueue-retry';
import { findOverdueWork, markSilentRuntimesOffline, type OverdueTask } from './overdue-work.query';

const SWEEP_BATCH = 500;

/**
 * Nothing stuck (design §4.4): on every tick, attempts on runtimes silent past the reconnect grace
 * fail `runtime_offline`,
 * missed start deadlines requeue, missed leases time out, expired queued work fails, and each
 * failure gets its retry. Every action is an idempotent command (`sweep:<kind>:<task>:<attempt>`),
 * so replicas sweeping at once apply each at most once. Work it puts back (a requeue, a retry)
 * nudges the runtime's daemons once committed, as commands do, instead of waiting for their poll.
 */
@Injectable()
export class TaskSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  /**
   * The queue could not hear the daemons: a sweep failed (the database was unreachable, so
   * heartbeats, renewals and reports went unrecorded), or its NATS connection was down (they never
   * reached it). Either way the silence of that time is the queue's own.
   */
  private blind = false;
  private natsDown = false;
  /** Before this (epoch ms), silence is not judged: see `sweepOnce`. */
  private judgeSilenceFrom = 0;
  /** Deferred work due up to here was nudged; from boot, everything already due is nudged once. */
  private dueCheckedUpTo = new Date(0);

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(QUEUE_CONFIG) private readonly config: QueueConfig,
    @Inject(QUEUE_LOGGER) private readonly logger: JsonLogger,
    private readonly relay: OutboxRelay,
    private readonly nudger: WorkAvailableNudger,
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    private readonly metrics: QueueMetrics,
  ) {}

  onApplicationBootstrap(): void {
    void this.watchNatsConnection();
    this.timer = setInterval(() => {
      // Ticks chain: a slow sweep delays the next instead of overlapping it.
      this.running = this.running
        .then(async () => {
          await this.sweepOnce();
        })
        .catch((error: unknown) => {
          this.blind = true;
          this.logger.error({ err: error }, 'sweep failed');
        });
    }, this.config.QUEUE_SWEEP_INTERVAL_MS);
  }

  /** While NATS is away no silence is judged; once it is back, not for one more window. */
  private async watchNatsConnection(): Promise<void> {
    for await (const status of connectionStatus(this.connection)) {
      if (status.type === 'disconnect') {
        this.natsDown = true;
        this.logger.warn({ event: 'sweeper_deaf' }, 'NATS connection lost; silence is not judged until it is back');
      } else if (status.type === 'reconnect') {
        this.natsDown = false;
        this.blind = true;
      }
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /**
   * One pass; returns how many tasks it changed. After a pass failed (the database unreachable) or
   * while and after the queue's NATS connection was down, the heartbeats, renewals and start
   * reports of that time could not reach it or be recorded, so the silence they left is the
   * queue's, not the daemons': for one lease or offline window (the longer) only expiries are
   * judged, which gives every live daemon a full window to be heard again.
   */
  async sweepOnce(now = new Date()): Promise<number> {
    if (this.blind) {
      this.blind = false;
      this.judgeSilenceFrom = now.getTime() + Math.max(this.config.QUEUE_LEASE_MS, this.config.QUEUE_RUNTIME_OFFLINE_AFTER_MS);
      this.logger.warn({ event: 'sweeper_recovered', judgeSilenceFrom: new Date(this.judgeSilenceFrom).toISOString() }, 'database reachable again; silence is judged after one window');
    }
    const judgeSilence = !this.natsDown && now.getTime() >= this.judgeSilenceFrom;
    if (judgeSilence) await markSilentRuntimesOffline(this.dataSource, { now, offlineAfterMs: this.config.QUEUE_RUNTIME_OFFLINE_AFTER_MS });
    const overdue = (await findOverdueWork(this.dataSource, { now, windows: overdueWindowsOf(this.config), limit: SWEEP_BATCH })).filter(
      (item) => judgeSilence || item.kind === 'expired',
    );
    let changed = 0;
    for (const item of overdue) {
      if (await this.act(item, now)) changed += 1;
    }
    if (changed > 0) this.relay.wake();
    await this.nudgeWorkFallenDue(now);
    return changed;
  }

  /** A backed-off retry that fell due since the last pass: its runtime's daemons hear it now. */
  private async nudgeWorkFallenDue(now: Date): Promise<void> {
    const runtimeIds = await runtimesWithWorkFallenDue(this.dataSource, { after: this.dueCheckedUpTo, upTo: now });
    this.dueCheckedUpTo = now;
    if (runtimeIds.length > 0) await this.nudger.nudge(runtimeIds);
  }

  private async act(item: OverdueTask, now: Date): Promise<boolean> {
    const requestId = `sweep:${item.kind}:${item.taskId}:${item.attempt}`;
    const reply = await runIdempotentCommand({
      dataSource: this.dataSource,
      requestId,
      commandType: `sweep.${item.kind}`,
      sender: null,
      onCommitted: this.metrics.observeCommitted,
      execute: async (manager) => {
        const cause = { requestId, correlationId: requestId };
        const { decision, state, willRetry } = await applyThenRetry({ manager, cause, now, backoff: retryBackoffOf(this.config), command: this.commandFor(item, now) });
        if (!decision.ok) return { ok: false, error: { code: commandErrorCodeOf(decision.refusal.code), message: decision.refusal.message, retryable: false } };
        const task = state as Task;
        return { ok: true, result: { taskId: task.taskId, state: task.status, runtimeId: task.runtimeId, workQueued: willRetry || task.status === 'queued' } };
      },
    });
    if (reply.ok && !reply.alreadyApplied) {
      this.logger.info({ taskId: item.taskId, attempt: item.attempt, sweep: item.kind, state: reply.result.state }, 'sweeper changed a task');
      if (reply.result.workQueued) await this.nudger.nudge([reply.result.runtimeId]);
      return true;
    }
    return false;
  }

  private commandFor(item: OverdueTask, now: Date): TaskCommand {
    const base = { taskId: item.taskId, now: now.toISOString() };
    switch (item.kind) {
      case 'runtime_offline':
        return {
          ...base,
          kind: 'runtime_offline',
          attempt: item.attempt,
          daemonId: item.daemonId ?? '',
          message: `No heartbeat from the runtime for ${this.config.QUEUE_RECONNECT_GRACE_MS} ms: its daemon did not reconnect within the grace`,
        };
      case 'start_deadline':
        return { ...base, kind: 'timeout', attempt: item.attempt, timeout: 'start_deadline', limitMs: this.config.QUEUE_START_DEADLINE_MS };
      case 'lease':
        return { ...base, kind: 'timeout', attempt: item.attempt, timeout: 'lease', limitMs: this.config.QUEUE_LEASE_MS };
      case 'expired':
        // The issue's `queued_expired`: the reason stays `expired`, the message says which expiry.
        return { ...base, kind: 'expire', cause: 'expired', message: 'Waited queued past its TTL: not claimed before its expiresAt' };
      case 'runtime_long_offline':
        return {
          ...base,
          kind: 'expire',
          cause: 'expired',
          message: `Its runtime has been offline for more than ${this.config.QUEUE_EXPIRE_OFFLINE_QUEUED_AFTER_MS} ms`,
        };
    }
  }
}
