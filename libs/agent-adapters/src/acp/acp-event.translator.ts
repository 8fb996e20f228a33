import type { ContentBlock, ErrorResponse, JsonRpcId, RequestPermissionRequest, SessionNotification, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { JsonValue } from '@switchyard/contracts';
import type { Translator, TranslatorContext } from '../backend/translator.types';
import type { AcpPromptResponse, AcpTrafficEvent } from './acp-wire.types';

const PREVIEW_CHARACTERS = 200;
const RESUME_METHODS = new Set(['session/load', 'session/resume']);
/** Updates that carry nothing for the timeline; they still count as activity for the watchdogs. */
const QUIET_UPDATES = new Set(['available_commands_update', 'current_mode_update', 'config_option_update', 'session_info_update', 'usage_update', 'user_message_chunk']);
const FAILED_STOP_REASONS: Readonly<Record<string, string>> = {
  max_tokens: 'the model reached its output token limit',
  max_turn_requests: 'the agent reached its limit of model requests for one turn',
  refusal: 'the agent refused to continue',
};

export interface AcpEventTranslatorOptions {
  /** Provider named in usage reports (`google` for Gemini CLI). */
  readonly provider?: string;
}

type ChunkKind = 'text' | 'thinking';

/**
 * Translates one ACP conversation (the frames both sides sent, see `AcpTrafficEvent`) into unified
 * messages and run facts. Pure: per-run state is the method of each client request by id, the
 * message being streamed, and which tool calls were opened and closed.
 */
export function createAcpEventTranslator(context: TranslatorContext, options: AcpEventTranslatorOptions = {}): Translator {
  const requests = new Map<string, { method: string; params: unknown }>();
  const openedTools = new Map<string, string>();
  const closedTools = new Set<string>();
  let streaming: { kind: ChunkKind; text: string } | undefined;
  let replaying = false;
  let replayedUpdates = 0;
  let sessionAnnounced = false;

  const flush = (): void => {
    if (!streaming) return;
    const { kind, text } = streaming;
    streaming = undefined;
    if (text !== '') context.emit({ type: kind, text });
  };

  const announceSession = (sessionId: unknown, state: string): void => {
    if (typeof sessionId !== 'string' || sessionId === '' || sessionAnnounced) return;
    sessionAnnounced = true;
    context.reportSessionId(sessionId);
    context.emit({ type: 'status', sessionId, state });
  };

  const openTool = (tool: ToolCallUpdate): void => {
    if (openedTools.has(tool.toolCallId)) return;
    const name = tool.kind ?? 'other';
    openedTools.set(tool.toolCallId, name);
    const input: { [key: string]: JsonValue } = { title: tool.title ?? '' };
    if (tool.rawInput !== undefined) input['rawInput'] = tool.rawInput as JsonValue;
    if (tool.locations && tool.locations.length > 0) input['locations'] = tool.locations.map((location) => location.path);
    context.emit({ type: 'tool-use', tool: name, callId: tool.toolCallId, input });
  };

  const closeTool = (tool: ToolCallUpdate): void => {
    if (tool.status !== 'completed' && tool.status !== 'failed') return;
    if (closedTools.has(tool.toolCallId)) return;
    closedTools.add(tool.toolCallId);
    context.emit({
      type: 'tool-result',
      callId: tool.toolCallId,
      tool: openedTools.get(tool.toolCallId) ?? tool.kind ?? 'other',
      output: toolOutput(tool),
      status: tool.status === 'completed' ? 'ok' : 'error',
    });
  };

  const onChunk = (kind: ChunkKind, content: ContentBlock): void => {
    if (streaming && streaming.kind !== kind) flush();
    if (content.type !== 'text') {
      flush();
      context.emit({ type: 'log', level: 'info', text: `acp ${kind} chunk of type ${content.type} not shown` });
      return;
    }
    streaming ??= { kind, text: '' };
    streaming.text += content.text;
  };

  const onSessionUpdate = (params: SessionNotification): void => {
    const update = params.update;
    // History replayed by session/load is the earlier run's timeline, already recorded there.
    if (replaying) {
      replayedUpdates += 1;
      return;
    }
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        return onChunk('text', update.content);
      case 'agent_thought_chunk':
        return onChunk('thinking', update.content);
      case 'tool_call':
      case 'tool_call_update':
        flush();
        openTool(update);
        return closeTool(update);
      case 'plan':
        flush();
        context.emit({ type: 'log', level: 'debug', text: `acp plan: ${JSON.stringify(update.entries ?? []).slice(0, PREVIEW_CHARACTERS)}` });
        return;
      default:
        if (QUIET_UPDATES.has(update.sessionUpdate)) return;
        context.reportMalformed(`unknown acp session update ${update.sessionUpdate}`, JSON.stringify(update).slice(0, PREVIEW_CHARACTERS));
    }
  };

  const onPromptResult = (result: AcpPromptResponse): void => {
    flush();
    for (const entry of result._meta?.quota?.model_usage ?? []) {
      context.reportUsage({
        ...(options.provider ? { provider: options.provider } : {}),
        model: entry.model,
        inputTokens: entry.token_count?.input_tokens ?? 0,
        outputTokens: entry.token_count?.output_tokens ?? 0,
      });
    }
    if (result.stopReason === 'end_turn') {
      context.reportResult({ status: 'completed' });
      return;
    }
    // A cancelled turn is ours (interrupt or cancel): the session reports it, not as a failure.
    if (result.stopReason === 'cancelled') {
      context.emit({ type: 'status', state: 'cancelled' });
      return;
    }
    const errorMessage = FAILED_STOP_REASONS[result.stopReason] ?? `the agent stopped: ${result.stopReason}`;
    context.emit({ type: 'error', code: `acp_${result.stopReason}`, message: errorMessage });
    context.reportResult({ status: 'failed', errorMessage });
  };

  const onErrorResponse = (method: string, error: ErrorResponse): void => {
    flush();
    const errorMessage = `${method} failed: ${describeAcpError(error)}`;
    if (RESUME_METHODS.has(method)) {
      replaying = false;
      context.reportResumeRejected();
    }
    context.emit({ type: 'error', code: RESUME_METHODS.has(method) ? 'acp_resume_rejected' : 'acp_request_failed', message: errorMessage });
    context.reportResult({ status: 'failed', errorMessage });
  };

  const onAgentFrame = (frame: { id?: JsonRpcId | null; method?: unknown; params?: unknown; result?: unknown; error?: ErrorResponse }): void => {
    if (typeof frame.method === 'string') {
      if (frame.method === 'session/update') return onSessionUpdate(frame.params as SessionNotification);
      if (frame.method === 'session/request_permission') {
        flush();
        // Gemini asks before it announces the call: the request is the first sign of the tool.
        return openTool((frame.params as RequestPermissionRequest).toolCall);
      }
      context.emit({ type: 'log', level: 'debug', text: `acp agent ${frame.id !== undefined ? 'request' : 'notification'} ${frame.method}` });
      return;
    }
    const request = requests.get(String(frame.id));
    if (!request) {
      context.reportMalformed('acp response to no known request', JSON.stringify(frame).slice(0, PREVIEW_CHARACTERS));
      return;
    }
    requests.delete(String(frame.id));
    if (frame.error) return onErrorResponse(request.method, frame.error);
    if (request.method === 'session/new') return announceSession((frame.result as { sessionId?: unknown } | null)?.sessionId, 'started');
    if (RESUME_METHODS.has(request.method)) return announceSession((request.params as { sessionId?: unknown } | null)?.sessionId, 'resumed');
    if (request.method === 'session/prompt') return onPromptResult(frame.result as AcpPromptResponse);
  };

  const onClientFrame = (frame: { id?: JsonRpcId | null; method?: unknown; params?: unknown }): void => {
    if (typeof frame.method !== 'string' || frame.id === undefined || frame.id === null) return;
    requests.set(String(frame.id), { method: frame.method, params: frame.params });
    if (RESUME_METHODS.has(frame.method)) replaying = true;
    if (frame.method === 'session/prompt') {
      if (replayedUpdates > 0) context.emit({ type: 'log', level: 'debug', text: `acp replayed ${replayedUpdates} earlier update(s) on load` });
      replaying = false;
      replayedUpdates = 0;
    }
  };

  return (event: unknown) => {
    const traffic = event as Partial<AcpTrafficEvent>;
    if (typeof traffic.frame !== 'object' || traffic.frame === null) {
      context.reportMalformed('not a JSON-RPC frame', JSON.stringify(event)?.slice(0, PREVIEW_CHARACTERS) ?? String(event));
      return;
    }
    if (traffic.from === 'client') return onClientFrame(traffic.frame);
    if (traffic.from === 'agent') return onAgentFrame(traffic.frame);
    context.reportMalformed(`acp frame from unknown side ${String(traffic.from)}`, JSON.stringify(event).slice(0, PREVIEW_CHARACTERS));
  };
}

function toolOutput(tool: ToolCallUpdate): string {
  const parts: string[] = [];
  for (const item of tool.content ?? []) {
    if (item.type === 'content') parts.push(item.content.type === 'text' ? item.content.text : `[${item.content.type}]`);
    else if (item.type === 'diff') parts.push(`[diff ${item.path}]`);
    else if (item.type === 'terminal') parts.push(`[terminal ${item.terminalId}]`);
  }
  if (parts.length === 0 && tool.rawOutput !== undefined) return typeof tool.rawOutput === 'string' ? tool.rawOutput : JSON.stringify(tool.rawOutput);
  return parts.join('\n');
}

/** The agent's own words for an error: `data.details` (Gemini) or `data.message` when present. */
function describeAcpError(error: ErrorResponse): string {
  const data = error.data as { details?: unknown; message?: unknown } | null | undefined;
  const detail = typeof data?.details === 'string' ? data.details : typeof data?.message === 'string' ? data.message : undefined;
  return detail ? `${error.message}: ${detail}` : error.message;
}
