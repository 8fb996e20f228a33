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

type AgentFrame = { id?: JsonRpcId | null; method?: unknown; params?: unknown; result?: unknown; error?: ErrorResponse };
type ClientFrame = { id?: JsonRpcId | null; method?: unknown; params?: unknown };

/** Per-run state: the client's requests by id, the tool calls opened and closed, the message being streamed, a session/load replay. */
interface AcpTranslation {
  readonly context: TranslatorContext;
  readonly provider: string | undefined;
  readonly requests: Map<string, { method: string; params: unknown }>;
  readonly openedTools: Map<string, string>;
  readonly closedTools: Set<string>;
  streaming: { kind: ChunkKind; text: string } | undefined;
  replaying: boolean;
  replayedUpdates: number;
  sessionAnnounced: boolean;
}

/**
 * Translates one ACP conversation (the frames both sides sent, see `AcpTrafficEvent`) into unified
 * messages and run facts. Pure: per-run state is the method of each client request by id, the
 * message being streamed, and which tool calls were opened and closed.
 */
export function createAcpEventTranslator(context: TranslatorContext, options: AcpEventTranslatorOptions = {}): Translator {
  const translation: AcpTranslation = {
    context,
    provider: options.provider,
    requests: new Map(),
    openedTools: new Map(),
    closedTools: new Set(),
    streaming: undefined,
    replaying: false,
    replayedUpdates: 0,
    sessionAnnounced: false,
  };
  return (event: unknown) => translateTraffic(translation, event);
}

function translateTraffic(translation: AcpTranslation, event: unknown): void {
  const { context } = translation;
  const traffic = event as Partial<AcpTrafficEvent>;
  if (typeof traffic.frame !== 'object' || traffic.frame === null) {
    context.reportMalformed('not a JSON-RPC frame', JSON.stringify(event)?.slice(0, PREVIEW_CHARACTERS) ?? String(event));
    return;
  }
  if (traffic.from === 'client') return onClientFrame(translation, traffic.frame);
  if (traffic.from === 'agent') return onAgentFrame(translation, traffic.frame);
  context.reportMalformed(`acp frame from unknown side ${String(traffic.from)}`, JSON.stringify(event).slice(0, PREVIEW_CHARACTERS));
}

/** Emits the message streamed so far, if any. */
function flush(translation: AcpTranslation): void {
  if (!translation.streaming) return;
  const { kind, text } = translation.streaming;
  translation.streaming = undefined;
  if (text !== '') translation.context.emit({ type: kind, text });
}

function announceSession(translation: AcpTranslation, sessionId: unknown, state: string): void {
  if (typeof sessionId !== 'string' || sessionId === '' || translation.sessionAnnounced) return;
  translation.sessionAnnounced = true;
  translation.context.reportSessionId(sessionId);
  translation.context.emit({ type: 'status', sessionId, state });
}

function openTool(translation: AcpTranslation, tool: ToolCallUpdate): void {
  if (translation.openedTools.has(tool.toolCallId)) return;
  const name = tool.kind ?? 'other';
  translation.openedTools.set(tool.toolCallId, name);
  const input: { [key: string]: JsonValue } = { title: tool.title ?? '' };
  if (tool.rawInput !== undefined) input['rawInput'] = tool.rawInput as JsonValue;
  if (tool.locations && tool.locations.length > 0) input['locations'] = tool.locations.map((location) => location.path);
  translation.context.emit({ type: 'tool-use', tool: name, callId: tool.toolCallId, input });
}

function closeTool(translation: AcpTranslation, tool: ToolCallUpdate): void {
  if (tool.status !== 'completed' && tool.status !== 'failed') return;
  if (translation.closedTools.has(tool.toolCallId)) return;
  translation.closedTools.add(tool.toolCallId);
  translation.context.emit({
    type: 'tool-result',
    callId: tool.toolCallId,
    tool: translation.openedTools.get(tool.toolCallId) ?? tool.kind ?? 'other',
    output: toolOutput(tool),
    status: tool.status === 'completed' ? 'ok' : 'error',
  });
}

function onChunk(translation: AcpTranslation, kind: ChunkKind, content: ContentBlock): void {
  if (translation.streaming && translation.streaming.kind !== kind) flush(translation);
  if (content.type !== 'text') {
    flush(translation);
    translation.context.emit({ type: 'log', level: 'info', text: `acp ${kind} chunk of type ${content.type} not shown` });
    return;
  }
  translation.streaming ??= { kind, text: '' };
  translation.streaming.text += content.text;
}

function onSessionUpdate(translation: AcpTranslation, params: SessionNotification): void {
  const { context } = translation;
  const update = params.update;
  // History replayed by session/load is the earlier run's timeline, already recorded there.
  if (translation.replaying) {
    translation.replayedUpdates += 1;
    return;
  }
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
      return onChunk(translation, 'text', update.content);
    case 'agent_thought_chunk':
      return onChunk(translation, 'thinking', update.content);
    case 'tool_call':
    case 'tool_call_update':
      flush(translation);
      openTool(translation, update);
      return closeTool(translation, update);
    case 'plan':
      flush(translation);
      context.emit({ type: 'log', level: 'debug', text: `acp plan: ${JSON.stringify(update.entries ?? []).slice(0, PREVIEW_CHARACTERS)}` });
      return;
    default:
      if (QUIET_UPDATES.has(update.sessionUpdate)) return;
      context.reportMalformed(`unknown acp session update ${update.sessionUpdate}`, JSON.stringify(update).slice(0, PREVIEW_CHARACTERS));
  }
}

function onPromptResult(translation: AcpTranslation, result: AcpPromptResponse): void {
  const { context, provider } = translation;
  flush(translation);
  for (const entry of result._meta?.quota?.model_usage ?? []) {
    context.reportUsage({
      ...(provider ? { provider } : {}),
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
}

function onErrorResponse(translation: AcpTranslation, method: string, error: ErrorResponse): void {
  const { context } = translation;
  flush(translation);
  const errorMessage = `${method} failed: ${describeAcpError(error)}`;
  if (RESUME_METHODS.has(method)) {
    translation.replaying = false;
    context.reportResumeRejected();
  }
  context.emit({ type: 'error', code: RESUME_METHODS.has(method) ? 'acp_resume_rejected' : 'acp_request_failed', message: errorMessage });
  context.reportResult({ status: 'failed', errorMessage });
}

function onAgentFrame(translation: AcpTranslation, frame: AgentFrame): void {
  if (typeof frame.method === 'string') return onAgentMessage(translation, frame.method, frame);
  const request = translation.requests.get(String(frame.id));
  if (!request) {
    translation.context.reportMalformed('acp response to no known request', JSON.stringify(frame).slice(0, PREVIEW_CHARACTERS));
    return;
  }
  translation.requests.delete(String(frame.id));
  if (frame.error) return onErrorResponse(translation, request.method, frame.error);
  if (request.method === 'session/new') return announceSession(translation, (frame.result as { sessionId?: unknown } | null)?.sessionId, 'started');
  if (RESUME_METHODS.has(request.method)) return announceSession(translation, (request.params as { sessionId?: unknown } | null)?.sessionId, 'resumed');
  if (request.method === 'session/prompt') return onPromptResult(translation, frame.result as AcpPromptResponse);
}

/** A request or notification the agent sent. */
function onAgentMessage(translation: AcpTranslation, method: string, frame: AgentFrame): void {
  if (method === 'session/update') return onSessionUpdate(translation, frame.params as SessionNotification);
  if (method === 'session/request_permission') {
    flush(translation);
    // Gemini asks before it announces the call: the request is the first sign of the tool.
    return openTool(translation, (frame.params as RequestPermissionRequest).toolCall);
  }
  translation.context.emit({ type: 'log', level: 'debug', text: `acp agent ${frame.id !== undefined ? 'request' : 'notification'} ${method}` });
}

function onClientFrame(translation: AcpTranslation, frame: ClientFrame): void {
  if (typeof frame.method !== 'string' || frame.id === undefined || frame.id === null) return;
  translation.requests.set(String(frame.id), { method: frame.method, params: frame.params });
  if (RESUME_METHODS.has(frame.method)) translation.replaying = true;
  if (frame.method === 'session/prompt') {
    const { replayedUpdates } = translation;
    if (replayedUpdates > 0) translation.context.emit({ type: 'log', level: 'debug', text: `acp replayed ${replayedUpdates} earlier update(s) on load` });
    translation.replaying = false;
    translation.replayedUpdates = 0;
  }
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
