import { timelineEntryOf, type AgentMessage, type SwitchyardEvent, type TaskMessageEvent, type TimelineEntry } from '@switchyard/contracts';
import type { ServerFrame } from './live.frames';
import { taskStatusChangeOf } from './task-status.mapper';

export interface TaskFeedSequencerOptions {
  readonly taskId: string;
  /** The last seq the client holds (-1: none). */
  readonly afterSeq: number;
  /** The seq of the first `task.message` of the task the stream still holds; undefined when it holds none. */
  readonly firstStreamedSeq: number | undefined;
  /** Redaction and cleaning applied to every live message before it leaves the gateway. */
  readonly sanitize: (message: AgentMessage) => AgentMessage;
}

/** Seqs to read from the `task_message` view: after `afterSeq`, below `beforeSeq` (no bound when undefined). */
export interface SeqRange {
  readonly afterSeq: number;
  readonly beforeSeq: number | undefined;
}

type HeldMessage = { readonly source: 'stream'; readonly event: TaskMessageEvent } | { readonly source: 'view'; readonly entry: TimelineEntry };

/** A status change waiting for the messages the stream put before it. */
interface HeldChange {
  /** The highest message seq the stream held before this event. */
  readonly position: number;
  readonly frame: ServerFrame;
}

/**
 * Orders one task's feed for one client. The stream is the source of truth: it holds every
 * message (rows and activity) and the lifecycle events in the order they happened. The view only
 * supplies the rows the stream no longer holds (below its first message of the task), and is
 * replayed first. Then:
 * - each message is sent once, in seq order: at or below the last seq sent is skipped; one that
 *   arrives ahead of a missing seq is held until the gap fills, or until `releaseHeld` gives up
 *   (a message JetStream refused for good never arrives);
 * - a lifecycle event becomes a `task` frame placed where the stream has it: after the messages
 *   before it, before those after it. One that came before the client's `afterSeq` is not sent
 *   again; one right after it may be (the client cannot tell us it saw it).
 * Fills a tool result's missing tool name. Pure. It trusts the messages it is handed: the feed
 * gives it only those published by their attempt's holder, so a forgery never takes a seq here.
 */
export class TaskFeedSequencer {
  private lastSeq: number;
  /** Highest message seq the stream delivered so far: where a lifecycle event read now stands. */
  private streamPosition: number;
  private readonly toolByCallId = new Map<string, string>();
  private readonly heldMessages = new Map<number, HeldMessage>();
  private readonly heldChanges: HeldChange[] = [];

  constructor(private readonly options: TaskFeedSequencerOptions) {
    this.lastSeq = options.afterSeq;
    this.streamPosition = options.afterSeq;
  }

  get lastSentSeq(): number {
    return this.lastSeq;
  }

  /** What the view must supply before the stream is read; undefined when the stream holds it all. */
  get viewRange(): SeqRange | undefined {
    const { afterSeq, firstStreamedSeq } = this.options;
    if (firstStreamedSeq !== undefined && firstStreamedSeq <= afterSeq + 1) return undefined;
    return { afterSeq, beforeSeq: firstStreamedSeq };
  }

  /** View rows (already cleaned by the projector) of `viewRange`, in seq order. */
  replayed(entries: readonly TimelineEntry[]): ServerFrame[] {
    const before = this.options.firstStreamedSeq ?? Number.POSITIVE_INFINITY;
    const frames: ServerFrame[] = [];
    for (const entry of entries) {
      if (entry.seq <= this.lastSeq || entry.seq >= before) continue;
      frames.push(this.frameOf({ source: 'view', entry }));
    }
    return frames;
  }

  /**
   * The view has given what it holds below the stream's first message; the stream takes over.
   * Seqs there that the view lacks (status, log, usage: not rows) are gone with the stream's
   * retention, so they are not waited for. Lifecycle events the stream still holds came after
   * them.
   */
  handOver(): void {
    const { firstStreamedSeq } = this.options;
    if (firstStreamedSeq === undefined) {
      this.streamPosition = this.lastSeq;
      return;
    }
    this.lastSeq = Math.max(this.lastSeq, firstStreamedSeq - 1);
    this.streamPosition = firstStreamedSeq - 1;
  }

  /** An event of this task read from the stream, in stream order. */
  streamed(event: SwitchyardEvent): ServerFrame[] {
    if (event.type !== 'task.message') return this.changed(event);
    const { seq } = event.payload;
    this.streamPosition = Math.max(this.streamPosition, seq);
    if (seq <= this.lastSeq || this.heldMessages.has(seq)) return [];
    this.heldMessages.set(seq, { source: 'stream', event });
    return this.drain();
  }

  /** Messages (or status changes behind them) are held back waiting for a missing seq. */
  get holding(): boolean {
    return this.heldMessages.size > 0;
  }

  /** The seqs missing before the held messages, for a look in the view; undefined when none are held. */
  get gap(): (SeqRange & { readonly beforeSeq: number }) | undefined {
    if (this.heldMessages.size === 0) return undefined;
    return { afterSeq: this.lastSeq, beforeSeq: extremeSeq(this.heldMessages.keys(), Math.max) };
  }

  /**
   * View rows found for `gap`, in seq order: sent with the held messages, giving up on the seqs
   * up to the last row that neither source has.
   */
  gapFilled(entries: readonly TimelineEntry[]): ServerFrame[] {
    const range = this.gap;
    if (!range || entries.length === 0) return [];
    let through = this.lastSeq;
    for (const entry of entries) {
      if (entry.seq <= range.afterSeq || entry.seq >= range.beforeSeq) continue;
      through = entry.seq;
      if (!this.heldMessages.has(entry.seq)) this.heldMessages.set(entry.seq, { source: 'view', entry });
    }
    return this.releaseHeld(through);
  }

  /**
   * Gives up on the missing seqs up to `throughSeq` (all by default): sends what is held there,
   * in seq order, status changes in their place.
   */
  releaseHeld(throughSeq = Number.POSITIVE_INFINITY): ServerFrame[] {
    const frames = this.drain();
    while (this.heldMessages.size > 0) {
      const smallest = extremeSeq(this.heldMessages.keys(), Math.min);
      if (smallest > throughSeq) break;
      this.lastSeq = smallest - 1;
      frames.push(...this.drain());
    }
    return frames;
  }

  private changed(event: SwitchyardEvent): ServerFrame[] {
    const change = taskStatusChangeOf(event);
    // Before the client's last message in the stream: it had this one already.
    if (!change || this.streamPosition < this.options.afterSeq) return [];
    this.heldChanges.push({ position: this.streamPosition, frame: { type: 'task', ...change } });
    return this.drain();
  }

  /** Sends, in order, every held status change whose messages are sent and every message next in seq. */
  private drain(): ServerFrame[] {
    const frames: ServerFrame[] = [];
    for (;;) {
      const change = this.heldChanges[0];
      if (change && change.position <= this.lastSeq) {
        this.heldChanges.shift();
        frames.push(change.frame);
        continue;
      }
      const next = this.heldMessages.get(this.lastSeq + 1);
      if (!next) return frames;
      this.heldMessages.delete(this.lastSeq + 1);
      frames.push(this.frameOf(next));
    }
  }

  private frameOf(held: HeldMessage): ServerFrame {
    const { taskId } = this.options;
    if (held.source === 'view') {
      this.lastSeq = held.entry.seq;
      return { type: 'timeline', taskId, entry: this.withToolName(held.entry) };
    }
    const { seq, message } = held.event.payload;
    this.lastSeq = seq;
    const cleaned = { ...held.event, payload: { ...held.event.payload, message: this.options.sanitize(message) } } as TaskMessageEvent;
    const entry = timelineEntryOf(cleaned);
    if (!entry) return { type: 'activity', taskId, seq, message: cleaned.payload.message };
    return { type: 'timeline', taskId, entry: this.withToolName(entry) };
  }

  private withToolName(entry: TimelineEntry): TimelineEntry {
    if (entry.callId === null) return entry;
    if (entry.type === 'tool_use' && entry.tool !== null) this.toolByCallId.set(entry.callId, entry.tool);
    if (entry.type === 'tool_result' && entry.tool === null) {
      const tool = this.toolByCallId.get(entry.callId);
      if (tool !== undefined) return { ...entry, tool };
    }
    return entry;
  }
}

/** The smallest or largest of some seqs, without spreading them into arguments (a held backlog can be long). */
function extremeSeq(seqs: Iterable<number>, pick: (left: number, right: number) => number): number {
  let extreme: number | undefined;
  for (const seq of seqs) extreme = extreme === undefined ? seq : pick(extreme, seq);
  return extreme ?? Number.NaN;
}
