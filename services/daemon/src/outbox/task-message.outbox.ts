import { context as otelContext, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { PublishError, isRetryableError, publish, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import { OutboxFileStore, type OutboxEntry } from './outbox-file.store';

/** How often a busy task's acknowledged mark is written (and always when its queue drains). */
const ACK_MARK_INTERVAL_MS = 20;
/** Publishes of one task in flight at once. */
const PUBLISH_WINDOW = 128;
/** Group commit: lines written within this window share one fsync. */
const SYNC_DELAY_MS = 10;
const RETRY_DELAY_MS = 500;
/**
 * A task's messages held in memory until acknowledged. Past this an enqueue waits (and so, through
 * the run's backpressure, does its CLI) until half have gone out: memory stays bounded when
 * JetStream is slower than the agent or away. The disk copy is what makes them durable.
 */
export const MAX_UNACKNOWLEDGED_PER_TASK = 1_000;

/** A message as it waits for its ack: the body already encoded, once, as it is published. */
interface PendingMessage {
  readonly taskId: string;
  readonly seq: number;
  readonly subject: string;
  readonly messageId: string;
  readonly payload: Uint8Array;
  /**
   * The run's trace, where the message was written: it is published later, from the task's pump.
   * Kept in memory only: what a restarted daemon publishes again goes out outside any trace.
   */
  readonly traceContext: Context;
}

const pendingMessage = (entry: OutboxEntry, bodyJson: string, traceContext: Context): PendingMessage => ({
  taskId: entry.taskId,
  seq: entry.seq,
  subject: entry.subject,
  messageId: entry.messageId,
  payload: Buffer.from(bodyJson),
  traceContext,
});

interface TaskQueue {
  readonly entries: PendingMessage[];
  /** Enqueues waiting for `entries` to shrink (see MAX_UNACKNOWLEDGED_PER_TASK). */
  readonly roomWaiters: Array<() => void>;
  /** Enqueued, not yet on disk: they join `entries` once written, so the task is not drained yet. */
  appending: number;
  closed: boolean;
  pumping: Promise<void> | undefined;
  readonly drainedWaiters: Array<() => void>;
  /**
   * Ends the task's publish retries at `stop()`. One per task rather than one for the outbox: each
   * retry wait listens on its signal, and many tasks retrying through an outage would pile their
   * listeners onto a shared one (MaxListenersExceededWarning past 10).
   */
  readonly stopController: AbortController;
}

/** Nothing of the task left to write or publish. */
function isIdle(queue: TaskQueue): boolean {
  return queue.entries.length === 0 && queue.appending === 0;
}

/**
 * Every `task.message` of this daemon goes through here: written to disk first, then published in
 * seq order per task with `Nats-Msg-Id` `<taskId>:<seq>`, retried until JetStream acknowledges
 * (across NATS outages and daemon restarts), and forgotten only after the ack.
 */
export class TaskMessageOutbox {
  private readonly queues = new Map<string, TaskQueue>();
  private syncTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  private dropped = 0;

  private constructor(
    private readonly store: OutboxFileStore,
    private readonly connection: MessagingConnection,
    private readonly logger: JsonLogger,
  ) {}

  /** Opens the outbox and resumes publishing whatever a previous run left unacknowledged. */
  static async open(options: { readonly directory: string; readonly connection: MessagingConnection; readonly logger: JsonLogger }): Promise<TaskMessageOutbox> {
    const store = new OutboxFileStore(options.directory);
    const outbox = new TaskMessageOutbox(store, options.connection, options.logger);
    const { tasks, pending } = await store.recover();
    for (const entry of pending) outbox.queueOf(entry.taskId).entries.push(pendingMessage(entry, JSON.stringify(entry.body), ROOT_CONTEXT));
    // The runs of a previous process died with it: none of its tasks gets another message, so
    // each one's files go once what it left is acknowledged (at once when nothing is left).
    for (const taskId of tasks) outbox.queueOf(taskId).closed = true;
    if (pending.length > 0) options.logger.info({ event: 'outbox_recovered', pending: pending.length }, 'resuming unacknowledged task messages');
    for (const taskId of outbox.queues.keys()) outbox.pump(taskId);
    return outbox;
  }

  /**
   * Durable once this resolves; published in the background. Calls need not wait for each other:
   * entries of a task are written and published in call order.
   */
  async enqueue(entry: OutboxEntry): Promise<void> {
    if (this.stopping) throw new Error('the outbox is stopping');
    const queue = this.queueOf(entry.taskId);
    const bodyJson = JSON.stringify(entry.body);
    const traceContext = otelContext.active();
    queue.appending += 1;
    try {
      await this.store.append(entry, bodyJson);
    } finally {
      queue.appending -= 1;
    }
    this.scheduleSync();
    queue.entries.push(pendingMessage(entry, bodyJson, traceContext));
    this.pump(entry.taskId);
    if (queue.entries.length > MAX_UNACKNOWLEDGED_PER_TASK && !this.stopping) await new Promise<void>((resolve) => queue.roomWaiters.push(resolve));
  }

  /** No more messages for the task: its files are removed once all (written ones included) are acknowledged. */
  closeTask(taskId: string): Promise<void> {
    this.queueOf(taskId).closed = true;
    this.pump(taskId);
    return Promise.resolve();
  }

  /** Resolves when every message of the task enqueued so far is acknowledged. */
  drained(taskId: string): Promise<void> {
    const queue = this.queues.get(taskId);
    // While a pump runs, its last acknowledgements (and the closed task's removal) are not done.
    if (!queue || (isIdle(queue) && !queue.pumping)) return Promise.resolve();
    return new Promise((resolve) => queue.drainedWaiters.push(resolve));
  }

  pendingCount(): number {
    return [...this.queues.values()].reduce((total, queue) => total + queue.entries.length, 0);
  }

  /** Messages that JetStream refused for good (e.g. larger than the stream's message size limit). */
  droppedCount(): number {
    return this.dropped;
  }

  /** Stops publishing; what is not acknowledged stays on disk for the next run. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const queue of this.queues.values()) {
      queue.stopController.abort();
      // Their messages are on disk: the next run publishes them.
      queue.roomWaiters.splice(0).forEach((resolve) => resolve());
    }
    clearTimeout(this.syncTimer);
    await Promise.allSettled([...this.queues.values()].flatMap((queue) => (queue.pumping ? [queue.pumping] : [])));
    await this.store.close();
  }

  private queueOf(taskId: string): TaskQueue {
    let queue = this.queues.get(taskId);
    if (!queue) {
      queue = { entries: [], roomWaiters: [], appending: 0, closed: false, pumping: undefined, drainedWaiters: [], stopController: new AbortController() };
      this.queues.set(taskId, queue);
    }
    return queue;
  }

  private pump(taskId: string): void {
    const queue = this.queueOf(taskId);
    if (queue.pumping) return;
    queue.pumping = this.publishInOrder(taskId, queue).finally(() => {
      queue.pumping = undefined;
      if (queue.entries.length > 0 && !this.stopping) this.pump(taskId);
      // A waiter that came in between the pump's last check and now.
      else if (isIdle(queue)) queue.drainedWaiters.splice(0).forEach((resolve) => resolve());
    });
  }

  /**
   * Publishes the task's queue head first, a window at a time: the window's publishes go out
   * back to back on the one connection (so they reach the stream in seq order) and their acks are
   * awaited in order. At the first failure the rest of the window counts as unacknowledged and is
   * published again from there; JetStream drops the repeats by message id.
   */
  private async publishInOrder(taskId: string, queue: TaskQueue): Promise<void> {
    let acknowledgedSeq: number | undefined;
    let markedAt = performance.now();
    while (queue.entries.length > 0 && !this.stopping) {
      const window = queue.entries.slice(0, PUBLISH_WINDOW);
      const publishes = window.map((entry) => this.publishOnce(entry, queue.stopController.signal));
      let acknowledged = 0;
      for (const outcome of publishes) {
        if ((await outcome) !== 'acknowledged') break;
        acknowledged += 1;
      }
      // Every promise of the window is settled before the next round (no unhandled rejections).
      await Promise.allSettled(publishes);
      if (acknowledged > 0) {
        acknowledgedSeq = window[acknowledged - 1]!.seq;
        queue.entries.splice(0, acknowledged);
      }
      if (queue.entries.length <= MAX_UNACKNOWLEDGED_PER_TASK / 2) queue.roomWaiters.splice(0).forEach((resolve) => resolve());
      if (acknowledged < window.length && !(await this.publishUntilAcknowledged(window[acknowledged]!, queue.stopController.signal))) break;
      if (acknowledged < window.length) {
        acknowledgedSeq = window[acknowledged]!.seq;
        queue.entries.shift();
      }
      // The mark only bounds what a restart publishes again (JetStream drops the repeats), so it
      // is written every few ms rather than per message.
      if (acknowledgedSeq !== undefined && performance.now() - markedAt >= ACK_MARK_INTERVAL_MS) {
        await this.store.markAcknowledged(taskId, acknowledgedSeq);
        markedAt = performance.now();
        acknowledgedSeq = undefined;
      }
    }
    if (queue.entries.length <= MAX_UNACKNOWLEDGED_PER_TASK / 2) queue.roomWaiters.splice(0).forEach((resolve) => resolve());
    if (acknowledgedSeq !== undefined) await this.store.markAcknowledged(taskId, acknowledgedSeq);
    if (isIdle(queue)) {
      if (queue.closed && !this.stopping) {
        await this.store.remove(taskId);
        this.queues.delete(taskId);
      }
      queue.drainedWaiters.splice(0).forEach((resolve) => resolve());
    }
  }

  /** One attempt; a message JetStream refuses for good counts as done (it can never succeed). */
  private async publishOnce(entry: PendingMessage, signal: AbortSignal): Promise<'acknowledged' | 'failed'> {
    try {
      await publish(this.connection, { subject: entry.subject, data: entry.payload, messageId: entry.messageId, traceContext: entry.traceContext, signal, retry: { maxAttempts: 1 } });
      return 'acknowledged';
    } catch (error) {
      if (error instanceof PublishError && !isRetryableError(error)) {
        this.refused(entry, error);
        return 'acknowledged';
      }
      return 'failed';
    }
  }

  /** True once acknowledged (or refused for good); false when the outbox stops first. */
  private async publishUntilAcknowledged(entry: PendingMessage, signal: AbortSignal): Promise<boolean> {
    for (;;) {
      try {
        await publish(this.connection, {
          subject: entry.subject,
          data: entry.payload,
          messageId: entry.messageId,
          traceContext: entry.traceContext,
          signal,
        });
        return true;
      } catch (error) {
        if (this.stopping) return false;
        if (error instanceof PublishError && !isRetryableError(error)) {
          this.refused(entry, error);
          return true;
        }
        this.logger.warn({ event: 'outbox_publish_retry', taskId: entry.taskId, seq: entry.seq, err: error }, 'task message not acknowledged yet, retrying');
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      }
    }
  }

  private refused(entry: PendingMessage, error: unknown): void {
    this.dropped += 1;
    this.logger.error({ event: 'outbox_message_refused', taskId: entry.taskId, seq: entry.seq, err: error }, 'JetStream refused a task message for good');
  }

  private scheduleSync(): void {
    if (this.syncTimer) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      this.store.sync().catch((error: unknown) => this.logger.error({ err: error }, 'outbox fsync failed'));
    }, SYNC_DELAY_MS);
  }
}
