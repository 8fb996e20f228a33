import { z } from 'zod';
import { isoTimestampSchema, nonNegativeIntegerSchema, positiveIntegerSchema } from './shared-fields.schema';
import { identifierSchema } from './subject-segment';
import type { TaskMessageEvent } from './task-message-event.schema';
import { TOOL_RESULT_STATUSES, type JsonValue, type ToolResultStatus } from './unified-message.schema';

/**
 * The message types shown as timeline rows; status, log and usage are not (design §1). A `notice`
 * row is the daemon's own word to the team (its code in `noticeCode`, its sentence in `content`).
 */
export const TIMELINE_ENTRY_TYPES = ['text', 'thinking', 'tool_use', 'tool_result', 'error', 'notice'] as const;
export type TimelineEntryType = (typeof TIMELINE_ENTRY_TYPES)[number];

/**
 * One row of a task's timeline as clients see it, the same whether replayed over REST from the
 * `task_message` view or delivered live over WebSocket.
 */
export interface TimelineEntry {
  /** The `task.message` event's id. */
  id: string;
  taskId: string;
  seq: number;
  attempt: number;
  type: TimelineEntryType;
  tool: string | null;
  callId: string | null;
  /** Text, thinking, an error's message, or a notice's sentence. */
  content: string | null;
  input: JsonValue | null;
  output: string | null;
  outputTruncated: boolean;
  toolStatus: ToolResultStatus | null;
  errorCode: string | null;
  /** A notice's code (`repository_work`); null on other rows. */
  noticeCode: string | null;
  /** When the daemon produced the message (the event's occurred-at). */
  createdAt: string;
}
export const timelineEntrySchema = z.object({
  id: z.string().min(1),
  taskId: identifierSchema,
  seq: nonNegativeIntegerSchema,
  attempt: positiveIntegerSchema,
  type: z.enum(TIMELINE_ENTRY_TYPES),
  tool: z.string().nullable(),
  callId: z.string().nullable(),
  content: z.string().nullable(),
  input: z.json().nullable(),
  output: z.string().nullable(),
  outputTruncated: z.boolean(),
  toolStatus: z.enum(TOOL_RESULT_STATUSES).nullable(),
  errorCode: z.string().nullable(),
  noticeCode: z.string().nullable().describe('The code of a notice row (snake_case, e.g. `repository_work`; its sentence is in `content`), else null'),
  createdAt: isoTimestampSchema,
});

/**
 * The timeline entry of a `task.message` event, or undefined for messages that are not rows.
 * A tool result without a tool name keeps `tool` null here; whoever knows the task's earlier tool
 * uses fills it in by call id.
 */
export function timelineEntryOf(event: TaskMessageEvent): TimelineEntry | undefined {
  const { taskId, seq, attempt, message } = event.payload;
  const base = { id: event.eventId, taskId, seq, attempt, tool: null, callId: null, content: null, input: null, output: null, outputTruncated: false, toolStatus: null, errorCode: null, noticeCode: null, createdAt: event.occurredAt };
  switch (message.type) {
    case 'text':
    case 'thinking':
      return { ...base, type: message.type, content: message.text };
    case 'tool-use':
      return { ...base, type: 'tool_use', tool: message.tool, callId: message.callId, input: message.input };
    case 'tool-result':
      return {
        ...base,
        type: 'tool_result',
        tool: message.tool ?? null,
        callId: message.callId,
        output: message.output,
        outputTruncated: message.outputTruncated ?? false,
        toolStatus: message.status,
      };
    case 'error':
      return { ...base, type: 'error', content: message.message, errorCode: message.code };
    case 'notice':
      return { ...base, type: 'notice', content: message.text, noticeCode: message.code };
    default:
      return undefined;
  }
}
