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

/**
 * Translates `openclaw agent --json` stdout (text lines; see `openclaw-wire.types.ts`) into
 * unified messages and run facts. OpenClaw streams nothing while it works: the whole turn arrives
 * as one reply document at the end, its tool calls only as a count.
 */
export function createOpenClawEventTranslator(context: TranslatorContext, options: OpenClawEventTranslatorOptions = {}): Translator {
  const assemble = createOpenClawDocumentAssembler();
  let announcedSessionId: string | undefined;

  const announceSession = (sessionId: string | undefined): void => {
    if (!sessionId || sessionId === announcedSessionId) return;
    announcedSessionId = sessionId;
    context.reportSessionId(sessionId);
    context.emit({ type: 'status', sessionId, state: 'started' });
  };
  announceSession(options.sessionId);

  const onCliFailure = (failure: OpenClawCliFailure): void => {
    const errorMessage = failure.error.message;
    context.emit({ type: 'error', code: `openclaw_${failure.error.type ?? 'error'}`, message: errorMessage });
    context.reportResult({ status: 'failed', errorMessage });
  };

  const onMeta = (meta: OpenClawRunMeta): void => {
    const agentMeta = meta.agentMeta;
    announceSession(agentMeta?.sessionId);
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
  };

  const onReply = (reply: OpenClawAgentEnvelope, gatewayStatus: string | undefined): void => {
    const meta = reply.meta ?? {};
    onMeta(meta);
    let output: string | undefined;
    let errorText: string | undefined;
    for (const payload of reply.payloads) {
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
    const failure =
      meta.error?.message ??
      (meta.aborted ? 'the openclaw run was aborted' : undefined) ??
      (gatewayStatus !== undefined && gatewayStatus !== 'ok' && gatewayStatus !== 'completed' ? `the openclaw run ended with status ${gatewayStatus}` : undefined) ??
      (meta.stopReason === 'error' ? 'the openclaw run ended with an error' : undefined) ??
      // Only an error payload and no answer: what a run that timed out mid tool loop leaves.
      (output === undefined ? errorText : undefined);
    if (failure !== undefined) context.reportResult({ status: 'failed', errorMessage: errorText !== undefined && failure !== errorText ? `${failure}: ${errorText}` : failure });
    else context.reportResult({ status: 'completed', output: output ?? '' });
  };

  const onDocument = (document: unknown, line: string): void => {
    const record = document as Partial<OpenClawCliFailure & OpenClawAgentEnvelope & OpenClawGatewayResponse> | null;
    if (record === null || typeof record !== 'object') context.reportMalformed('not an openclaw reply', line.slice(0, 200));
    else if (record.ok === false && record.error) onCliFailure(record as OpenClawCliFailure);
    else if (Array.isArray(record.payloads)) onReply(record as OpenClawAgentEnvelope, undefined);
    else if (record.result && Array.isArray(record.result.payloads)) onReply(record.result, record.status);
    else if (record.status !== undefined) onReply({ payloads: [] }, record.status);
    else context.reportMalformed('not an openclaw reply', JSON.stringify(document).slice(0, 200));
  };

  return (event: unknown) => {
    const line = String(event);
    const assembled = assemble(line);
    if (assembled.abandoned !== undefined) context.reportMalformed('JSON document cut short by the next one', assembled.abandoned.slice(0, 200));
    if (assembled.kind === 'document') onDocument(assembled.value, line);
    else if (assembled.kind === 'unreadable') context.reportMalformed(assembled.reason, assembled.text.slice(0, 200));
  };
}

function payloadText(payload: OpenClawPayload): string | undefined {
  return payload.text && payload.text.trim() !== '' ? payload.text : undefined;
}
