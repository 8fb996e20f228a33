import type { JsonValue, TokenUsage } from '@switchyard/contracts';
import { AGENT_RUN_ERROR_CODES } from '../run-errors/agent-run-error.codes';
import type { Translator, TranslatorContext } from '../backend/translator.types';
import {
  DSH_ADAPTER_ID,
  DSH_ERROR_CODES,
  DSH_PROTOCOL_VERSION,
  type DshContentFrame,
  type DshFrame,
  type DshProtocolErrorFrame,
  type DshReadyFrame,
  type DshResultFrame,
  type DshSessionFrame,
  type DshToolCallFrame,
  type DshToolResultFrame,
  type DshUsageFrame,
} from './dsh-wire.types';

/** Result statuses that mean the request was stopped, not that it failed. */
const CANCELLED_STATUSES: ReadonlySet<string> = new Set(['cancelled', 'canceled', 'aborted']);

export interface DshEventTranslatorOptions {
  /** The `request_id` of our execute frame: frames for any other request are malformed. */
  readonly requestId: string;
  /** The session asked to resume: a session frame naming it after a rejection is not adopted. */
  readonly resumeSessionId?: string;
  /** A `ready` frame of our protocol version arrived: the execute frame may go out. */
  readonly onReady?: () => void;
  /** DSH reported the request cancelled; the backend ends the run as `cancelled`. */
  readonly onCancelled?: () => void;
  /** The stream cannot be trusted (other version, protocol error): DSH should stop the request. */
  readonly onProtocolFailure?: () => void;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const previewOf = (value: unknown): string => JSON.stringify(value).slice(0, 200);
const tokens = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0);

/** A tool input from DSH's JSON text; text that is not a JSON object is kept as `raw`. */
function toolInput(argumentsText: unknown): JsonValue {
  if (argumentsText === undefined || argumentsText === '') return {};
  if (isObject(argumentsText)) return argumentsText as JsonValue;
  if (typeof argumentsText !== 'string') return { raw: JSON.stringify(argumentsText) };
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    return isObject(parsed) ? (parsed as JsonValue) : { raw: argumentsText };
  } catch {
    return { raw: argumentsText };
  }
}

/** Per-run state: the tool names by call id, the usage totals by model, and how far the request got. */
interface DshTranslation {
  readonly context: TranslatorContext;
  readonly options: DshEventTranslatorOptions;
  readonly toolNames: Map<string, string>;
  readonly usageByModel: Map<string, TokenUsage>;
  sessionAnnounced: boolean;
  ready: boolean;
  ended: boolean;
  protocolFailed: boolean;
}

/**
 * Translates DSH frames into unified messages and run facts. Pure: per-run state is the tool names
 * by call id, the usage totals by model (DSH reports each model call, we report running totals),
 * and whether the request has ended. A frame of another protocol version ends the run: reading it
 * as ours could mistake what DSH did.
 */
export function createDshEventTranslator(context: TranslatorContext, options: DshEventTranslatorOptions): Translator {
  const translation: DshTranslation = {
    context,
    options,
    toolNames: new Map(),
    usageByModel: new Map(),
    sessionAnnounced: false,
    ready: false,
    ended: false,
    protocolFailed: false,
  };
  return (event: unknown) => translateEvent(translation, event);
}

/** Checks the envelope (object, protocol version, our request, not after the end), then reads the frame. */
function translateEvent(translation: DshTranslation, event: unknown): void {
  const { context, options } = translation;
  if (!isObject(event)) return context.reportMalformed('not a DSH frame', previewOf(event));
  if (typeof event['v'] !== 'number' || !Number.isInteger(event['v'])) return context.reportMalformed('dsh frame without a protocol version', previewOf(event));
  if (translation.protocolFailed) return context.reportMalformed('dsh frame after a protocol failure', previewOf(event));
  if (event['v'] !== DSH_PROTOCOL_VERSION) {
    return failProtocol(
      translation,
      DSH_ERROR_CODES.protocolVersionUnsupported,
      `DSH sent a ${String(event['type'])} frame of protocol version ${String(event['v'])}, this client speaks version ${DSH_PROTOCOL_VERSION}`,
    );
  }
  const frame = event as unknown as DshFrame;
  // `ready` is about the process, not a request. Frames without a request id are taken as ours
  // (the public client does the same); a different id is another request's and not read.
  if (frame.type !== 'ready' && frame.request_id !== undefined && frame.request_id !== options.requestId) {
    return context.reportMalformed(`dsh frame for another request ${String(frame.request_id)}`, previewOf(event));
  }
  if (translation.ended && (frame.type === 'result' || frame.type === 'protocol_error')) return context.reportMalformed(`dsh ${frame.type} after the request ended`, previewOf(event));
  readFrame(translation, frame, event);
}

function readFrame(translation: DshTranslation, frame: DshFrame, event: Record<string, unknown>): void {
  switch (frame.type) {
    case 'ready':
      return onReady(translation, frame);
    case 'session':
      return onSession(translation, frame);
    case 'text':
    case 'thinking':
      return onContent(translation, frame);
    case 'tool_call':
      return onToolCall(translation, frame);
    case 'tool_result':
      return onToolResult(translation, frame);
    case 'usage':
      return onUsage(translation, frame);
    case 'protocol_error':
      return onProtocolError(translation, frame);
    case 'result':
      return onResult(translation, frame);
    default:
      translation.context.reportMalformed(`unknown dsh frame type ${String((frame as { type?: unknown }).type)}`, previewOf(event));
  }
}

function failProtocol(translation: DshTranslation, code: string, message: string): void {
  const { context, options } = translation;
  translation.protocolFailed = true;
  translation.ended = true;
  options.onProtocolFailure?.();
  context.emit({ type: 'error', code, message });
  context.reportResult({
    status: 'failed',
    errorMessage: `${code}: ${message}`,
    ...(code === DSH_ERROR_CODES.protocolVersionUnsupported ? { errorCode: AGENT_RUN_ERROR_CODES.protocolVersionUnsupported } : {}),
  });
}

function announceSession(translation: DshTranslation, sessionId: unknown, state: string): void {
  if (typeof sessionId !== 'string' || sessionId === '' || translation.sessionAnnounced) return;
  translation.sessionAnnounced = true;
  translation.context.reportSessionId(sessionId);
  translation.context.emit({ type: 'status', sessionId, state });
}

function onReady(translation: DshTranslation, frame: DshReadyFrame): void {
  const { context, options } = translation;
  const advertised = frame.protocol_version ?? DSH_PROTOCOL_VERSION;
  if (advertised !== DSH_PROTOCOL_VERSION) {
    return failProtocol(
      translation,
      DSH_ERROR_CODES.protocolVersionUnsupported,
      `DSH is ready with protocol version ${String(advertised)}, this client speaks version ${DSH_PROTOCOL_VERSION}`,
    );
  }
  if (translation.ready) return context.emit({ type: 'log', level: 'warn', text: 'dsh announced ready twice' });
  translation.ready = true;
  context.emit({ type: 'log', level: 'debug', text: `dsh ready (runtime ${frame.runtime ?? 'unnamed'}, protocol ${advertised})` });
  options.onReady?.();
}

function onSession(translation: DshTranslation, frame: DshSessionFrame): void {
  const { context, options } = translation;
  if (frame.resume_rejected) {
    context.reportResumeRejected();
    context.emit({ type: 'status', state: 'resume_rejected', progress: `dsh rejected session ${options.resumeSessionId ?? '(unnamed)'}` });
    if (frame.session_id === undefined || frame.session_id === options.resumeSessionId) return;
  }
  if (typeof frame.session_id !== 'string' || frame.session_id === '') return context.reportMalformed('dsh session frame without session_id', previewOf(frame));
  announceSession(translation, frame.session_id, frame.resumed ? 'resumed' : 'started');
}

function onContent(translation: DshTranslation, frame: DshContentFrame): void {
  if (frame.content === undefined || frame.content === '') return;
  if (typeof frame.content !== 'string') return translation.context.reportMalformed(`dsh ${frame.type} frame with non-text content`, previewOf(frame));
  translation.context.emit({ type: frame.type, text: frame.content });
}

function onToolCall(translation: DshTranslation, frame: DshToolCallFrame): void {
  if (typeof frame.call_id !== 'string' || frame.call_id === '' || typeof frame.name !== 'string' || frame.name === '') {
    return translation.context.reportMalformed('dsh tool_call without call_id or name', previewOf(frame));
  }
  translation.toolNames.set(frame.call_id, frame.name);
  translation.context.emit({ type: 'tool-use', tool: frame.name, callId: frame.call_id, input: toolInput(frame.arguments) });
}

function onToolResult(translation: DshTranslation, frame: DshToolResultFrame): void {
  const { context } = translation;
  if (typeof frame.call_id !== 'string' || frame.call_id === '') return context.reportMalformed('dsh tool_result without call_id', previewOf(frame));
  const tool = typeof frame.name === 'string' && frame.name !== '' ? frame.name : translation.toolNames.get(frame.call_id);
  const output = frame.output === undefined ? '' : typeof frame.output === 'string' ? frame.output : JSON.stringify(frame.output);
  context.emit({ type: 'tool-result', callId: frame.call_id, ...(tool ? { tool } : {}), output, status: frame.is_error ? 'error' : 'ok' });
}

function onUsage(translation: DshTranslation, frame: DshUsageFrame): void {
  const provider = typeof frame.provider === 'string' && frame.provider !== '' ? frame.provider : undefined;
  const model = typeof frame.model === 'string' && frame.model !== '' ? frame.model : 'unknown';
  const key = `${provider ?? ''}\u0000${model}`;
  const before = translation.usageByModel.get(key);
  const total: TokenUsage = {
    ...(provider ? { provider } : {}),
    model,
    inputTokens: (before?.inputTokens ?? 0) + tokens(frame.input_tokens),
    outputTokens: (before?.outputTokens ?? 0) + tokens(frame.output_tokens),
    cacheReadTokens: (before?.cacheReadTokens ?? 0) + tokens(frame.cache_read_tokens),
    cacheWriteTokens: (before?.cacheWriteTokens ?? 0) + tokens(frame.cache_write_tokens),
  };
  translation.usageByModel.set(key, total);
  translation.context.reportUsage(total);
}

// One request per process: a protocol error about it means the request will not run.
function onProtocolError(translation: DshTranslation, frame: DshProtocolErrorFrame): void {
  failProtocol(translation, DSH_ERROR_CODES.protocolError, `${frame.code ?? 'unknown'}: ${frame.message ?? 'DSH reported a protocol error'}`);
}

function onResult(translation: DshTranslation, frame: DshResultFrame): void {
  const { context, options } = translation;
  announceSession(translation, frame.session_id, 'started');
  translation.ended = true;
  const status = typeof frame.status === 'string' ? frame.status : 'unknown';
  if (status === 'completed') {
    context.reportResult({ status: 'completed', ...(typeof frame.output === 'string' && frame.output !== '' ? { output: frame.output } : {}) });
    return;
  }
  if (CANCELLED_STATUSES.has(status)) {
    context.emit({ type: 'status', state: 'cancelled' });
    options.onCancelled?.();
    return;
  }
  if (frame.resume_rejected) context.reportResumeRejected();
  const reason = frame.error ? `${frame.error.code ?? 'error'}: ${frame.error.message ?? ''}`.trim() : `dsh ended the request with status ${status}`;
  const code = frame.resume_rejected ? DSH_ERROR_CODES.resumeRejected : DSH_ERROR_CODES.runFailed;
  context.emit({
    type: 'error',
    code,
    message: reason,
    metadata: { [DSH_ADAPTER_ID]: { status, ...(frame.error?.code ? { code: frame.error.code } : {}), ...(frame.stop_reason ? { stopReason: frame.stop_reason } : {}) } },
  });
  context.reportResult({ status: 'failed', errorMessage: reason });
}
