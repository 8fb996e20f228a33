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

/** Per-run state: tool names by call id, usage totals per provider and model, the session announced, the turn's reasoning, error and abort. */
interface CopilotTranslation {
  readonly context: TranslatorContext;
  readonly options: CopilotEventTranslatorOptions;
  readonly toolNames: Map<string, string>;
  readonly usageByModel: Map<string, TokenUsage>;
  announcedSessionId: string | undefined;
  reasoningSinceMessage: boolean;
  lastError: string | undefined;
  aborted: boolean;
}

/**
 * Translates Copilot CLI JSONL session events into unified messages and run facts. Pure: per-run
 * state is the tool names by call id, usage totals per provider and model, and whether the run was aborted.
 */
export function createCopilotEventTranslator(context: TranslatorContext, options: CopilotEventTranslatorOptions = {}): Translator {
  const translation: CopilotTranslation = {
    context,
    options,
    toolNames: new Map(),
    usageByModel: new Map(),
    announcedSessionId: undefined,
    reasoningSinceMessage: false,
    lastError: undefined,
    aborted: false,
  };
  return (event: unknown) => translateEvent(translation, event);
}

function translateEvent(translation: CopilotTranslation, event: unknown): void {
  const { context } = translation;
  const typed = event as { type?: unknown; data?: unknown };
  if (typeof typed.type !== 'string') {
    context.reportMalformed('not a copilot event envelope', JSON.stringify(event).slice(0, 200));
    return;
  }
  announceSession(translation, translation.options.sessionId);
  switch (typed.type) {
    case 'session.start':
    case 'session.resume':
      return announceSession(translation, (event as CopilotSessionStartEvent).data.sessionId);
    case 'assistant.message':
      return onAssistantMessage(translation, event as CopilotAssistantMessageEvent);
    case 'assistant.reasoning':
      return onReasoning(translation, event as CopilotReasoningEvent);
    case 'tool.execution_start':
      return onToolStart(translation, event as CopilotToolExecutionStartEvent);
    case 'tool.execution_complete':
      return onToolComplete(translation, event as CopilotToolExecutionCompleteEvent);
    case 'assistant.usage':
      return onUsage(translation, event as CopilotAssistantUsageEvent);
    case 'session.error':
      return onSessionError(translation, event as CopilotSessionErrorEvent);
    case 'abort':
      return onAbort(translation);
    case 'session.info':
    case 'session.warning':
      return onInfo(translation, typed.type, event as CopilotInfoEvent);
    case 'result':
      return onResult(translation, event as CopilotResultEvent);
    default:
      if (PROGRESS_EVENTS.has(typed.type)) return;
      // The schema lists hundreds of event types; an unfamiliar one is surfaced, not failed.
      context.emit({ type: 'log', level: 'debug', text: `copilot event ${typed.type}` });
  }
}

function announceSession(translation: CopilotTranslation, sessionId: string | undefined): void {
  if (!sessionId || sessionId === translation.announcedSessionId) return;
  translation.announcedSessionId = sessionId;
  translation.context.reportSessionId(sessionId);
  translation.context.emit({ type: 'status', sessionId, state: 'started' });
}

function onAssistantMessage(translation: CopilotTranslation, event: CopilotAssistantMessageEvent): void {
  const { context } = translation;
  if (event.data.reasoningText && !translation.reasoningSinceMessage) context.emit({ type: 'thinking', text: event.data.reasoningText });
  translation.reasoningSinceMessage = false;
  if (event.data.content !== '') context.emit({ type: 'text', text: event.data.content });
  // Tool requests are announced by `tool.execution_start`, which is when the tool really runs.
}

function onReasoning(translation: CopilotTranslation, event: CopilotReasoningEvent): void {
  translation.reasoningSinceMessage = true;
  translation.context.emit({ type: 'thinking', text: event.data.content });
}

function onToolStart(translation: CopilotTranslation, event: CopilotToolExecutionStartEvent): void {
  const { toolCallId, toolName } = event.data;
  translation.toolNames.set(toolCallId, toolName);
  translation.context.emit({ type: 'tool-use', tool: toolName, callId: toolCallId, input: (event.data.arguments ?? null) as JsonValue });
}

function onToolComplete(translation: CopilotTranslation, event: CopilotToolExecutionCompleteEvent): void {
  const { toolCallId, success } = event.data;
  const tool = translation.toolNames.get(toolCallId);
  const output = success ? (event.data.result?.content ?? '') : (event.data.error?.message ?? event.data.result?.content ?? '');
  translation.context.emit({ type: 'tool-result', callId: toolCallId, ...(tool ? { tool } : {}), output, status: success ? 'ok' : 'error' });
}

function onUsage(translation: CopilotTranslation, event: CopilotAssistantUsageEvent): void {
  const { context, usageByModel } = translation;
  // One event per model call; the session keeps the latest total per model, so sum here.
  const { model } = event.data;
  const provider = copilotUsageProvider(event.data.modelProvider, translation.options.provider ?? COPILOT_DEFAULT_PROVIDER);
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
}

function onSessionError(translation: CopilotTranslation, event: CopilotSessionErrorEvent): void {
  translation.lastError = event.data.message;
  translation.context.emit({ type: 'error', code: `copilot_${event.data.errorType}`, message: event.data.message });
}

function onAbort(translation: CopilotTranslation): void {
  translation.aborted = true;
  translation.context.emit({ type: 'log', level: 'info', text: 'copilot aborted the turn' });
}

function onInfo(translation: CopilotTranslation, type: 'session.info' | 'session.warning', event: CopilotInfoEvent): void {
  translation.context.emit({ type: 'log', level: type === 'session.warning' ? 'warn' : 'info', text: `copilot: ${event.data.message ?? ''}` });
}

function onResult(translation: CopilotTranslation, event: CopilotResultEvent): void {
  const { context } = translation;
  announceSession(translation, event.sessionId);
  if (translation.aborted) {
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
  context.reportResult({ status: 'failed', errorMessage: translation.lastError ?? `copilot ended with exit code ${String(event.exitCode)}` });
}
