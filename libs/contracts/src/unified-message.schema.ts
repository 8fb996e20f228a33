import { z } from 'zod';
import { adapterMetadataSchema, tokenUsageSchema, type AdapterMetadata, type TokenUsage } from './shared-fields.schema';

/**
 * The unified agent message model (design §5): one versioned discriminated union every adapter
 * translates into. Variants are strict objects: vendor extras belong in `metadata`, keyed by
 * adapter id, so a new top-level field is a contract violation rather than silent drift.
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const AGENT_MESSAGE_TYPES = ['text', 'thinking', 'tool-use', 'tool-result', 'status', 'error', 'log', 'usage', 'notice'] as const;
export type AgentMessageType = (typeof AGENT_MESSAGE_TYPES)[number];

/** Message types persisted as timeline rows; `status`, `log` and `usage` are not shown there. */
export const TIMELINE_MESSAGE_TYPES = [
  'text',
  'thinking',
  'tool-use',
  'tool-result',
  'error',
  'notice',
] as const satisfies readonly AgentMessageType[];

export interface TextMessage {
  type: 'text';
  text: string;
  metadata?: AdapterMetadata;
}
export const textMessageSchema = z.strictObject({
  type: z.literal('text'),
  text: z.string(),
  metadata: adapterMetadataSchema.optional(),
});

export interface ThinkingMessage {
  type: 'thinking';
  text: string;
  metadata?: AdapterMetadata;
}
export const thinkingMessageSchema = z.strictObject({
  type: z.literal('thinking'),
  text: z.string(),
  metadata: adapterMetadataSchema.optional(),
});

export interface ToolUseMessage {
  type: 'tool-use';
  tool: string;
  /** Pairs the call with its `tool-result`. */
  callId: string;
  input: JsonValue;
  metadata?: AdapterMetadata;
}
export const toolUseMessageSchema = z.strictObject({
  type: z.literal('tool-use'),
  tool: z.string().min(1),
  callId: z.string().min(1),
  input: z.json(),
  metadata: adapterMetadataSchema.optional(),
});

export const TOOL_RESULT_STATUSES = ['ok', 'error'] as const;
export type ToolResultStatus = (typeof TOOL_RESULT_STATUSES)[number];

export interface ToolResultMessage {
  type: 'tool-result';
  callId: string;
  tool?: string;
  output: string;
  status: ToolResultStatus;
  /** Set when `output` is a preview of a larger result. */
  outputTruncated?: boolean;
  metadata?: AdapterMetadata;
}
export const toolResultMessageSchema = z.strictObject({
  type: z.literal('tool-result'),
  callId: z.string().min(1),
  tool: z.string().min(1).optional(),
  output: z.string(),
  status: z.enum(TOOL_RESULT_STATUSES),
  outputTruncated: z.boolean().optional(),
  metadata: adapterMetadataSchema.optional(),
});

export interface StatusMessage {
  type: 'status';
  /** Carried as early as the CLI reveals it, so a crash still leaves a resumable session. */
  sessionId?: string;
  state: string;
  progress?: string;
  metadata?: AdapterMetadata;
}
export const statusMessageSchema = z.strictObject({
  type: z.literal('status'),
  sessionId: z.string().min(1).optional(),
  state: z.string().min(1),
  progress: z.string().optional(),
  metadata: adapterMetadataSchema.optional(),
});

export interface ErrorMessage {
  type: 'error';
  code: string;
  message: string;
  metadata?: AdapterMetadata;
}
export const errorMessageSchema = z.strictObject({
  type: z.literal('error'),
  code: z.string().min(1),
  message: z.string(),
  metadata: adapterMetadataSchema.optional(),
});

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogMessage {
  type: 'log';
  level: LogLevel;
  text: string;
  metadata?: AdapterMetadata;
}
export const logMessageSchema = z.strictObject({
  type: z.literal('log'),
  level: z.enum(LOG_LEVELS),
  text: z.string(),
  metadata: adapterMetadataSchema.optional(),
});

/** Token usage of one model, as reported by the CLI (the same fields as `TokenUsage`). */
export interface UsageMessage extends TokenUsage {
  type: 'usage';
  metadata?: AdapterMetadata;
}
export const usageMessageSchema = z.strictObject({
  type: z.literal('usage'),
  ...tokenUsageSchema.shape,
  metadata: adapterMetadataSchema.optional(),
});

/** A notice's code: a snake_case identifier (`repository_work`), stable for clients to branch on. */
export const NOTICE_CODE_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
export const NOTICE_CODE_MAX_CHARS = 64;
/** A notice is one sentence; the sanitizer cuts a longer text to a preview of this size. */
export const NOTICE_TEXT_MAX_CHARS = 2_000;

/**
 * What the daemon itself wants the team to read in the task's timeline (a repository's branch
 * and diff at the end of a run, a resume it skipped): its words, not the agent's, so no adapter
 * emits one and there is no vendor metadata bag.
 */
export interface NoticeMessage {
  type: 'notice';
  code: string;
  text: string;
}
export const noticeMessageSchema = z.strictObject({
  type: z.literal('notice'),
  code: z.string().max(NOTICE_CODE_MAX_CHARS).regex(NOTICE_CODE_PATTERN, 'a notice code is a snake_case identifier'),
  text: z.string().min(1).max(NOTICE_TEXT_MAX_CHARS),
});

export type AgentMessage =
  | TextMessage
  | ThinkingMessage
  | ToolUseMessage
  | ToolResultMessage
  | StatusMessage
  | ErrorMessage
  | LogMessage
  | UsageMessage
  | NoticeMessage;

export const agentMessageSchema = z.discriminatedUnion('type', [
  textMessageSchema,
  thinkingMessageSchema,
  toolUseMessageSchema,
  toolResultMessageSchema,
  statusMessageSchema,
  errorMessageSchema,
  logMessageSchema,
  usageMessageSchema,
  noticeMessageSchema,
]);

export type AgentMessageOf<TType extends AgentMessageType> = Extract<AgentMessage, { type: TType }>;

export type TimelineMessage = AgentMessageOf<(typeof TIMELINE_MESSAGE_TYPES)[number]>;

export function isTimelineMessage(message: AgentMessage): message is TimelineMessage {
  return (TIMELINE_MESSAGE_TYPES as readonly AgentMessageType[]).includes(message.type);
}
