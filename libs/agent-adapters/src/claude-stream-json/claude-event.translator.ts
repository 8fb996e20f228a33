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

/**
 * Translates Claude Code stream-json events (Claude, Qwen Code, CodeBuddy, Cursor share the shape)
 * into unified messages and run facts; the dialect names where each CLI differs. Pure: per-run
 * state is the tool names by call id (so a tool result can name its tool), the session model,
 * per-call usage already counted, and Cursor's thinking pieces until they close.
 */
export function createClaudeEventTranslator(context: TranslatorContext, options: ClaudeEventTranslatorOptions = {}): Translator {
  const dialect = options.dialect ?? CLAUDE_CODE_DIALECT;
  const toolNames = new Map<string, string>();
  const usageByModel = new Map<string, TokenUsage>();
  const countedMessageIds = new Set<string>();
  let sessionAnnounced = false;
  let sessionModel: string | undefined;
  let pendingThinking = '';

  const announceSession = (sessionId: string | undefined, state: string): void => {
    if (!sessionId || sessionAnnounced) return;
    sessionAnnounced = true;
    context.reportSessionId(sessionId);
    context.emit({ type: 'status', sessionId, state });
  };

  const onSystem = (event: ClaudeSystemEvent): void => {
    if (event.subtype === 'init') {
      sessionModel = event.model;
      announceSession(event.session_id, 'started');
      return;
    }
    context.emit({ type: 'log', level: 'debug', text: `${dialect.errorCodePrefix} system event: ${event.subtype}` });
  };

  const countMessageUsage = (event: ClaudeAssistantEvent): void => {
    const { id, usage } = event.message;
    const model = event.message.model ?? sessionModel;
    if (!usage || !model || (id !== undefined && countedMessageIds.has(id))) return;
    if (id !== undefined) countedMessageIds.add(id);
    const total = sumMessageUsage({ previous: usageByModel.get(model), usage, model, provider: dialect.usageProvider });
    usageByModel.set(model, total);
    context.reportUsage(total);
  };

  const onAssistant = (event: ClaudeAssistantEvent): void => {
    announceSession(event.session_id, 'started');
    if (dialect.usageSource === 'assistant-messages') countMessageUsage(event);
    for (const block of event.message.content) {
      if (block.type === 'text') context.emit({ type: 'text', text: (block as { text: string }).text });
      else if (block.type === 'thinking') context.emit({ type: 'thinking', text: (block as { thinking: string }).thinking });
      else if (block.type === 'tool_use') {
        const toolUse = block as ClaudeToolUseBlock;
        toolNames.set(toolUse.id, toolUse.name);
        context.emit({ type: 'tool-use', tool: toolUse.name, callId: toolUse.id, input: (toolUse.input ?? null) as JsonValue });
      } else context.reportMalformed(`unknown assistant content block ${block.type}`, JSON.stringify(block).slice(0, 200));
    }
  };

  const onUser = (event: ClaudeUserEvent): void => {
    if (typeof event.message.content === 'string') return;
    for (const block of event.message.content) {
      if (block.type !== 'tool_result') continue;
      const result = block as ClaudeToolResultBlock;
      const tool = toolNames.get(result.tool_use_id);
      context.emit({
        type: 'tool-result',
        callId: result.tool_use_id,
        ...(tool ? { tool } : {}),
        output: toolResultText(result.content),
        status: result.is_error ? 'error' : 'ok',
      });
    }
  };

  const onResult = (event: ClaudeResultEvent): void => {
    if (dialect.usageSource === 'result') {
      for (const usage of readResultUsage({ event, sessionModel, provider: dialect.usageProvider })) context.reportUsage(usage);
    }
    if (event.subtype === 'success' && !event.is_error) {
      context.reportResult({ status: 'completed', ...(event.result !== undefined ? { output: event.result } : {}) });
      return;
    }
    const errorMessage = (event.errors ?? []).join('; ') || event.error?.message || event.result || `${dialect.errorCodePrefix} ended with ${event.subtype}`;
    if (dialect.resumeRejectedInResult?.test(errorMessage)) context.reportResumeRejected();
    context.emit({ type: 'error', code: `${dialect.errorCodePrefix}_${event.subtype}`, message: errorMessage });
    context.reportResult({ status: 'failed', errorMessage });
  };

  // Cursor: one event when a tool starts, one when it completes, the call keyed by its kind.
  const onToolCall = (event: CursorToolCallEvent): void => {
    announceSession(event.session_id, 'started');
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
  };

  // Cursor streams reasoning in pieces; the timeline keeps one thinking message per phase.
  const flushThinking = (): void => {
    if (pendingThinking.trim() !== '') context.emit({ type: 'thinking', text: pendingThinking });
    pendingThinking = '';
  };
  const onThinking = (event: CursorThinkingEvent): void => {
    if (event.subtype === 'delta') pendingThinking += event.text ?? '';
    else flushThinking();
  };

  const onLog = (event: CodeBuddyLogEvent): void => {
    context.emit({ type: 'log', level: LOG_LEVELS[event.log?.level ?? ''] ?? 'info', text: event.log?.message ?? '' });
  };

  // The backend answers it (see claude-control.responder); the timeline says what was decided.
  const onControlRequest = (event: ClaudeControlRequest): void => {
    if (event.request.subtype !== 'can_use_tool') return;
    const decision = (options.permissionPolicy ?? 'allow') === 'allow' ? 'allowed' : 'denied';
    context.emit({ type: 'log', level: 'info', text: `${dialect.errorCodePrefix} asked permission for ${event.request.tool_name ?? 'a tool'}: ${decision} by policy` });
  };

  return (event: unknown) => {
    const typed = event as { type?: unknown };
    if (typed.type !== 'thinking') flushThinking();
    switch (typed.type) {
      case 'system':
        return onSystem(event as ClaudeSystemEvent);
      case 'assistant':
        return onAssistant(event as ClaudeAssistantEvent);
      case 'user':
        return onUser(event as ClaudeUserEvent);
      case 'result':
        return onResult(event as ClaudeResultEvent);
      // Token deltas (with --include-partial-messages) and rate-limit notices carry nothing the
      // timeline keeps; they still count as activity for the watchdogs.
      case 'stream_event':
      case 'rate_limit_event':
        return;
      case 'control_request':
        return onControlRequest(event as ClaudeControlRequest);
      case 'tool_call':
        return onToolCall(event as CursorToolCallEvent);
      case 'thinking':
        return onThinking(event as CursorThinkingEvent);
      case 'log':
        return onLog(event as CodeBuddyLogEvent);
      // Answers to our own requests (interrupt) and the CLI withdrawing a request it made.
      case 'control_response':
      case 'control_cancel_request':
        return;
      default:
        context.reportMalformed(`unknown ${dialect.errorCodePrefix} event type ${String(typed.type)}`, JSON.stringify(event).slice(0, 200));
    }
  };
}

function toolResultText(content: ClaudeToolResultBlock['content']): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (typeof part.text === 'string' ? part.text : JSON.stringify(part))).join('\n');
}

