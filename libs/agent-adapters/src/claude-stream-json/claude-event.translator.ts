import type { JsonValue } from '@switchyard/contracts';
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
} from './claude-wire.types';

export const CLAUDE_ADAPTER_ID = 'claude-stream-json';

/** How the CLI says a `--resume` id is unknown (stdout `errors[]`, also printed on stderr). */
const RESUME_REJECTED = /No conversation found with session ID/i;

/**
 * Translates Claude Code stream-json events (Claude, Qwen Code, CodeBuddy, Cursor share the shape)
 * into unified messages and run facts. Pure: per-run state is the tool names by call id, so a
 * tool result can name its tool.
 */
export function createClaudeEventTranslator(context: TranslatorContext, options: { readonly permissionPolicy?: ClaudePermissionPolicy } = {}): Translator {
  const toolNames = new Map<string, string>();
  let sessionAnnounced = false;

  const announceSession = (sessionId: string | undefined, state: string): void => {
    if (!sessionId || sessionAnnounced) return;
    sessionAnnounced = true;
    context.reportSessionId(sessionId);
    context.emit({ type: 'status', sessionId, state });
  };

  const onSystem = (event: ClaudeSystemEvent): void => {
    if (event.subtype === 'init') {
      announceSession(event.session_id, 'started');
      return;
    }
    context.emit({ type: 'log', level: 'debug', text: `claude system event: ${event.subtype}` });
  };

  const onAssistant = (event: ClaudeAssistantEvent): void => {
    announceSession(event.session_id, 'started');
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
    for (const [model, usage] of Object.entries(event.modelUsage ?? {})) {
      context.reportUsage({
        provider: 'anthropic',
        model,
        inputTokens: usage.inputTokens ?? 0,
        outputTokens: usage.outputTokens ?? 0,
        ...(usage.cacheReadInputTokens !== undefined ? { cacheReadTokens: usage.cacheReadInputTokens } : {}),
        ...(usage.cacheCreationInputTokens !== undefined ? { cacheWriteTokens: usage.cacheCreationInputTokens } : {}),
      });
    }
    if (event.subtype === 'success' && !event.is_error) {
      context.reportResult({ status: 'completed', ...(event.result !== undefined ? { output: event.result } : {}) });
      return;
    }
    const errorMessage = (event.errors ?? []).join('; ') || event.result || `claude ended with ${event.subtype}`;
    if (RESUME_REJECTED.test(errorMessage)) context.reportResumeRejected();
    context.emit({ type: 'error', code: `claude_${event.subtype}`, message: errorMessage });
    context.reportResult({ status: 'failed', errorMessage });
  };

  // The backend answers it (see claude-control.responder); the timeline says what was decided.
  const onControlRequest = (event: ClaudeControlRequest): void => {
    if (event.request.subtype !== 'can_use_tool') return;
    const decision = (options.permissionPolicy ?? 'allow') === 'allow' ? 'allowed' : 'denied';
    context.emit({ type: 'log', level: 'info', text: `claude asked permission for ${event.request.tool_name ?? 'a tool'}: ${decision} by policy` });
  };

  return (event: unknown) => {
    const typed = event as { type?: unknown };
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
      // Answers to our own requests (interrupt) and the CLI withdrawing a request it made.
      case 'control_response':
      case 'control_cancel_request':
        return;
      default:
        context.reportMalformed(`unknown claude event type ${String(typed.type)}`, JSON.stringify(event).slice(0, 200));
    }
  };
}

function toolResultText(content: ClaudeToolResultBlock['content']): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (typeof part.text === 'string' ? part.text : JSON.stringify(part))).join('\n');
}

