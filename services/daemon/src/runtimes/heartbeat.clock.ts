import { lateHeartbeatGapMs } from '@switchyard/contracts';
import type { JsonLogger } from '@switchyard/service-kit';

/**
 * Beats at once and then every interval, on its own timer: nothing else the daemon does waits in
 * front of it. A beat still in flight when the next is due (NATS slow or away) is not doubled; the
 * next tick tries again. Every gap longer than the interval plus a second is logged with its
 * length, since the queue judges a runtime offline by these gaps.
 */
export class HeartbeatClock {
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private lastBeatAt: number | undefined;

  constructor(
    private readonly options: {
      readonly intervalMs: number;
      readonly beat: () => Promise<void>;
      readonly logger: JsonLogger;
    },
  ) {}

  start(): void {
    this.tick();
    this.timer = setInterval(() => this.tick(), this.options.intervalMs);
  }

  /** A beat now, outside the interval (after a reconnect); skipped like a tick if one is in flight. */
  beatNow(): void {
    this.tick();
  }

  /** Resolves once no beat is in flight. */
  async settled(): Promise<void> {
    await this.inFlight;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.inFlight;
  }

  private tick(): void {
    if (this.inFlight) {
      this.options.logger.warn({ event: 'heartbeat_skipped', intervalMs: this.options.intervalMs }, 'previous heartbeat still in flight; skipping this one');
      return;
    }
    this.inFlight = this.options
      .beat()
      .then(() => this.noteBeat())
      .catch((error: unknown) => this.options.logger.warn({ err: error, event: 'heartbeat_failed' }, 'heartbeat not published'))
      .finally(() => (this.inFlight = undefined));
  }

  private noteBeat(): void {
    const now = Date.now();
    const gapMs = this.lastBeatAt === undefined ? undefined : lateHeartbeatGapMs({ previousAt: this.lastBeatAt, at: now, intervalMs: this.options.intervalMs });
    this.lastBeatAt = now;
    if (gapMs !== undefined) {
      this.options.logger.warn({ event: 'heartbeat_gap', gapMs, intervalMs: this.options.intervalMs }, `heartbeat ${gapMs} ms after the previous one (interval ${this.options.intervalMs} ms)`);
    }
  }
}
