import type { JsonLogger } from '@switchyard/service-kit';

export interface BatchFigures {
  readonly messages: number;
  /** Timeline rows the batch mapped to, and how many of them were new. */
  readonly rows: number;
  readonly insertedRows: number;
  readonly usageRows: number;
  readonly writeMs: number;
  /** occurredAt of the newest event in the batch. */
  readonly newestOccurredAt: string | undefined;
  /** When JetStream stored the batch's newest message (the server's clock). */
  readonly newestStoredAt: Date | undefined;
}

interface Counters {
  batches: number;
  messages: number;
  rows: number;
  insertedRows: number;
  usageRows: number;
  deadLettered: number;
  writeMs: number;
}

const zero = (): Counters => ({ batches: 0, messages: 0, rows: 0, insertedRows: 0, usageRows: 0, deadLettered: 0, writeMs: 0 });

/** Throughput and lag counters of one projector: totals since start, and a window for logging. */
export class ProjectorStats {
  private readonly total = zero();
  private window = zero();
  private windowStartedAt = Date.now();
  private newestOccurredAt: string | undefined;
  private newestStoredAt: Date | undefined;

  recordBatch(figures: BatchFigures): void {
    for (const counters of [this.total, this.window]) {
      counters.batches += 1;
      counters.messages += figures.messages;
      counters.rows += figures.rows;
      counters.insertedRows += figures.insertedRows;
      counters.usageRows += figures.usageRows;
      counters.writeMs += figures.writeMs;
    }
    if (figures.newestOccurredAt !== undefined && (this.newestOccurredAt === undefined || figures.newestOccurredAt > this.newestOccurredAt)) {
      this.newestOccurredAt = figures.newestOccurredAt;
    }
    if (figures.newestStoredAt !== undefined && (this.newestStoredAt === undefined || figures.newestStoredAt > this.newestStoredAt)) {
      this.newestStoredAt = figures.newestStoredAt;
    }
  }

  /** When JetStream stored the newest message written so far; undefined before the first batch. */
  lastWrittenStoredAt(): Date | undefined {
    return this.newestStoredAt;
  }

  recordDeadLetter(): void {
    this.total.deadLettered += 1;
    this.window.deadLettered += 1;
  }

  totals(): Readonly<Counters> {
    return { ...this.total };
  }

  /** The window's figures, then a new window. */
  takeWindow(now = Date.now()): Record<string, number | null> {
    const window = this.window;
    const seconds = Math.max((now - this.windowStartedAt) / 1000, 0.001);
    this.window = zero();
    this.windowStartedAt = now;
    return {
      batches: window.batches,
      messages: window.messages,
      messagesPerSecond: Math.round(window.messages / seconds),
      rowsInserted: window.insertedRows,
      duplicateRows: window.rows - window.insertedRows,
      usageRows: window.usageRows,
      deadLettered: window.deadLettered,
      averageBatchSize: window.batches === 0 ? 0 : Math.round(window.messages / window.batches),
      averageWriteMs: window.batches === 0 ? 0 : Math.round(window.writeMs / window.batches),
      // How far behind the newest event written is; grows while the projector is behind.
      eventLagMs: this.newestOccurredAt === undefined ? null : Math.max(0, now - Date.parse(this.newestOccurredAt)),
    };
  }
}

/**
 * Logs `projector_stats` every interval while there is traffic or a backlog: throughput of the
 * window and lag, both as the consumer's pending count and as the age of the newest event written.
 */
export function startStatsLog(options: {
  readonly stats: ProjectorStats;
  readonly intervalMs: number;
  readonly logger: JsonLogger;
  /** Messages the consumer has not delivered or not had acknowledged yet. */
  readonly pending: () => Promise<number | undefined>;
}): { stop(): void } {
  const timer = setInterval(() => {
    void (async () => {
      const pending = await options.pending().catch(() => undefined);
      const window = options.stats.takeWindow();
      if (window['messages'] === 0 && !pending) return;
      options.logger.info({ event: 'projector_stats', pendingMessages: pending ?? null, ...window }, 'transcript projector throughput and lag');
    })();
  }, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
