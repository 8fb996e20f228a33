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

/**
 * Translates Codex app-server frames (notifications, and responses that carry a thread) into
 * unified messages and run facts. Pure: per-run state is the open tool calls by item id, the
 * thread's model, and the latest agent message of the turn (the turn's answer).
 * Text is emitted once, from the completed `agentMessage` item; deltas are live-only.
 */
export function createCodexEventTranslator(context: TranslatorContext): Translator {
  const openTools = new Map<string, string>();
  let thread: CodexThread | undefined;
  let lastAgentText: string | undefined;
  let turnErrorEmitted = false;

  const announceThread = (announced: CodexThread, model?: string, modelProvider?: string): void => {
    if (thread) return;
    thread = { ...announced, ...(model ? { model } : {}), ...(modelProvider ? { modelProvider } : {}) };
    context.reportSessionId(announced.id);
    context.emit({ type: 'status', sessionId: announced.id, state: 'started' });
  };

  const startTool = (callId: string, tool: string, input: JsonValue): void => {
    if (openTools.has(callId)) return;
    openTools.set(callId, tool);
    context.emit({ type: 'tool-use', tool, callId, input });
  };

  const finishTool = (input: { callId: string; tool: string; toolInput: JsonValue; output: string; ok: boolean; extras?: Record<string, unknown> }): void => {
    startTool(input.callId, input.tool, input.toolInput);
    openTools.delete(input.callId);
    context.emit({
      type: 'tool-result',
      callId: input.callId,
      tool: input.tool,
      output: input.output,
      status: input.ok ? 'ok' : 'error',
      ...(input.extras ? { metadata: { [CODEX_ADAPTER_ID]: input.extras } } : {}),
    });
  };

  const commandInput = (item: CodexCommandExecutionItem): JsonValue => ({ command: item.command, cwd: item.cwd });
  const fileChangeInput = (item: CodexFileChangeItem): JsonValue => ({
    changes: item.changes.map((change) => ({ path: change.path, kind: (change.kind ?? null) as JsonValue, diff: change.diff })),
  });
  const mcpName = (item: CodexMcpToolCallItem): string => `${item.server}.${item.tool}`;
  const genericInput = (item: CodexThreadItem): JsonValue => {
    const { type: _type, id: _id, ...rest } = item as Record<string, unknown>;
    return rest as JsonValue;
  };

  const onItemStarted = ({ item }: CodexItemNotification): void => {
    switch (item.type) {
      case 'commandExecution':
        return startTool(item.id, 'commandExecution', commandInput(item as CodexCommandExecutionItem));
      case 'fileChange':
        return startTool(item.id, 'fileChange', fileChangeInput(item as CodexFileChangeItem));
      case 'mcpToolCall': {
        const call = item as CodexMcpToolCallItem;
        return startTool(call.id, mcpName(call), (call.arguments ?? null) as JsonValue);
      }
      default:
        if (GENERIC_TOOL_ITEM_TYPES.has(item.type)) startTool(item.id, item.type, genericInput(item));
    }
  };

  const onItemCompleted = ({ item }: CodexItemNotification): void => {
    switch (item.type) {
      case 'agentMessage': {
        const text = (item as { text: string }).text;
        if (text === '') return;
        lastAgentText = text;
        return context.emit({ type: 'text', text });
      }
      case 'reasoning': {
        const reasoning = item as CodexReasoningItem;
        const text = [...reasoning.summary, ...reasoning.content].join('\n');
        if (text !== '') context.emit({ type: 'thinking', text });
        return;
      }
      case 'commandExecution': {
        const command = item as CodexCommandExecutionItem;
        return finishTool({
          callId: command.id,
          tool: 'commandExecution',
          toolInput: commandInput(command),
          output: command.aggregatedOutput ?? '',
          ok: command.status === 'completed' && (command.exitCode ?? 0) === 0,
          extras: { exitCode: command.exitCode, durationMs: command.durationMs, status: command.status },
        });
      }
      case 'fileChange': {
        const change = item as CodexFileChangeItem;
        return finishTool({
          callId: change.id,
          tool: 'fileChange',
          toolInput: fileChangeInput(change),
          output: change.changes.map((entry) => entry.path).join('\n'),
          ok: change.status === 'completed',
          extras: { status: change.status },
        });
      }
      case 'mcpToolCall': {
        const call = item as CodexMcpToolCallItem;
        return finishTool({
          callId: call.id,
          tool: mcpName(call),
          toolInput: (call.arguments ?? null) as JsonValue,
          output: call.error ? call.error.message : JSON.stringify(call.result ?? null),
          ok: call.status === 'completed' && !call.error,
        });
      }
      default:
        if (GENERIC_TOOL_ITEM_TYPES.has(item.type)) {
          const status = (item as { status?: unknown }).status;
          return finishTool({ callId: item.id, tool: item.type, toolInput: genericInput(item), output: '', ok: status !== 'failed' && status !== 'declined' });
        }
        if (CODEX_IGNORED_ITEM_TYPES.has(item.type) || QUIET_ITEM_TYPES.has(item.type)) return;
        context.reportMalformed(`unknown codex item type ${item.type}`, previewOf(item));
    }
  };

  const onTokenUsage = (usage: CodexTokenUsageNotification): void => {
    const total = usage.tokenUsage.total;
    const reported = {
      ...(thread?.modelProvider ? { provider: thread.modelProvider } : {}),
      model: thread?.model ?? 'unknown',
      inputTokens: total.inputTokens,
      outputTokens: total.outputTokens,
      cacheReadTokens: total.cachedInputTokens,
      ...(total.cacheWriteInputTokens !== undefined ? { cacheWriteTokens: total.cacheWriteInputTokens } : {}),
    };
    context.reportUsage(reported);
    context.emit({ type: 'usage', ...reported });
  };

  const onTurnCompleted = ({ turn }: CodexTurnNotification): void => {
    if (turn.status === 'completed') {
      context.reportResult({ status: 'completed', ...(lastAgentText !== undefined ? { output: lastAgentText } : {}) });
    } else if (turn.status === 'interrupted') {
      context.emit({ type: 'status', ...(thread ? { sessionId: thread.id } : {}), state: 'interrupted' });
      context.reportResult({ status: 'failed', errorMessage: 'the turn was interrupted' });
    } else {
      const errorMessage = turn.error?.message ?? `codex ended the turn with status ${turn.status}`;
      if (!turnErrorEmitted) context.emit({ type: 'error', code: 'codex_turn_failed', message: errorMessage });
      context.reportResult({ status: 'failed', errorMessage });
    }
    lastAgentText = undefined;
    turnErrorEmitted = false;
  };

  const onNotification = (method: string, params: unknown): void => {
    switch (method) {
      case 'thread/started':
        return announceThread((params as { thread: CodexThread }).thread);
      case 'item/started':
        return onItemStarted(params as CodexItemNotification);
      case 'item/completed':
        return onItemCompleted(params as CodexItemNotification);
      case 'thread/tokenUsage/updated':
        return onTokenUsage(params as CodexTokenUsageNotification);
      case 'turn/completed':
        return onTurnCompleted(params as CodexTurnNotification);
      case 'error': {
        const failure = params as CodexErrorNotification;
        if (failure.willRetry) return context.emit({ type: 'log', level: 'warn', text: `codex will retry: ${failure.error.message}` });
        turnErrorEmitted = true;
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
  };

  return (event: unknown) => {
    if (!isObject(event)) return context.reportMalformed('not a JSON-RPC frame', previewOf(event));
    const frame = event as CodexFrame;
    if (typeof frame.method === 'string') {
      // Server requests (approvals) are answered by the connection; their items tell the story.
      if (frame.id !== undefined) return;
      return onNotification(frame.method, frame.params);
    }
    if (frame.id !== undefined && ('result' in frame || 'error' in frame)) {
      // `thread/resume` announces no `thread/started`: its response names the thread.
      const result = frame.result;
      if (isObject(result) && isObject(result['thread']) && typeof result['thread']['id'] === 'string') {
        announceThread(result['thread'] as unknown as CodexThread, result['model'] as string | undefined, result['modelProvider'] as string | undefined);
      }
      // Error responses belong to the request that caused them: the backend decides what they mean.
      return;
    }
    context.reportMalformed('neither a request, a notification nor a response', previewOf(event));
  };
}
