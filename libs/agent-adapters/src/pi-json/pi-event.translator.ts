import type { JsonValue, LogLevel, TokenUsage } from '@switchyard/contracts';
import type { Translator, TranslatorContext } from '../backend/translator.types';
import { piDialect, type PiDialect, type PiDialectId } from './pi-dialect';
import type {
  PiAgentEndEvent,
  PiAssistantMessage,
  PiAutoRetryEndEvent,
  PiAutoRetryStartEvent,
  PiCompactionEndEvent,
  PiErrorEvent,
  PiMessage,
  PiMessageEndEvent,
  PiNoticeEvent,
  PiSessionHeader,
  PiTextContent,
  PiThinkingContent,
  PiToolExecutionEndEvent,
  PiToolExecutionStartEvent,
} from './pi-wire.types';

const FAILED_STOP_REASONS = new Set(['error', 'aborted']);
const PREVIEW_CHARACTERS = 200;

export interface PiEventTranslatorOptions {
  readonly dialect?: PiDialectId;
  /** The session id (or file path) the run was asked to resume, to notice a silent switch. */
  readonly resumeSessionId?: string;
}

const isAssistant = (message: PiMessage | undefined): message is PiAssistantMessage => message?.role === 'assistant';
const isSessionPath = (value: string): boolean => value.includes('/') || value.includes('\\') || value.endsWith('.jsonl');

/** Per-run state: the dialect, the usage summed per model, whether the session was announced, the latest assistant message. */
interface PiTranslation {
  readonly context: TranslatorContext;
  readonly dialect: PiDialect;
  readonly resumeSessionId: string | undefined;
  readonly usageByModel: Map<string, TokenUsage>;
  sessionAnnounced: boolean;
  lastAssistant: PiAssistantMessage | undefined;
}

/**
 * Translates Pi / omp `--mode json` events into unified messages and run facts. Whole texts come from
 * `message_end` (the `message_update` token deltas are skipped), tool calls from the tool execution
 * events, usage is summed per model over the assistant messages. The run is completed at the final
 * `agent_end` whose last assistant message ended normally; a failed one is reported by omp's terminal
 * `agent_end` at once, by Pi only through its exit (it may still retry), see pi-json.backend.ts.
 */
export function createPiEventTranslator(context: TranslatorContext, options: PiEventTranslatorOptions = {}): Translator {
  const translation: PiTranslation = {
    context,
    dialect: piDialect(options.dialect),
    resumeSessionId: options.resumeSessionId,
    usageByModel: new Map(),
    sessionAnnounced: false,
    lastAssistant: undefined,
  };
  return (event: unknown) => translateEvent(translation, event);
}

const log = (translation: PiTranslation, level: LogLevel, text: string): void => translation.context.emit({ type: 'log', level, text });
const previewOf = (value: unknown): string => JSON.stringify(value).slice(0, PREVIEW_CHARACTERS);

function translateEvent(translation: PiTranslation, event: unknown): void {
  const { dialect } = translation;
  const typed = event as { type?: unknown } | null;
  const type = typeof typed?.type === 'string' ? typed.type : undefined;
  if (type !== undefined && dialect.quietEvents.has(type)) return;
  switch (type) {
    case 'session':
      return onSessionHeader(translation, event as PiSessionHeader);
    case 'message_end':
      return onMessageEnd(translation, event as PiMessageEndEvent);
    case 'tool_execution_start':
      return onToolStart(translation, event as PiToolExecutionStartEvent);
    case 'tool_execution_end':
      return onToolEnd(translation, event as PiToolExecutionEndEvent);
    case 'agent_end':
      return onAgentEnd(translation, event as PiAgentEndEvent);
    case 'auto_retry_start':
      return onRetryStart(translation, event as PiAutoRetryStartEvent);
    case 'auto_retry_end':
      return onRetryEnd(translation, event as PiAutoRetryEndEvent);
    case 'compaction_start':
    case 'auto_compaction_start':
      return log(translation, 'info', `${dialect.id} is compacting the context`);
    case 'compaction_end':
    case 'auto_compaction_end':
      return onCompactionEnd(translation, event as PiCompactionEndEvent);
    case 'error':
      return onError(translation, event as PiErrorEvent);
    case 'notice':
      if (dialect.id === 'omp') return onNotice(translation, event as PiNoticeEvent);
      break;
    case 'retry_fallback_applied':
    case 'retry_fallback_succeeded':
    case 'ttsr_triggered':
      if (dialect.id === 'omp') return log(translation, 'info', `${dialect.id} ${type}: ${previewOf(event)}`);
      break;
    default:
      break;
  }
  translation.context.reportMalformed(`unknown ${dialect.id} event type ${String(type)}`, previewOf(event));
}

function onSessionHeader(translation: PiTranslation, header: PiSessionHeader): void {
  const { context, dialect } = translation;
  if (translation.sessionAnnounced || typeof header.id !== 'string' || header.id === '') return;
  translation.sessionAnnounced = true;
  const asked = translation.resumeSessionId;
  // Pi matches an id by prefix; a header that does not carry it means another session was opened.
  if (asked !== undefined && !isSessionPath(asked) && !header.id.startsWith(asked)) {
    context.reportResumeRejected();
    log(translation, 'warn', `${dialect.id} opened session ${header.id} instead of ${asked}`);
  }
  context.reportSessionId(header.id);
  context.emit({ type: 'status', sessionId: header.id, state: 'started' });
}

function addUsage(translation: PiTranslation, message: PiAssistantMessage): void {
  const usage = message.usage;
  const model = message.model;
  if (!usage || !model) return;
  const input = usage.input ?? 0;
  const output = usage.output ?? 0;
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  if (input + output + cacheRead + cacheWrite === 0) return;
  const key = `${message.provider ?? ''}\u0000${model}`;
  const previous = translation.usageByModel.get(key);
  const total: TokenUsage = {
    ...(message.provider ? { provider: message.provider } : {}),
    model,
    inputTokens: (previous?.inputTokens ?? 0) + input,
    outputTokens: (previous?.outputTokens ?? 0) + output,
    cacheReadTokens: (previous?.cacheReadTokens ?? 0) + cacheRead,
    cacheWriteTokens: (previous?.cacheWriteTokens ?? 0) + cacheWrite,
  };
  translation.usageByModel.set(key, total);
  translation.context.reportUsage(total);
  translation.context.emit({ type: 'usage', ...total });
}

function onAssistantEnd(translation: PiTranslation, message: PiAssistantMessage): void {
  const { context, dialect } = translation;
  translation.lastAssistant = message;
  for (const block of message.content) {
    if (block.type === 'text') {
      const text = (block as PiTextContent).text;
      if (text.trim() !== '') context.emit({ type: 'text', text });
    } else if (block.type === 'thinking') {
      const thinking = block as PiThinkingContent;
      if (!thinking.redacted && thinking.thinking.trim() !== '') context.emit({ type: 'thinking', text: thinking.thinking });
    } else if (block.type !== 'toolCall') {
      // Tool calls become `tool-use` when they run (tool_execution_start).
      context.reportMalformed(`unknown ${dialect.id} assistant content ${block.type}`, previewOf(block));
    }
  }
  addUsage(translation, message);
  const stopReason = message.stopReason ?? 'stop';
  if (FAILED_STOP_REASONS.has(stopReason)) {
    context.emit({ type: 'error', code: `${dialect.id}_${stopReason}`, message: message.errorMessage ?? `the model call ended with ${stopReason}` });
  }
}

function onMessageEnd(translation: PiTranslation, event: PiMessageEndEvent): void {
  const message = event.message;
  if (isAssistant(message)) return onAssistantEnd(translation, message);
  // user: our own prompt; toolResult: already reported by tool_execution_end.
  if (message.role === 'user' || message.role === 'toolResult') return;
  log(translation, 'debug', `${translation.dialect.id} ${message.role} message`);
}

function onToolStart(translation: PiTranslation, event: PiToolExecutionStartEvent): void {
  translation.context.emit({ type: 'tool-use', tool: event.toolName, callId: event.toolCallId, input: (event.args ?? null) as JsonValue });
}

function onToolEnd(translation: PiTranslation, event: PiToolExecutionEndEvent): void {
  translation.context.emit({
    type: 'tool-result',
    callId: event.toolCallId,
    tool: event.toolName,
    output: toolResultText(event.result),
    status: event.isError ? 'error' : 'ok',
  });
}

function onAgentEnd(translation: PiTranslation, event: PiAgentEndEvent): void {
  const { context, dialect } = translation;
  // omp: a non-terminal end is followed by more work of the same run (retry, compaction, queue).
  if (event.isTerminal === false) return;
  const final = [...(event.messages ?? [])].reverse().find(isAssistant) ?? translation.lastAssistant;
  const stopReason = final?.stopReason ?? 'stop';
  if (!FAILED_STOP_REASONS.has(stopReason)) {
    const output = final ? textOf(final) : '';
    context.reportResult({ status: 'completed', ...(output !== '' ? { output } : {}) });
    return;
  }
  // Pi prints this end before it decides to retry; only omp says the end is final.
  if (event.isTerminal === true) {
    context.reportResult({ status: 'failed', errorMessage: final?.errorMessage ?? `${dialect.id} ended with ${stopReason}` });
  }
}

function onRetryStart(translation: PiTranslation, event: PiAutoRetryStartEvent): void {
  const { id } = translation.dialect;
  log(translation, 'warn', `${id} retries the model call (attempt ${event.attempt} of ${event.maxAttempts}, in ${event.delayMs} ms): ${event.errorMessage}`);
}

function onRetryEnd(translation: PiTranslation, event: PiAutoRetryEndEvent): void {
  const { id } = translation.dialect;
  if (event.success) log(translation, 'info', `${id} model call succeeded on retry ${event.attempt}`);
  else log(translation, 'warn', `${id} gave up retrying after attempt ${event.attempt}: ${event.finalError ?? 'unknown error'}`);
}

function onCompactionEnd(translation: PiTranslation, event: PiCompactionEndEvent): void {
  const { id } = translation.dialect;
  if (event.errorMessage) log(translation, 'warn', `${id} context compaction failed: ${event.errorMessage}`);
  else log(translation, 'info', `${id} compacted the context${event.aborted ? ' (aborted)' : ''}${event.willRetry ? ', retrying' : ''}`);
}

function onNotice(translation: PiTranslation, event: PiNoticeEvent): void {
  const level: LogLevel = event.level === 'error' ? 'error' : event.level === 'warning' ? 'warn' : 'info';
  log(translation, level, `${translation.dialect.id} notice: ${event.message ?? ''}`);
}

function onError(translation: PiTranslation, event: PiErrorEvent): void {
  const detail = typeof event.error === 'string' ? event.error : event.error?.message;
  translation.context.emit({ type: 'error', code: `${translation.dialect.id}_error`, message: event.message ?? detail ?? previewOf(event) });
}

function textOf(message: PiAssistantMessage): string {
  return message.content
    .filter((block): block is PiTextContent => block.type === 'text')
    .map((block) => block.text)
    .join('');
}

function toolResultText(result: PiToolExecutionEndEvent['result']): string {
  if (result === undefined) return '';
  if (typeof result === 'string') return result;
  return (result.content ?? []).map((part) => (typeof part.text === 'string' ? part.text : `[${part.type}]`)).join('\n');
}
