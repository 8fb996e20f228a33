import type { TokenUsage } from '@switchyard/contracts';
import type { Translator, TranslatorContext } from '../backend/translator.types';
import { createOpenClawDocumentAssembler } from './openclaw-document.assembler';
import type { OpenClawAgentEnvelope, OpenClawCliFailure, OpenClawGatewayResponse, OpenClawPayload, OpenClawRunMeta } from './openclaw-wire.types';

/** Stands for the whole run's tool calls: OpenClaw's reply only counts them (`meta.toolSummary`). */
const TOOL_SUMMARY_CALL_ID = 'openclaw-tool-summary';

export interface OpenClawEventTranslatorOptions {
  /** The id the run was started with (`--session-id`): Switchyard owns it, so it is known at once. */
  readonly sessionId?: string;
}

/** Per-run state: the reply document being assembled from lines, and the session announced. */
interface OpenClawTranslation {
  readonly context: TranslatorContext;
  readonly assemble: ReturnType<typeof createOpenClawDocumentAssembler>;
  announcedSessionId: string | undefined;
}

/** What the payloads of a reply said: the last answer and the first error. */
interface ReplyTexts {
  readonly output: string | undefined;
  readonly errorText: string | undefined;
}

/**
 * Translates `openclaw agent --json` stdout (text lines; see `openclaw-wire.types.ts`) into
 * unified messages and run facts. OpenClaw streams nothing while it works: the whole turn arrives
 * as one reply document at the end, its tool calls only as a count.
 */
export function createOpenClawEventTranslator(context: TranslatorContext, options: OpenClawEventTranslatorOptions = {}): Translator {
  const translation: OpenClawTranslation = { context, assemble: createOpenClawDocumentAssembler(), announcedSessionId: undefined };
  announceSession(translation, options.sessionId);
  return (event: unknown) => translateLine(translation, event);
}

function translateLine(translation: OpenClawTranslation, event: unknown): void {
  const { context } = translation;
  const line = String(event);
  const assembled = translation.assemble(line);
  if (assembled.abandoned !== undefined) context.reportMalformed('JSON document cut short by the next one', assembled.abandoned.slice(0, 200));
  if (assembled.kind === 'document') onDocument(translation, assembled.value, line);
  else if (assembled.kind === 'unreadable') context.reportMalformed(assembled.reason, assembled.text.slice(0, 200));
}

function announceSession(translation: OpenClawTranslation, sessionId: string | undefined): void {
  if (!sessionId || sessionId === translation.announcedSessionId) return;
  translation.announcedSessionId = sessionId;
  translation.context.reportSessionId(sessionId);
  translation.context.emit({ type: 'status', sessionId, state: 'started' });
}

function onDocument(translation: OpenClawTranslation, document: unknown, line: string): void {
  const { context } = translation;
  const record = document as Partial<OpenClawCliFailure & OpenClawAgentEnvelope & OpenClawGatewayResponse> | null;
  if (record === null || typeof record !== 'object') context.reportMalformed('not an openclaw reply', line.slice(0, 200));
  else if (record.ok === false && record.error) onCliFailure(translation, record as OpenClawCliFailure);
  else if (Array.isArray(record.payloads)) onReply(translation, record as OpenClawAgentEnvelope, undefined);
  else if (record.result && Array.isArray(record.result.payloads)) onReply(translation, record.result, record.status);
  else if (record.status !== undefined) onReply(translation, { payloads: [] }, record.status);
  else context.reportMalformed('not an openclaw reply', JSON.stringify(document).slice(0, 200));
}

function onCliFailure(translation: OpenClawTranslation, failure: OpenClawCliFailure): void {
  const errorMessage = failure.error.message;
  translation.context.emit({ type: 'error', code: `openclaw_${failure.error.type ?? 'error'}`, message: errorMessage });
  translation.context.reportResult({ status: 'failed', errorMessage });
}

function onMeta(translation: OpenClawTranslation, meta: OpenClawRunMeta): void {
  const { context } = translation;
  const agentMeta = meta.agentMeta;
  announceSession(translation, agentMeta?.sessionId);
  if (agentMeta?.usage && agentMeta.model) {
    const usage: TokenUsage = {
      ...(agentMeta.provider ? { provider: agentMeta.provider } : {}),
      model: agentMeta.model,
      inputTokens: agentMeta.usage.input ?? 0,
      outputTokens: agentMeta.usage.output ?? 0,
      ...(agentMeta.usage.cacheRead !== undefined ? { cacheReadTokens: agentMeta.usage.cacheRead } : {}),
      ...(agentMeta.usage.cacheWrite !== undefined ? { cacheWriteTokens: agentMeta.usage.cacheWrite } : {}),
    };
    context.reportUsage(usage);
    context.emit({ type: 'usage', ...usage });
  }
  const calls = meta.toolSummary?.calls ?? 0;
  if (calls > 0) {
    // Counted as tool activity so the run result says a retry could repeat side effects.
    context.markToolStarted(TOOL_SUMMARY_CALL_ID);
    context.markToolFinished(TOOL_SUMMARY_CALL_ID);
    const tools = (meta.toolSummary?.tools ?? []).join(', ') || 'unnamed tools';
    context.emit({ type: 'log', level: 'info', text: `openclaw ran ${calls} tool call(s): ${tools}; ${meta.toolSummary?.failures ?? 0} failed` });
  }
}

function onReply(translation: OpenClawTranslation, reply: OpenClawAgentEnvelope, gatewayStatus: string | undefined): void {
  const { context } = translation;
  const meta = reply.meta ?? {};
  onMeta(translation, meta);
  const texts = emitPayloads(translation, reply.payloads);
  const { errorText } = texts;
  const failure = replyFailure(meta, gatewayStatus, texts);
  if (failure !== undefined) context.reportResult({ status: 'failed', errorMessage: errorText !== undefined && failure !== errorText ? `${failure}: ${errorText}` : failure });
  else context.reportResult({ status: 'completed', output: texts.output ?? '' });
}

function emitPayloads(translation: OpenClawTranslation, payloads: readonly OpenClawPayload[]): ReplyTexts {
  const { context } = translation;
  let output: string | undefined;
  let errorText: string | undefined;
  for (const payload of payloads) {
    const text = payloadText(payload);
    if (text === undefined) continue;
    if (payload.isReasoning) context.emit({ type: 'thinking', text });
    else if (payload.isError) {
      errorText ??= text;
      context.emit({ type: 'error', code: 'openclaw_reply_error', message: text });
    } else {
      output = text;
      context.emit({ type: 'text', text });
    }
  }
  return { output, errorText };
}

/** Why the reply counts as a failed run, if it does. */
function replyFailure(meta: OpenClawRunMeta, gatewayStatus: string | undefined, { output, errorText }: ReplyTexts): string | undefined {
  return (
    meta.error?.message ??
    (meta.aborted ? 'the openclaw run was aborted' : undefined) ??
    (gatewayStatus !== undefined && gatewayStatus !== 'ok' && gatewayStatus !== 'completed' ? `the openclaw run ended with status ${gatewayStatus}` : undefined) ??
    (meta.stopReason === 'error' ? 'the openclaw run ended with an error' : undefined) ??
    // Only an error payload and no answer: what a run that timed out mid tool loop leaves.
    (output === undefined ? errorText : undefined)
  );
}

function payloadText(payload: OpenClawPayload): string | undefined {
  return payload.text && payload.text.trim() !== '' ? payload.text : undefined;
}
