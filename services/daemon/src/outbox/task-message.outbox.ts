import { PublishError, isRetryableError, publish, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import { OutboxFileStore, type OutboxEntry } from './outbox-file.store';

/** Group commit: lines written within this window share one fsync. */
const SYNC_DELAY_MS = 10;
const RETRY_DELAY_MS = 500;

interface TaskQueue {
  readonly entries: OutboxEntry[];
  closed: boolean;
  pumping: Promise<void> | undefined;
  readonly drainedWaiters: Array<() => void>;
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
  private readonly stopController = new AbortController();
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
    const { pending, closedTasks } = await store.recover();
    for (const entry of pending) outbox.queueOf(entry.taskId).entries.push(entry);
    for (const taskId of closedTasks) outbox.queueOf(taskId).closed = true;
    if (pending.length > 0) options.logger.info({ event: 'outbox_recovered', pending: pending.length }, 'resuming unacknowledged task messages');
    for (const taskId of outbox.queues.keys()) outbox.pump(taskId);
    return outbox;
  }

  /** Durable once this resolves; published in the background. */
  async enqueue(entry: OutboxEntry): Promise<void> {
    if (this.stopping) throw new Error('the outbox is stopping');
    await this.store.append(entry);
    this.scheduleSync();
    this.queueOf(entry.taskId).entries.push(entry);
    this.pump(entry.taskId);
  }

  /** No more messages for the task: its files are removed once all are acknowledged. */
  async closeTask(taskId: string): Promise<void> {
    await this.store.markClosed(taskId);
    this.queueOf(taskId).closed = true;
    this.pump(taskId);
  }

  /** Resolves when every message of the task enqueued so far is acknowledged. */
  drained(taskId: string): Promise<void> {
    const queue = this.queues.get(taskId);
    if (!queue || queue.entries.length === 0) return Promise.resolve();
    return new Promise((resolve) => queue.drainedWaiters.push(resolve));
  }

  pendingCount(): number {
    return [...this.queues.values()].reduce((total, queue) => total + queue.entries.length, 0);
  }

  /** Messages that JetStream refused for good (e.g. over the stream's size limit). */
  droppedCount(): number {
    return this.dropped;
  }

  /** Stops publishing; what is not acknowledged stays on disk for the next run. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stopController.abort();
    clearTimeout(this.syncTimer);
    await Promise.allSettled([...this.queues.values()].flatMap((queue) => (queue.pumping ? [queue.pumping] : [])));
    await this.store.close();
  }

  private queueOf(taskId: string): TaskQueue {
    let queue = this.queues.get(taskId);
    if (!queue) {
      queue = { entries: [], closed: false, pumping: undefined, drainedWaiters: [] };
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
    });
  }

  private async publishInOrder(taskId: string, queue: TaskQueue): Promise<void> {
    while (queue.entries.length > 0 && !this.stopping) {
      const entry = queue.entries[0]!;
      if (!(await this.publishUntilAcknowledged(entry))) return;
      await this.store.markAcknowledged(taskId, entry.seq);
      queue.entries.shift();
    }
    if (queue.entries.length === 0) {
      queue.drainedWaiters.splice(0).forEach((resolve) => resolve());
      if (queue.closed && !this.stopping) {
        await this.store.remove(taskId);
        this.queues.delete(taskId);
      }
    }
  }

  /** True once acknowledged (or refused for good); false when the outbox stops first. */
  private async publishUntilAcknowledged(entry: OutboxEntry): Promise<boolean> {
    for (;;) {
      try {
        await publish(this.connection, {
          subject: entry.subject,
          data: entry.body,
          messageId: entry.messageId,
          signal: this.stopController.signal,
        });
        return true;
      } catch (error) {
        if (this.stopping) return false;
        if (error instanceof PublishError && !isRetryableError(error)) {
          this.dropped += 1;
          this.logger.error({ event: 'outbox_message_refused', taskId: entry.taskId, seq: entry.seq, err: error }, 'JetStream refused a task message for good');
          return true;
        }
        this.logger.warn({ event: 'outbox_publish_retry', taskId: entry.taskId, seq: entry.seq, err: error }, 'task message not acknowledged yet, retrying');
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      }
    }
  }

  private scheduleSync(): void {
    if (this.syncTimer) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      this.store.sync().catch((error: unknown) => this.logger.error({ err: error }, 'outbox fsync failed'));
    }, SYNC_DELAY_MS);
  }
}
