import { DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import type { DataSource } from 'typeorm';
import { STREAM_CATALOG, parseEvent, subjects, type AgentMessage } from '@switchyard/contracts';
import type { MessagingConnection } from '@switchyard/messaging';
import type { ServerFrame } from './live.frames';
import { TaskFeedSequencer } from './task-feed.sequencer';
import { readTimelineAfter } from './timeline-view.reader';

/** How long messages that overtook a missing seq wait for it before they are sent anyway. */
const GAP_WAIT_MS = 2_000;

export interface TaskFeedOptions {
  readonly taskId: string;
  readonly afterSeq: number;
  readonly connection: MessagingConnection;
  readonly dataSource: DataSource;
  readonly sanitize: (message: AgentMessage) => AgentMessage;
  readonly send: (frame: ServerFrame) => void;
  readonly onFailure: (error: unknown) => void;
}

/**
 * One client's feed of one task. The rows after the client's seq come from the `task_message`
 * view; then an ordered JetStream consumer on the task's subjects delivers its events from the
 * stream, old and new alike, so live messages never wait for the projector or the database, and
 * the sequencer drops what the view already sent. The consumer is ephemeral: nothing to clean up
 * server-side if the gateway dies.
 */
export class TaskFeed {
  private messages: ConsumerMessages | undefined;
  private stopped = false;
  private gapTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: TaskFeedOptions) {}

  async start(): Promise<void> {
    const { connection, taskId } = this.options;
    const sequencer = new TaskFeedSequencer(taskId, this.options.afterSeq, this.options.sanitize);
    for await (const page of readTimelineAfter(this.options.dataSource, taskId, this.options.afterSeq)) {
      if (this.stopped) return;
      for (const frame of sequencer.replayed(page)) this.options.send(frame);
    }
    const consumer = await connection.jetstream.consumers.get(connection.namespace.stream(STREAM_CATALOG.TASK_EVENTS.name), {
      // One subject as a string: a list needs nats-server 2.10.
      filter_subjects: connection.namespace.subject(subjects.aggregateFilter('task', taskId)),
      deliver_policy: DeliverPolicy.All,
    });
    if (this.stopped) return;
    this.messages = await consumer.consume();
    void (async () => {
      try {
        for await (const message of this.messages!) {
          const parsed = parseEvent(message.json());
          // A malformed event is the projector's to dead-letter; the feed skips it.
          if (!parsed.ok) continue;
          for (const frame of sequencer.streamed(parsed.event)) this.options.send(frame);
          if (sequencer.holding && !this.gapTimer) {
            this.gapTimer = setTimeout(() => {
              this.gapTimer = undefined;
              if (!this.stopped) for (const frame of sequencer.releaseHeld()) this.options.send(frame);
            }, GAP_WAIT_MS);
          }
        }
      } catch (error) {
        if (!this.stopped) this.options.onFailure(error);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.gapTimer);
    await this.messages?.close().catch(() => undefined);
  }
}
