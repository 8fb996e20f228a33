import type { JsonValue, TokenUsage } from '@switchyard/contracts';
import type { Translator, TranslatorContext } from '../backend/translator.types';
import type { ClaudePermissionPolicy } from './claude-control.responder';
import type {
  ClaudeAssistantEvent,
  ClaudeControlRequest,
  ClaudeResultEvent,
  ClaudeSystemEvent,
  ClaudeToolResultBlock,
  ClaudeToolUseBlock,
  ClaudeUserEvent,
  CodeBuddyLogEvent,
} from './claude-wire.types';
import { readCursorToolCall } from './cursor-tool-call.reader';
import type { CursorThinkingEvent, CursorToolCallEvent } from './cursor-wire.types';
import { CLAUDE_CODE_DIALECT, type StreamJsonDialect } from './stream-json.dialect';
import { readResultUsage, sumMessageUsage } from './stream-json-usage.reader';

export const CLAUDE_ADAPTER_ID = 'claude-stream-json';

export interface ClaudeEventTranslatorOptions {
  readonly permissionPolicy?: ClaudePermissionPolicy;
  /** Which CLI of the family is talking; Claude Code by default. */
  readonly dialect?: StreamJsonDialect;
}

const LOG_LEVELS: Readonly<Record<string, 'debug' | 'info' | 'warn' | 'error'>> = { debug: 'debug', info: 'info', warn: 'warn', warning: 'warn', error: 'error' };

/** Per-run state: tool names by call id, usage per model and the messages already counted, the session model, Cursor's open thinking. */
interface ClaudeTranslation {
  readonly context: TranslatorContext;
  readonly options: ClaudeEventTranslatorOptions;
  readonly dialect: StreamJsonDialect;
  readonly toolNames: Map<string, string>;
  readonly usageByModel: Map<string, TokenUsage>;
  readonly countedMessageIds: Set<string>;
  sessionAnnounced: boolean;
  sessionModel: string | undefined;
  pendingThinking: string;
}

/**
 * Translates Claude Code stream-json events (Claude, Qwen Code, CodeBuddy, Cursor share the shape)
 * into unified messages and run facts; the dialect names where each CLI differs. Pure: per-run
 * state is the tool names by call id (so a tool result can name its tool), the session model,
 * per-call usage already counted, and Cursor's thinking pieces until they close.
 */
export function createClaudeEventTranslator(context: TranslatorContext, options: ClaudeEventTranslatorOptions = {}): Translator {
  const translation: ClaudeTranslation = {
    context,
    options,
    dialect: options.dialect ?? CLAUDE_CODE_DIALECT,
    toolNames: new Map(),
    usageByModel: new Map(),
    countedMessageIds: new Set(),
    sessionAnnounced: false,
    sessionModel: undefined,
    pendingThinking: '',
  };
  return (event: unknown) => translateEvent(translation, event);
}

function translateEvent(translation: ClaudeTranslation, event: unknown): void {
  const typed = event as { type?: unknown };
  if (typed.type !== 'thinking') flushThinking(translation);
  switch (typed.type) {
    case 'system':
      return onSystem(translation, event as ClaudeSystemEvent);
    case 'assistant':
      return onAssistant(translation, event as ClaudeAssistantEvent);
    case 'user':
      return onUser(translation, event as ClaudeUserEvent);
    case 'result':
      return onResult(translation, event as ClaudeResultEvent);
    // Token deltas (with --include-partial-messages) and rate-limit notices carry nothing the
    // timeline keeps; they still count as activity for the watchdogs.
    case 'stream_event':
    case 'rate_limit_event':
      return;
    case 'control_request':
      return onControlRequest(translation, event as ClaudeControlRequest);
    case 'tool_call':
      return onToolCall(translation, event as CursorToolCallEvent);
    case 'thinking':
      return onThinking(translation, event as CursorThinkingEvent);
    case 'log':
      return onLog(translation, event as CodeBuddyLogEvent);
    // Answers to our own requests (interrupt) and the CLI withdrawing a request it made.
    case 'control_response':
    case 'control_cancel_request':
      return;
    default:
      translation.context.reportMalformed(`unknown ${translation.dialect.errorCodePrefix} event type ${String(typed.type)}`, JSON.stringify(event).slice(0, 200));
  }
}

function announceSession(translation: ClaudeTranslation, sessionId: string | undefined, state: string): void {
  if (!sessionId || translation.sessionAnnounced) return;
  translation.sessionAnnounced = true;
  translation.context.reportSessionId(sessionId);
  translation.context.emit({ type: 'status', sessionId, state });
}

function onSystem(translation: ClaudeTranslation, event: ClaudeSystemEvent): void {
  if (event.subtype === 'init') {
    translation.sessionModel = event.model;
    announceSession(translation, event.session_id, 'started');
    return;
  }
  translation.context.emit({ type: 'log', level: 'debug', text: `${translation.dialect.errorCodePrefix} system event: ${event.subtype}` });
}

function countMessageUsage(translation: ClaudeTranslation, event: ClaudeAssistantEvent): void {
  const { countedMessageIds, usageByModel } = translation;
  const { id, usage } = event.message;
  const model = event.message.model ?? translation.sessionModel;
  if (!usage || !model || (id !== undefined && countedMessageIds.has(id))) return;
  if (id !== undefined) countedMessageIds.add(id);
  const total = sumMessageUsage({ previous: usageByModel.get(model), usage, model, provider: translation.dialect.usageProvider });
  usageByModel.set(model, total);
  translation.context.reportUsage(total);
}

function onAssistant(translation: ClaudeTranslation, event: ClaudeAssistantEvent): void {
  const { context } = translation;
  announceSession(translation, event.session_id, 'started');
  if (translation.dialect.usageSource === 'assistant-messages') countMessageUsage(translation, event);
  for (const block of event.message.content) {
    if (block.type === 'text') context.emit({ type: 'text', text: (block as { text: string }).text });
    else if (block.type === 'thinking') context.emit({ type: 'thinking', text: (block as { thinking: string }).thinking });
    else if (block.type === 'tool_use') {
      const toolUse = block as ClaudeToolUseBlock;
      translation.toolNames.set(toolUse.id, toolUse.name);
      context.emit({ type: 'tool-use', tool: toolUse.name, callId: toolUse.id, input: (toolUse.input ?? null) as JsonValue });
    } else context.reportMalformed(`unknown assistant content block ${block.type}`, JSON.stringify(block).slice(0, 200));
  }
}

function onUser(translation: ClaudeTranslation, event: ClaudeUserEvent): void {
  if (typeof event.message.content === 'string') return;
  for (const block of event.message.content) {
    if (block.type !== 'tool_result') continue;
    const result = block as ClaudeToolResultBlock;
    const tool = translation.toolNames.get(result.tool_use_id);
    translation.context.emit({
      type: 'tool-result',
      callId: result.tool_use_id,
      ...(tool ? { tool } : {}),
      output: toolResultText(result.content),
      status: result.is_error ? 'error' : 'ok',
    });
  }
}

function onResult(translation: ClaudeTranslation, event: ClaudeResultEvent): void {
  const { context, dialect } = translation;
  if (dialect.usageSource === 'result') {
    for (const usage of readResultUsage({ event, sessionModel: translation.sessionModel, provider: dialect.usageProvider })) context.reportUsage(usage);
  }
  if (event.subtype === 'success' && !event.is_error) {
    context.reportResult({ status: 'completed', ...(event.result !== undefined ? { output: event.result } : {}) });
    return;
  }
  const errorMessage = (event.errors ?? []).join('; ') || event.error?.message || event.result || `${dialect.errorCodePrefix} ended with ${event.subtype}`;
  if (dialect.resumeRejectedInResult?.test(errorMessage)) context.reportResumeRejected();
  context.emit({ type: 'error', code: `${dialect.errorCodePrefix}_${event.subtype}`, message: errorMessage });
  context.reportResult({ status: 'failed', errorMessage });
}

// Cursor: one event when a tool starts, one when it completes, the call keyed by its kind.
function onToolCall(translation: ClaudeTranslation, event: CursorToolCallEvent): void {
  const { context, toolNames } = translation;
  announceSession(translation, event.session_id, 'started');
  const call = readCursorToolCall(event);
  if (!call) {
    context.reportMalformed('tool_call without a known tool kind', JSON.stringify(event).slice(0, 200));
    return;
  }
  if (!toolNames.has(event.call_id)) {
    toolNames.set(event.call_id, call.tool);
    context.emit({ type: 'tool-use', tool: call.tool, callId: event.call_id, input: call.input });
  }
  if (call.outcome) context.emit({ type: 'tool-result', callId: event.call_id, tool: call.tool, ...call.outcome });
}

// Cursor streams reasoning in pieces; the timeline keeps one thinking message per phase.
function flushThinking(translation: ClaudeTranslation): void {
  if (translation.pendingThinking.trim() !== '') translation.context.emit({ type: 'thinking', text: translation.pendingThinking });
  translation.pendingThinking = '';
}

function onThinking(translation: ClaudeTranslation, event: CursorThinkingEvent): void {
  if (event.subtype === 'delta') translation.pendingThinking += event.text ?? '';
  else flushThinking(translation);
}

function onLog(translation: ClaudeTranslation, event: CodeBuddyLogEvent): void {
  translation.context.emit({ type: 'log', level: LOG_LEVELS[event.log?.level ?? ''] ?? 'info', text: event.log?.message ?? '' });
}

// The backend answers it (see claude-control.responder); the timeline says what was decided.
function onControlRequest(translation: ClaudeTranslation, event: ClaudeControlRequest): void {
  if (event.request.subtype !== 'can_use_tool') return;
  const decision = (translation.options.permissionPolicy ?? 'allow') === 'allow' ? 'allowed' : 'denied';
  const prefix = translation.dialect.errorCodePrefix;
  translation.context.emit({ type: 'log', level: 'info', text: `${prefix} asked permission for ${event.request.tool_name ?? 'a tool'}: ${decision} by policy` });
}

function toolResultText(content: ClaudeToolResultBlock['content']): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (typeof part.text === 'string' ? part.text : JSON.stringify(part))).join('\n');
}

