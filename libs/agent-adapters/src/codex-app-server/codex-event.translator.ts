import type { JsonValue } from '@switchyard/contracts';
import type { Translator, TranslatorContext } from '../backend/translator.types';
import {
  CODEX_IGNORED_ITEM_TYPES,
  CODEX_IGNORED_NOTIFICATIONS,
  type CodexCommandExecutionItem,
  type CodexErrorNotification,
  type CodexFileChangeItem,
  type CodexFrame,
  type CodexItemNotification,
  type CodexMcpToolCallItem,
  type CodexReasoningItem,
  type CodexThread,
  type CodexThreadItem,
  type CodexTokenUsageNotification,
  type CodexTurnNotification,
  type CodexWarningNotification,
} from './codex-wire.types';

export const CODEX_ADAPTER_ID = 'codex-app-server';

/** How `thread/resume` says the thread id is unknown (JSON-RPC error -32600). */
export const CODEX_RESUME_REJECTED = /no rollout found/i;

/** Item types that are tool calls without a dedicated mapping: shown by type, with their fields as input. */
const GENERIC_TOOL_ITEM_TYPES: ReadonlySet<string> = new Set(['dynamicToolCall', 'webSearch', 'collabAgentToolCall', 'imageGeneration', 'imageView']);
/** Known item types that carry nothing for the timeline beyond what other items show. */
const QUIET_ITEM_TYPES: ReadonlySet<string> = new Set(['plan', 'functionCallOutput', 'subAgentActivity']);
const WARNING_NOTIFICATIONS: ReadonlySet<string> = new Set(['warning', 'configWarning', 'deprecationNotice', 'guardianWarning']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const previewOf = (value: unknown): string => JSON.stringify(value).slice(0, 200);

/** Per-run state: the open tool calls by item id, the thread and its model, the turn's latest agent message. */
interface CodexTranslation {
  readonly context: TranslatorContext;
  readonly openTools: Map<string, string>;
  thread: CodexThread | undefined;
  lastAgentText: string | undefined;
  turnErrorEmitted: boolean;
}

/** A tool call as its completed item tells it. */
interface FinishedTool {
  readonly callId: string;
  readonly tool: string;
  readonly toolInput: JsonValue;
  readonly output: string;
  readonly ok: boolean;
  readonly extras?: Record<string, unknown>;
}

/**
 * Translates Codex app-server frames (notifications, and responses that carry a thread) into
 * unified messages and run facts. Pure: per-run state is the open tool calls by item id, the
 * thread's model, and the latest agent message of the turn (the turn's answer).
 * Text is emitted once, from the completed `agentMessage` item; deltas are live-only.
 */
export function createCodexEventTranslator(context: TranslatorContext): Translator {
  const translation: CodexTranslation = { context, openTools: new Map(), thread: undefined, lastAgentText: undefined, turnErrorEmitted: false };
  return (event: unknown) => translateFrame(translation, event);
}

function translateFrame(translation: CodexTranslation, event: unknown): void {
  const { context } = translation;
  if (!isObject(event)) return context.reportMalformed('not a JSON-RPC frame', previewOf(event));
  const frame = event as CodexFrame;
  if (typeof frame.method === 'string') {
    // Server requests (approvals) are answered by the connection; their items tell the story.
    if (frame.id !== undefined) return;
    return onNotification(translation, frame.method, frame.params);
  }
  if (frame.id !== undefined && ('result' in frame || 'error' in frame)) {
    // `thread/resume` announces no `thread/started`: its response names the thread.
    const result = frame.result;
    if (isObject(result) && isObject(result['thread']) && typeof result['thread']['id'] === 'string') {
      announceThread(translation, { thread: result['thread'] as unknown as CodexThread, model: result['model'] as string | undefined, modelProvider: result['modelProvider'] as string | undefined });
    }
    // Error responses belong to the request that caused them: the backend decides what they mean.
    return;
  }
  context.reportMalformed('neither a request, a notification nor a response', previewOf(event));
}

function onNotification(translation: CodexTranslation, method: string, params: unknown): void {
  const { context } = translation;
  switch (method) {
    case 'thread/started':
      return announceThread(translation, { thread: (params as { thread: CodexThread }).thread });
    case 'item/started':
      return onItemStarted(translation, params as CodexItemNotification);
    case 'item/completed':
      return onItemCompleted(translation, params as CodexItemNotification);
    case 'thread/tokenUsage/updated':
      return onTokenUsage(translation, params as CodexTokenUsageNotification);
    case 'turn/completed':
      return onTurnCompleted(translation, params as CodexTurnNotification);
    case 'error': {
      const failure = params as CodexErrorNotification;
      if (failure.willRetry) return context.emit({ type: 'log', level: 'warn', text: `codex will retry: ${failure.error.message}` });
      translation.turnErrorEmitted = true;
      return context.emit({ type: 'error', code: 'codex_error', message: failure.error.message });
    }
    default:
      if (WARNING_NOTIFICATIONS.has(method)) {
        const warning = params as CodexWarningNotification;
        return context.emit({ type: 'log', level: 'warn', text: `codex ${method}: ${warning.message ?? warning.summary ?? previewOf(params)}` });
      }
      if (CODEX_IGNORED_NOTIFICATIONS.has(method)) return;
      context.reportMalformed(`unknown codex notification ${method}`, previewOf({ method, params }));
  }
}

function announceThread(translation: CodexTranslation, announced: { readonly thread: CodexThread; readonly model?: string | undefined; readonly modelProvider?: string | undefined }): void {
  if (translation.thread) return;
  const { thread, model, modelProvider } = announced;
  translation.thread = { ...thread, ...(model ? { model } : {}), ...(modelProvider ? { modelProvider } : {}) };
  translation.context.reportSessionId(thread.id);
  translation.context.emit({ type: 'status', sessionId: thread.id, state: 'started' });
}

function startTool(translation: CodexTranslation, call: { readonly callId: string; readonly tool: string; readonly input: JsonValue }): void {
  if (translation.openTools.has(call.callId)) return;
  translation.openTools.set(call.callId, call.tool);
  translation.context.emit({ type: 'tool-use', tool: call.tool, callId: call.callId, input: call.input });
}

function finishTool(translation: CodexTranslation, finished: FinishedTool): void {
  startTool(translation, { callId: finished.callId, tool: finished.tool, input: finished.toolInput });
  translation.openTools.delete(finished.callId);
  translation.context.emit({
    type: 'tool-result',
    callId: finished.callId,
    tool: finished.tool,
    output: finished.output,
    status: finished.ok ? 'ok' : 'error',
    ...(finished.extras ? { metadata: { [CODEX_ADAPTER_ID]: finished.extras } } : {}),
  });
}

const commandInput = (item: CodexCommandExecutionItem): JsonValue => ({ command: item.command, cwd: item.cwd });
const fileChangeInput = (item: CodexFileChangeItem): JsonValue => ({
  changes: item.changes.map((change) => ({ path: change.path, kind: (change.kind ?? null) as JsonValue, diff: change.diff })),
});
const mcpName = (item: CodexMcpToolCallItem): string => `${item.server}.${item.tool}`;
const genericInput = (item: CodexThreadItem): JsonValue => {
  const { type: _type, id: _id, ...rest } = item as Record<string, unknown>;
  return rest as JsonValue;
};

function onItemStarted(translation: CodexTranslation, { item }: CodexItemNotification): void {
  switch (item.type) {
    case 'commandExecution':
      return startTool(translation, { callId: item.id, tool: 'commandExecution', input: commandInput(item as CodexCommandExecutionItem) });
    case 'fileChange':
      return startTool(translation, { callId: item.id, tool: 'fileChange', input: fileChangeInput(item as CodexFileChangeItem) });
    case 'mcpToolCall': {
      const call = item as CodexMcpToolCallItem;
      return startTool(translation, { callId: call.id, tool: mcpName(call), input: (call.arguments ?? null) as JsonValue });
    }
    default:
      if (GENERIC_TOOL_ITEM_TYPES.has(item.type)) startTool(translation, { callId: item.id, tool: item.type, input: genericInput(item) });
  }
}

function onItemCompleted(translation: CodexTranslation, { item }: CodexItemNotification): void {
  const { context } = translation;
  if (item.type === 'agentMessage') {
    const text = (item as { text: string }).text;
    if (text === '') return;
    translation.lastAgentText = text;
    return context.emit({ type: 'text', text });
  }
  if (item.type === 'reasoning') {
    const reasoning = item as CodexReasoningItem;
    const text = [...reasoning.summary, ...reasoning.content].join('\n');
    if (text !== '') context.emit({ type: 'thinking', text });
    return;
  }
  const finished = finishedToolOf(item);
  if (finished) return finishTool(translation, finished);
  if (CODEX_IGNORED_ITEM_TYPES.has(item.type) || QUIET_ITEM_TYPES.has(item.type)) return;
  context.reportMalformed(`unknown codex item type ${item.type}`, previewOf(item));
}

/** The tool call a completed item closes, if it is one. */
function finishedToolOf(item: CodexThreadItem): FinishedTool | undefined {
  switch (item.type) {
    case 'commandExecution': {
      const command = item as CodexCommandExecutionItem;
      return {
        callId: command.id,
        tool: 'commandExecution',
        toolInput: commandInput(command),
        output: command.aggregatedOutput ?? '',
        ok: command.status === 'completed' && (command.exitCode ?? 0) === 0,
        extras: { exitCode: command.exitCode, durationMs: command.durationMs, status: command.status },
      };
    }
    case 'fileChange': {
      const change = item as CodexFileChangeItem;
      const output = change.changes.map((entry) => entry.path).join('\n');
      return { callId: change.id, tool: 'fileChange', toolInput: fileChangeInput(change), output, ok: change.status === 'completed', extras: { status: change.status } };
    }
    case 'mcpToolCall': {
      const call = item as CodexMcpToolCallItem;
      const output = call.error ? call.error.message : JSON.stringify(call.result ?? null);
      return { callId: call.id, tool: mcpName(call), toolInput: (call.arguments ?? null) as JsonValue, output, ok: call.status === 'completed' && !call.error };
    }
    default: {
      if (!GENERIC_TOOL_ITEM_TYPES.has(item.type)) return undefined;
      const status = (item as { status?: unknown }).status;
      return { callId: item.id, tool: item.type, toolInput: genericInput(item), output: '', ok: status !== 'failed' && status !== 'declined' };
    }
  }
}

function onTokenUsage(translation: CodexTranslation, usage: CodexTokenUsageNotification): void {
  const { thread } = translation;
  const total = usage.tokenUsage.total;
  const reported = {
    ...(thread?.modelProvider ? { provider: thread.modelProvider } : {}),
    model: thread?.model ?? 'unknown',
    inputTokens: total.inputTokens,
    outputTokens: total.outputTokens,
    cacheReadTokens: total.cachedInputTokens,
    ...(total.cacheWriteInputTokens !== undefined ? { cacheWriteTokens: total.cacheWriteInputTokens } : {}),
  };
  translation.context.reportUsage(reported);
  translation.context.emit({ type: 'usage', ...reported });
}

function onTurnCompleted(translation: CodexTranslation, { turn }: CodexTurnNotification): void {
  const { context, thread, lastAgentText } = translation;
  if (turn.status === 'completed') {
    context.reportResult({ status: 'completed', ...(lastAgentText !== undefined ? { output: lastAgentText } : {}) });
  } else if (turn.status === 'interrupted') {
    context.emit({ type: 'status', ...(thread ? { sessionId: thread.id } : {}), state: 'interrupted' });
    context.reportResult({ status: 'failed', errorMessage: 'the turn was interrupted' });
  } else {
    const errorMessage = turn.error?.message ?? `codex ended the turn with status ${turn.status}`;
    if (!translation.turnErrorEmitted) context.emit({ type: 'error', code: 'codex_turn_failed', message: errorMessage });
    context.reportResult({ status: 'failed', errorMessage });
  }
  translation.lastAgentText = undefined;
  translation.turnErrorEmitted = false;
}
