import type { JsonValue, TokenUsage } from '@switchyard/contracts';
import type { Translator, TranslatorContext } from '../backend/translator.types';
import type {
  CopilotAssistantMessageEvent,
  CopilotAssistantUsageEvent,
  CopilotInfoEvent,
  CopilotReasoningEvent,
  CopilotResultEvent,
  CopilotSessionErrorEvent,
  CopilotSessionStartEvent,
  CopilotToolExecutionCompleteEvent,
  CopilotToolExecutionStartEvent,
} from './copilot-wire.types';
import { COPILOT_DEFAULT_PROVIDER, copilotUsageProvider } from './copilot-usage.provider';

/**
 * How Copilot refuses `--resume <id>`: exit 1, nothing on stdout, and on stderr
 * `Error: No session, task, or name matched '<id>'.` (CLI 1.0.102).
 */
export const COPILOT_RESUME_REJECTED_PATTERN = /No session, task, or name matched/i;

/**
 * Events that only mark progress (streaming deltas the final message repeats, turn and model-call
 * bookkeeping, catalog loads). They still count as activity for the watchdogs.
 */
const PROGRESS_EVENTS = new Set([
  'user.message',
  'assistant.turn_start',
  'assistant.turn_end',
  'assistant.message_start',
  'assistant.message_delta',
  'assistant.reasoning_delta',
  'assistant.streaming_delta',
  'assistant.tool_call_delta',
  'assistant.intent',
  'assistant.idle',
  'model.call_start',
  'model.call_finished',
  'model.call_final_result',
  'model.call_failure',
  'tool.execution_partial_result',
  'tool.execution_progress',
  'session.skills_loaded',
  'session.mcp_servers_loaded',
  'session.tools_updated',
  'session.background_tasks_changed',
  'session.idle',
  'agent.interrupted',
]);

export interface CopilotEventTranslatorOptions {
  /** The id the run was started with (`--session-id` or `--resume`); announced on the first event. */
  readonly sessionId?: string;
  /** Usage whose event names no provider is booked to this one (default: the `copilot` identity's, `github`). */
  readonly provider?: string;
}

/**
 * Translates Copilot CLI JSONL session events into unified messages and run facts. Pure: per-run
 * state is the tool names by call id, usage totals per provider and model, and whether the run was aborted.
 */
export function createCopilotEventTranslator(context: TranslatorContext, options: CopilotEventTranslatorOptions = {}): Translator {
  const toolNames = new Map<string, string>();
  const usageByModel = new Map<string, TokenUsage>();
  let announcedSessionId: string | undefined;
  let reasoningSinceMessage = false;
  let lastError: string | undefined;
  let aborted = false;

  const announceSession = (sessionId: string | undefined): void => {
    if (!sessionId || sessionId === announcedSessionId) return;
    announcedSessionId = sessionId;
    context.reportSessionId(sessionId);
    context.emit({ type: 'status', sessionId, state: 'started' });
  };

  const onAssistantMessage = (event: CopilotAssistantMessageEvent): void => {
    if (event.data.reasoningText && !reasoningSinceMessage) context.emit({ type: 'thinking', text: event.data.reasoningText });
    reasoningSinceMessage = false;
    if (event.data.content !== '') context.emit({ type: 'text', text: event.data.content });
    // Tool requests are announced by `tool.execution_start`, which is when the tool really runs.
  };

  const onToolStart = (event: CopilotToolExecutionStartEvent): void => {
    const { toolCallId, toolName } = event.data;
    toolNames.set(toolCallId, toolName);
    context.emit({ type: 'tool-use', tool: toolName, callId: toolCallId, input: (event.data.arguments ?? null) as JsonValue });
  };

  const onToolComplete = (event: CopilotToolExecutionCompleteEvent): void => {
    const { toolCallId, success } = event.data;
    const tool = toolNames.get(toolCallId);
    const output = success ? (event.data.result?.content ?? '') : (event.data.error?.message ?? event.data.result?.content ?? '');
    context.emit({ type: 'tool-result', callId: toolCallId, ...(tool ? { tool } : {}), output, status: success ? 'ok' : 'error' });
  };

  const onUsage = (event: CopilotAssistantUsageEvent): void => {
    // One event per model call; the session keeps the latest total per model, so sum here.
    const { model } = event.data;
    const provider = copilotUsageProvider(event.data.modelProvider, options.provider ?? COPILOT_DEFAULT_PROVIDER);
    const key = `${provider}\u0000${model}`;
    const previous = usageByModel.get(key);
    const add = (before: number | undefined, value: number | undefined): number => (before ?? 0) + (value ?? 0);
    const total: TokenUsage = {
      provider,
      model,
      inputTokens: add(previous?.inputTokens, event.data.inputTokens),
      outputTokens: add(previous?.outputTokens, event.data.outputTokens),
      cacheReadTokens: add(previous?.cacheReadTokens, event.data.cacheReadTokens),
      cacheWriteTokens: add(previous?.cacheWriteTokens, event.data.cacheWriteTokens),
    };
    usageByModel.set(key, total);
    context.reportUsage(total);
    context.emit({ type: 'usage', ...total });
  };

  const onSessionError = (event: CopilotSessionErrorEvent): void => {
    lastError = event.data.message;
    context.emit({ type: 'error', code: `copilot_${event.data.errorType}`, message: event.data.message });
  };

  const onResult = (event: CopilotResultEvent): void => {
    announceSession(event.sessionId);
    if (aborted) {
      // After SIGINT/SIGTERM the CLI still closes with `exitCode: 0`: an interrupted turn is no
      // answer. Without a reported result the session reads this as cancelled (or failed).
      context.emit({ type: 'log', level: 'info', text: 'copilot closed an interrupted run' });
      return;
    }
    // The exit code decides: an error the CLI recovered from (a retried rate limit) still ends in 0.
    if ((event.exitCode ?? 0) === 0) {
      context.reportResult({ status: 'completed' });
      return;
    }
    context.reportResult({ status: 'failed', errorMessage: lastError ?? `copilot ended with exit code ${String(event.exitCode)}` });
  };

  return (event: unknown) => {
    const typed = event as { type?: unknown; data?: unknown };
    if (typeof typed.type !== 'string') {
      context.reportMalformed('not a copilot event envelope', JSON.stringify(event).slice(0, 200));
      return;
    }
    announceSession(options.sessionId);
    switch (typed.type) {
      case 'session.start':
      case 'session.resume':
        return announceSession((event as CopilotSessionStartEvent).data.sessionId);
      case 'assistant.message':
        return onAssistantMessage(event as CopilotAssistantMessageEvent);
      case 'assistant.reasoning':
        reasoningSinceMessage = true;
        context.emit({ type: 'thinking', text: (event as CopilotReasoningEvent).data.content });
        return;
      case 'tool.execution_start':
        return onToolStart(event as CopilotToolExecutionStartEvent);
      case 'tool.execution_complete':
        return onToolComplete(event as CopilotToolExecutionCompleteEvent);
      case 'assistant.usage':
        return onUsage(event as CopilotAssistantUsageEvent);
      case 'session.error':
        return onSessionError(event as CopilotSessionErrorEvent);
      case 'abort':
        aborted = true;
        context.emit({ type: 'log', level: 'info', text: 'copilot aborted the turn' });
        return;
      case 'session.info':
      case 'session.warning': {
        const info = event as CopilotInfoEvent;
        context.emit({ type: 'log', level: typed.type === 'session.warning' ? 'warn' : 'info', text: `copilot: ${info.data.message ?? ''}` });
        return;
      }
      case 'result':
        return onResult(event as CopilotResultEvent);
      default:
        if (PROGRESS_EVENTS.has(typed.type)) return;
        // The schema lists hundreds of event types; an unfamiliar one is surfaced, not failed.
        context.emit({ type: 'log', level: 'debug', text: `copilot event ${typed.type}` });
    }
  };
}
