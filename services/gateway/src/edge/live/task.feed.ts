import type { DataSource } from 'typeorm';
import { STREAM_CATALOG, subjects, type AgentMessage } from '@switchyard/contracts';
import { openOrderedReplay, type MessagingConnection, type OrderedReplay } from '@switchyard/messaging';
import { AttemptHolderCheck } from './attempt-holder.check';
import type { ServerFrame } from './live.frames';
import { TaskFeedSequencer } from './task-feed.sequencer';
import { eventOf, firstStreamedMessageSeq } from './task-stream.reader';
import { readTimelineRange } from './timeline-view.reader';

/** How long messages that overtook a missing seq wait for it before the view is asked and they are sent anyway. */
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
 * One client's feed of one task. The stream leads: an ordered JetStream consumer on the task's
 * subjects delivers every event it holds, old and new alike (messages of every kind and lifecycle
 * events, in the order they happened), so live messages never wait for the projector or the
 * database. Only the rows the stream no longer holds, below its first message of the task, come
 * from the `task_message` view, sent before the stream is read. The sequencer drops what the
 * client already has. A message not published by the daemon holding its attempt is skipped before
 * the sequencer sees it, so it takes no seq (the projector dead-letters it). The consumer is
 * ephemeral: nothing to clean up server-side if the gateway dies.
 */
export class TaskFeed {
  private replay: OrderedReplay | undefined;
  private stopped = false;
  private gapTimer: NodeJS.Timeout | undefined;
  private readonly holders: AttemptHolderCheck;

  constructor(private readonly options: TaskFeedOptions) {
    this.holders = new AttemptHolderCheck({ taskId: options.taskId, dataSource: options.dataSource });
  }

  async start(): Promise<void> {
    const { connection, dataSource, taskId, afterSeq, sanitize } = this.options;
    const firstStreamedSeq = await firstStreamedMessageSeq({ connection, taskId, isShown: (subject, event) => this.holders.isFromHolder(subject, event) });
    const sequencer = new TaskFeedSequencer({ taskId, afterSeq, firstStreamedSeq, sanitize });
    const viewRange = sequencer.viewRange;
    if (viewRange) {
      for await (const page of readTimelineRange(dataSource, taskId, viewRange)) {
        if (this.stopped) return;
        this.sendAll(sequencer.replayed(page));
      }
    }
    sequencer.handOver();
    const replay = await openOrderedReplay(connection, { stream: STREAM_CATALOG.TASK_EVENTS.name, subject: subjects.aggregateFilter('task', taskId) });
    this.replay = replay;
    if (this.stopped) {
      await replay.close().catch(() => undefined);
      return;
    }
    void this.follow(replay, sequencer);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.gapTimer);
    await this.replay?.close().catch(() => undefined);
  }

  private async follow(replay: OrderedReplay, sequencer: TaskFeedSequencer): Promise<void> {
    try {
      for await (const message of replay.messages) {
        const event = eventOf(() => message.json());
        // A malformed event, or a message its attempt's holder did not publish, is the projector's
        // to dead-letter; the feed skips it.
        if (!event) continue;
        if (event.type === 'task.message' && !(await this.holders.isFromHolder(message.subject, event))) continue;
        if (this.stopped) return;
        this.sendAll(sequencer.streamed(event));
        this.watchGap(sequencer);
      }
    } catch (error) {
      if (!this.stopped) this.options.onFailure(error);
    }
  }

  /** The stream did not fill a gap in time: the view gives the rows it has there, the rest is given up. */
  private async closeGap(sequencer: TaskFeedSequencer): Promise<void> {
    this.gapTimer = undefined;
    const gap = sequencer.gap;
    if (this.stopped || !gap) return;
    try {
      for await (const page of readTimelineRange(this.options.dataSource, this.options.taskId, gap)) {
        if (this.stopped) return;
        this.sendAll(sequencer.gapFilled(page));
      }
      if (this.stopped) return;
      // Only the gap that waited: one that opened meanwhile gets its own wait.
      this.sendAll(sequencer.releaseHeld(gap.beforeSeq));
      this.watchGap(sequencer);
    } catch (error) {
      if (!this.stopped) this.options.onFailure(error);
    }
  }

  private watchGap(sequencer: TaskFeedSequencer): void {
    if (sequencer.holding && !this.gapTimer) this.gapTimer = setTimeout(() => void this.closeGap(sequencer), GAP_WAIT_MS);
  }

  private sendAll(frames: readonly ServerFrame[]): void {
    for (const frame of frames) this.options.send(frame);
  }
}
