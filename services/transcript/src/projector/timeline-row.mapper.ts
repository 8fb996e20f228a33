import type { AgentMessage, JsonValue, TaskMessageEvent, TimelineEntryType, ToolResultStatus } from '@switchyard/contracts';
import { timelineEntryJson, type TaskUsageRecord } from '@switchyard/persistence';
import type { MessageSanitizer } from '@switchyard/redaction';

export type TimelineRowType = TimelineEntryType;

/** One `task_message` row; every value comes from the event, so a rebuild writes the same row. */
export interface TaskMessageRow {
  /** The event envelope's id. */
  readonly id: string;
  readonly taskId: string;
  readonly seq: number;
  readonly attempt: number;
  readonly type: TimelineRowType;
  /** Null on a tool result that did not name its tool: the writer takes it from the call. */
  readonly tool: string | null;
  readonly callId: string | null;
  readonly content: string | null;
  /** The tool input as JSON text (`null` input is the JSON text `null`, not SQL NULL). */
  readonly inputJson: string | null;
  readonly output: string | null;
  readonly outputTruncated: boolean;
  readonly toolStatus: ToolResultStatus | null;
  readonly errorCode: string | null;
  readonly noticeCode: string | null;
  /** The envelope's occurredAt. */
  readonly createdAt: string;
  /**
   * The row as the API returns it (`TimelineEntry` JSON, from the sanitized message), so a replay
   * joins texts. A tool result's unknown tool is `"tool":null` there until the writer learns it.
   */
  readonly entryJson: string | null;
}

/** Latest token totals of one (task, attempt, provider, model), and the seq that reported them. */
export interface TaskUsageRow extends TaskUsageRecord {
  readonly reportedSeq: number;
}

/** A tool call of the batch, so results stored earlier without a tool name can be completed. */
export interface ToolCall {
  readonly taskId: string;
  readonly callId: string;
  readonly tool: string;
}

export interface TimelineBatch {
  readonly messages: TaskMessageRow[];
  readonly usage: TaskUsageRow[];
  readonly toolCalls: ToolCall[];
}

/**
 * Maps a batch of `task.message` events, in stream order, to rows. Every message is sanitized
 * again (the daemon already did, but the projector trusts no producer). Within the batch a
 * repeated (task, seq) keeps its first event, usage keeps the highest seq per key, and a tool
 * result without a tool name takes it from its call when the call is in the same batch.
 */
export function mapTimelineBatch(events: readonly TaskMessageEvent[], sanitize: MessageSanitizer): TimelineBatch {
  const messages = new Map<string, TaskMessageRow>();
  const usage = new Map<string, TaskUsageRow>();
  const seen = new Set<string>();
  for (const event of events) {
    const { taskId, seq, attempt } = event.payload;
    const identity = JSON.stringify([taskId, seq]);
    // A repeated seq is a redelivery or a re-created envelope: the first one stands, as in the table.
    if (seen.has(identity)) continue;
    seen.add(identity);
    const message = sanitize(event.payload.message);
    if (message.type === 'usage') {
      const row: TaskUsageRow = {
        taskId,
        attempt,
        provider: message.provider ?? '',
        model: message.model,
        inputTokens: message.inputTokens,
        outputTokens: message.outputTokens,
        cacheReadTokens: message.cacheReadTokens ?? 0,
        cacheWriteTokens: message.cacheWriteTokens ?? 0,
        reportedSeq: seq,
      };
      const key = JSON.stringify([taskId, attempt, row.provider, row.model]);
      const current = usage.get(key);
      if (!current || current.reportedSeq < seq) usage.set(key, row);
      continue;
    }
    const row = toMessageRow({ id: event.eventId, taskId, seq, attempt, createdAt: event.occurredAt }, message);
    if (row) messages.set(identity, row);
  }

  const toolCalls: ToolCall[] = [];
  const toolByCall = new Map<string, string>();
  for (const row of messages.values()) {
    if (row.type !== 'tool_use' || row.tool === null || row.callId === null) continue;
    toolCalls.push({ taskId: row.taskId, callId: row.callId, tool: row.tool });
    const key = JSON.stringify([row.taskId, row.callId]);
    if (!toolByCall.has(key)) toolByCall.set(key, row.tool);
  }
  const completed = [...messages.values()].map((row) =>
    row.type === 'tool_result' && row.tool === null ? { ...row, tool: toolByCall.get(JSON.stringify([row.taskId, row.callId])) ?? null } : row,
  );
  return { messages: completed.map((row) => ({ ...row, entryJson: entryJsonOf(row) })), usage: [...usage.values()], toolCalls };
}

/**
 * The row's API text; null when its time does not parse here the way Postgres parses it. A tool
 * result without a tool name says `"tool":null`, and the writer puts the name there if it learns it.
 */
function entryJsonOf(row: TaskMessageRow): string | null {
  // Postgres rounds past microseconds, JavaScript truncates to milliseconds: leave those to the reader.
  if (Number.isNaN(Date.parse(row.createdAt)) || /\.\d{7,}/.test(row.createdAt)) return null;
  const { inputJson, entryJson: _unset, ...columns } = row;
  return timelineEntryJson({ ...columns, input: inputJson === null ? null : (JSON.parse(inputJson) as JsonValue) });
}

interface RowOrigin {
  readonly id: string;
  readonly taskId: string;
  readonly seq: number;
  readonly attempt: number;
  readonly createdAt: string;
}

const EMPTY_ROW = {
  tool: null,
  callId: null,
  content: null,
  inputJson: null,
  output: null,
  outputTruncated: false,
  toolStatus: null,
  errorCode: null,
  noticeCode: null,
  entryJson: null,
} as const;

/** The row of one sanitized message, or undefined for messages that are not timeline rows. */
export function toMessageRow(origin: RowOrigin, message: AgentMessage): TaskMessageRow | undefined {
  switch (message.type) {
    case 'text':
    case 'thinking':
      return { ...origin, ...EMPTY_ROW, type: message.type, content: message.text };
    case 'tool-use':
      return { ...origin, ...EMPTY_ROW, type: 'tool_use', tool: message.tool, callId: message.callId, inputJson: JSON.stringify(message.input) };
    case 'tool-result':
      return {
        ...origin,
        ...EMPTY_ROW,
        type: 'tool_result',
        tool: message.tool ?? null,
        callId: message.callId,
        output: message.output,
        outputTruncated: message.outputTruncated === true,
        toolStatus: message.status,
      };
    case 'error':
      return { ...origin, ...EMPTY_ROW, type: 'error', errorCode: message.code, content: message.message };
    case 'notice':
      return { ...origin, ...EMPTY_ROW, type: 'notice', noticeCode: message.code, content: message.text };
    case 'status':
    case 'log':
    case 'usage':
      return undefined;
    default:
      return assertNever(message);
  }
}

function assertNever(value: never): never {
  throw new TypeError(`unknown agent message: ${JSON.stringify(value)}`);
}
