import { timelineEntryOf, type AgentMessage, type SwitchyardEvent, type TaskMessageEvent, type TimelineEntry } from '@switchyard/contracts';
import type { ServerFrame } from './live.frames';
import { taskStatusChangeOf } from './task-status.mapper';

/**
 * Orders one task's feed for one client: the rows replayed from the view first, then the events
 * read from the stream, each message once and in seq order (a message at or below the last seq
 * sent is skipped, which is what makes the hand-over from view to stream gap-free and
 * duplicate-free). Seqs are contiguous per task, so a streamed message that arrives ahead of a
 * missing one is held until the gap fills, or until `releaseHeld` gives up on it (a message
 * JetStream refused for good never arrives). Fills a tool result's missing tool name. Pure.
 */
export class TaskFeedSequencer {
  private lastSeq: number;
  private readonly toolByCallId = new Map<string, string>();
  private readonly held = new Map<number, TaskMessageEvent>();

  constructor(
    private readonly taskId: string,
    afterSeq: number,
    /** Redaction and cleaning applied to every live message before it leaves the gateway. */
    private readonly sanitize: (message: AgentMessage) => AgentMessage,
  ) {
    this.lastSeq = afterSeq;
  }

  get lastSentSeq(): number {
    return this.lastSeq;
  }

  /** View rows (already cleaned by the projector), in seq order. */
  replayed(entries: readonly TimelineEntry[]): ServerFrame[] {
    const frames: ServerFrame[] = [];
    for (const entry of entries) {
      if (entry.seq <= this.lastSeq) continue;
      this.lastSeq = entry.seq;
      frames.push({ type: 'timeline', taskId: this.taskId, entry: this.withToolName(entry) });
    }
    return frames;
  }

  /** An event of this task read from the stream. */
  streamed(event: SwitchyardEvent): ServerFrame[] {
    if (event.type !== 'task.message') {
      const change = taskStatusChangeOf(event);
      return change ? [{ type: 'task', ...change }] : [];
    }
    const { seq } = event.payload;
    if (seq <= this.lastSeq) return [];
    if (seq > this.lastSeq + 1) {
      this.held.set(seq, event);
      return [];
    }
    const frames = [this.frameOf(event)];
    for (let next = this.held.get(this.lastSeq + 1); next; next = this.held.get(this.lastSeq + 1)) {
      this.held.delete(next.payload.seq);
      frames.push(this.frameOf(next));
    }
    return frames;
  }

  /** Messages are held back waiting for a missing seq. */
  get holding(): boolean {
    return this.held.size > 0;
  }

  /** Gives up on the missing seqs: sends what is held, in seq order. */
  releaseHeld(): ServerFrame[] {
    const waiting = [...this.held.values()].sort((left, right) => left.payload.seq - right.payload.seq);
    this.held.clear();
    return waiting.map((event) => this.frameOf(event));
  }

  private frameOf(event: TaskMessageEvent): ServerFrame {
    const { seq, message } = event.payload;
    this.lastSeq = seq;
    const cleaned = { ...event, payload: { ...event.payload, message: this.sanitize(message) } } as TaskMessageEvent;
    const entry = timelineEntryOf(cleaned);
    if (!entry) return { type: 'activity', taskId: this.taskId, seq, message: cleaned.payload.message };
    return { type: 'timeline', taskId: this.taskId, entry: this.withToolName(entry) };
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
