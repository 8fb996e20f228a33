import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { MessagingConnection, MessagingLogger } from '@switchyard/messaging';
import type { DataSource } from 'typeorm';
import { describeCause } from '../errors/event-store.errors';
import type { StoredEvent, StoredEventRow } from '../store/stored-event.types';
import { publishBatch } from './outbox-batch.publisher';
import { SELECT_UNPUBLISHED_SQL, markPublished, selectUnpublishedParameters, toStoredEvents } from './outbox.repository';
import { OUTBOX_RELAY_LOCK_KEY, RelayLeadershipLock } from './relay-leadership.lock';

export interface OutboxRelayOptions {
  readonly dataSource: DataSource;
  /** JetStream connection (its namespace applies to every subject). */
  readonly connection: MessagingConnection;
  /** Defaults to the connection's logger. */
  readonly logger?: MessagingLogger;
  /** Poll period of the active relay and of standbys trying the lock; default 500 ms. */
  readonly pollIntervalMs?: number;
  /** Rows read per batch; default 256. */
  readonly batchSize?: number;
  /** Aggregates published in parallel within a batch; default 16. */
  readonly publishConcurrency?: number;
  /** Publish attempts per event before its aggregate is set aside; default 5. */
  readonly publishAttempts?: number;
  readonly publishTimeoutMs?: number;
  /** Upper bound of the pause after errors and of how long a failing aggregate is set aside; default 30 s. */
  readonly maximumBackoffMs?: number;
  /** Advisory lock key shared by every relay that must not run at the same time. */
  readonly lockKey?: string;
  /** Shown in logs to tell relay instances apart. */
  readonly name?: string;
  /**
   * Awaited after each acknowledged publish, before the row is marked. For tests that simulate a
   * crash between publish and mark; a hook that throws stops that aggregate for the batch.
   */
  readonly afterPublish?: (event: StoredEvent) => Promise<void> | void;
}

export interface OutboxRelayStatistics {
  /** Events acknowledged by JetStream and marked published by this instance. */
  readonly published: number;
  /** Of those, how many JetStream already held (deduplicated by message id). */
  readonly duplicates: number;
  readonly failedPublishes: number;
}

interface SetAside {
  readonly failures: number;
  readonly until: number;
}

/**
 * Publishes `outbox_event` rows to JetStream and marks them published. One relay per database is
 * active (it holds a Postgres advisory lock on a dedicated connection); the others poll the lock
 * and take over when the active one stops or its connection dies. Even if two relays overlap (a
 * relay whose connection died may still finish its batch), message ids make JetStream store each
 * event once and the per-aggregate chains keep version order.
 */
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly lock: RelayLeadershipLock;
  private readonly logger: MessagingLogger;
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly maximumBackoffMs: number;
  private readonly setAside = new Map<string, SetAside>();
  private loop: Promise<void> | undefined;
  private abort = new AbortController();
  private stopping = false;
  private wakeRequested = false;
  private interruptIdle: (() => void) | undefined;
  private consecutiveErrors = 0;
  private counters = { published: 0, duplicates: 0, failedPublishes: 0 };

  constructor(private readonly options: OutboxRelayOptions) {
    this.lock = new RelayLeadershipLock(options.dataSource, options.lockKey ?? OUTBOX_RELAY_LOCK_KEY);
    this.logger = options.logger ?? options.connection.logger;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.batchSize = options.batchSize ?? 256;
    this.maximumBackoffMs = options.maximumBackoffMs ?? 30_000;
  }

  /** Whether this instance currently holds the lock and relays. */
  get isActive(): boolean {
    return this.lock.held;
  }

  get isRunning(): boolean {
    return this.loop !== undefined;
  }

  get statistics(): OutboxRelayStatistics {
    return { ...this.counters };
  }

  /** Starts polling in the background; no-op when already running. */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.abort = new AbortController();
    this.loop = this.run();
  }

  /** Publishes without waiting for the next poll; call after committing an append. */
  wake(): void {
    this.wakeRequested = true;
    this.interruptIdle?.();
  }

  /**
   * Finishes the batch in flight (publish retries are cut short; acknowledged rows are still
   * marked), releases the lock so a standby takes over at its next poll, and resolves.
   */
  async stop(): Promise<void> {
    const loop = this.loop;
    if (!loop) return;
    this.stopping = true;
    this.abort.abort();
    this.interruptIdle?.();
    await loop;
    this.loop = undefined;
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  private async run(): Promise<void> {
    const name = this.options.name;
    try {
      while (!this.stopping) {
        this.wakeRequested = false;
        let batchWasFull = false;
        try {
          const wasActive = this.lock.held;
          if (await this.lock.tryAcquire()) {
            if (!wasActive) this.logger.info({ relay: name }, 'outbox relay is active');
            batchWasFull = await this.relayOneBatch();
          }
          this.consecutiveErrors = 0;
        } catch (error) {
          this.consecutiveErrors += 1;
          this.logger.warn({ relay: name, error: describeCause(error), consecutiveErrors: this.consecutiveErrors }, 'outbox relay iteration failed');
        }
        if (this.stopping) break;
        if (batchWasFull || this.wakeRequested) continue;
        await this.idle(this.consecutiveErrors === 0 ? this.pollIntervalMs : this.backoff(this.consecutiveErrors));
      }
    } finally {
      const wasActive = this.lock.held;
      await this.lock.release();
      if (wasActive) this.logger.info({ relay: name }, 'outbox relay stopped and released its lock');
    }
  }

  /** One batch; true when it was full and made progress, so the next one starts at once. */
  private async relayOneBatch(): Promise<boolean> {
    const rows = await this.lock.query<StoredEventRow[]>(
      SELECT_UNPUBLISHED_SQL,
      selectUnpublishedParameters({ batchSize: this.batchSize, skippedAggregateIds: this.aggregatesSetAside() }),
    );
    if (rows.length === 0) return false;
    const events = toStoredEvents(rows);
    const outcome = await publishBatch({
      connection: this.options.connection,
      events,
      concurrency: this.options.publishConcurrency ?? 16,
      publishAttempts: this.options.publishAttempts ?? 5,
      publishTimeoutMs: this.options.publishTimeoutMs,
      signal: this.abort.signal,
      afterPublish: this.options.afterPublish,
    });
    // Marked even when stopping: these are acknowledged. If marking fails they are published
    // again later and JetStream drops the repeats within its duplicate window.
    await markPublished(
      this.options.dataSource.manager,
      outcome.published.map((event) => event.eventId),
    );
    this.counters.published += outcome.published.length;
    this.counters.duplicates += outcome.duplicates;
    this.counters.failedPublishes += outcome.failures.length;
    for (const event of outcome.published) this.setAside.delete(event.aggregateId);
    for (const failure of outcome.failures) this.setAggregateAside(failure.event, failure.error);
    this.logger.debug(
      { relay: this.options.name, read: events.length, published: outcome.published.length, duplicates: outcome.duplicates, failed: outcome.failures.length },
      'outbox batch relayed',
    );
    return events.length === this.batchSize && outcome.published.length > 0;
  }

  private setAggregateAside(event: StoredEvent, error: unknown): void {
    if (this.abort.signal.aborted) return;
    const failures = (this.setAside.get(event.aggregateId)?.failures ?? 0) + 1;
    const delay = this.backoff(failures);
    this.setAside.set(event.aggregateId, { failures, until: Date.now() + delay });
    this.logger.warn(
      { relay: this.options.name, aggregateId: event.aggregateId, version: event.version, eventId: event.eventId, failures, retryInMs: delay, error: describeCause(error) },
      'outbox event not published; its aggregate waits',
    );
  }

  private aggregatesSetAside(): string[] {
    const now = Date.now();
    const waiting: string[] = [];
    for (const [aggregateId, entry] of this.setAside) {
      if (entry.until > now) waiting.push(aggregateId);
      // Published by another relay meanwhile, or failing no more: forget it eventually.
      else if (entry.until + this.maximumBackoffMs < now) this.setAside.delete(aggregateId);
    }
    return waiting;
  }

  private backoff(failures: number): number {
    return Math.min(this.pollIntervalMs * 2 ** Math.min(failures, 16), this.maximumBackoffMs);
  }

  private idle(milliseconds: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.interruptIdle = undefined;
        resolve();
      };
      const timer = setTimeout(done, milliseconds);
      this.interruptIdle = done;
    });
  }
}

/** The relay for a service: `start()` at boot, `wake()` after appends, `stop()` at shutdown. */
export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  return new OutboxRelay(options);
}
