import type { JsonValue, TokenUsage } from '@switchyard/contracts';
import type { Translator, TranslatorContext } from '../backend/translator.types';
import type { OpenCodeError, OpenCodeEvent, OpenCodePart, OpenCodeTokens } from './opencode-wire.types';

/** How `run --session <id>` refuses an unknown id: stderr `Error: Session not found`, exit 1, no event. */
export const OPENCODE_RESUME_REJECTED = /Session not found/i;

export interface OpenCodeTranslatorOptions {
  /** The model usage is booked to: `provider/model` as given to `--model`, else the configured default. */
  readonly model?: string;
  /** From the CLI version (see `OpenCodeDialect.separatesReasoningTokens`). */
  readonly reasoningReportedApart?: boolean;
}

/**
 * Whether the stream shows a finished run. OpenCode has no result event (releases after 1.18
 * add `done`): a run is finished when its last step closed (`step_finish`) without asking for
 * another one (reason `tool-calls`, or a local tool result still to feed back), the step did
 * something (text, a tool, or tokens) and no `error` event came. The backend adds the clean exit.
 */
export interface OpenCodeRunVerdict {
  readonly finished: boolean;
  /** Why the run does not count as finished, for the error message. */
  readonly reason?: string;
}

export type OpenCodeTranslator = Translator & { verdict(): OpenCodeRunVerdict };

interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

const count = (value: number | undefined): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);

function toolOutputText(output: unknown): string {
  if (output === undefined || output === null) return '';
  return typeof output === 'string' ? output : JSON.stringify(output);
}

export function describeOpenCodeError(error: OpenCodeError | undefined): string {
  return error?.data?.message ?? error?.name ?? 'unknown opencode error';
}

function splitModel(model: string | undefined): Pick<TokenUsage, 'provider' | 'model'> {
  if (!model) return { model: 'unknown' };
  const slash = model.indexOf('/');
  return slash > 0 && slash < model.length - 1 ? { provider: model.slice(0, slash), model: model.slice(slash + 1) } : { model };
}

/**
 * Translates `run --format json` events (OpenCode, DevEco Code, CodeArts Agent) into unified
 * messages and run facts. A `tool_use` event carries call and outcome at once, so it becomes a
 * `tool-use` and its `tool-result`. Usage arrives per step (one model call each) and is summed
 * into one running total for the run's model.
 */
export function createOpenCodeEventTranslator(context: TranslatorContext, options: OpenCodeTranslatorOptions = {}): OpenCodeTranslator {
  const usageKey = splitModel(options.model);
  const totals: UsageTotals = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  let sessionAnnounced = false;
  let openStep = false;
  let stepProducedSomething = false;
  let stepNeedsToolContinuation = false;
  let awaitingContinuation = false;
  let sawStepFinish = false;
  let lastStepVoid = false;
  let errorMessage: string | undefined;

  const announceSession = (sessionId: string | undefined): void => {
    if (!sessionId || sessionAnnounced) return;
    sessionAnnounced = true;
    context.reportSessionId(sessionId);
    context.emit({ type: 'status', sessionId, state: 'started' });
  };

  const addUsage = (tokens: OpenCodeTokens | undefined): boolean => {
    if (!tokens) return false;
    const reasoning = options.reasoningReportedApart ? count(tokens.reasoning) : 0;
    totals.inputTokens += count(tokens.input);
    totals.outputTokens += count(tokens.output) + reasoning;
    totals.cacheReadTokens += count(tokens.cache?.read);
    totals.cacheWriteTokens += count(tokens.cache?.write);
    context.reportUsage({ ...usageKey, ...totals });
    return [tokens.input, tokens.output, tokens.reasoning, tokens.total, tokens.cache?.read, tokens.cache?.write].some((value) => count(value) > 0);
  };

  const onToolUse = (part: OpenCodePart): void => {
    const callId = part.callID ?? part.id;
    const tool = part.tool ?? 'unknown';
    if (!callId || !part.state) {
      context.reportMalformed('tool_use without callID or state', JSON.stringify(part).slice(0, 200));
      return;
    }
    stepProducedSomething = true;
    if (!part.metadata?.providerExecuted) stepNeedsToolContinuation = true;
    context.emit({ type: 'tool-use', tool, callId, input: (part.state.input ?? null) as JsonValue });
    const failed = part.state.status === 'error';
    context.emit({
      type: 'tool-result',
      callId,
      tool,
      output: failed ? (part.state.error ?? toolOutputText(part.state.output)) : toolOutputText(part.state.output),
      status: failed ? 'error' : 'ok',
    });
  };

  const onStepFinish = (part: OpenCodePart): void => {
    openStep = false;
    sawStepFinish = true;
    awaitingContinuation = part.reason === 'tool-calls' || (part.reason !== undefined && part.reason !== '' && stepNeedsToolContinuation);
    stepNeedsToolContinuation = false;
    if (addUsage(part.tokens) || count(part.cost) > 0) stepProducedSomething = true;
    lastStepVoid = !stepProducedSomething;
  };

  const onError = (event: OpenCodeEvent): void => {
    const message = describeOpenCodeError(event.error);
    errorMessage = errorMessage ? `${errorMessage}\n${message}` : message;
    context.emit({ type: 'error', code: `opencode_${event.error?.name ?? 'error'}`, message });
    context.reportResult({ status: 'failed', errorMessage });
  };

  const translate = (event: unknown): void => {
    const typed = event as OpenCodeEvent;
    announceSession(typed.sessionID ?? typed.part?.sessionID);
    const part = typed.part ?? {};
    switch (typed.type) {
      case 'step_start':
        openStep = true;
        stepProducedSomething = false;
        stepNeedsToolContinuation = false;
        awaitingContinuation = false;
        return;
      case 'text':
        if (part.text) {
          stepProducedSomething = true;
          context.emit({ type: 'text', text: part.text });
        }
        return;
      case 'reasoning':
        if (part.text) context.emit({ type: 'thinking', text: part.text });
        return;
      case 'tool_use':
        return onToolUse(part);
      case 'step_finish':
        return onStepFinish(part);
      case 'error':
        return onError(typed);
      case 'done':
        for (const permission of typed.rejected ?? []) context.emit({ type: 'log', level: 'warn', text: `opencode rejected a permission request: ${permission}` });
        if (errorMessage === undefined) context.reportResult({ status: 'completed' });
        return;
      default:
        context.reportMalformed(`unknown opencode event type ${String(typed.type)}`, JSON.stringify(event).slice(0, 200));
    }
  };

  const verdict = (): OpenCodeRunVerdict => {
    if (errorMessage !== undefined) return { finished: false, reason: errorMessage };
    if (!sawStepFinish) return { finished: false, reason: 'the CLI exited before any step finished' };
    if (openStep) return { finished: false, reason: 'the CLI exited with a step still open' };
    if (awaitingContinuation) return { finished: false, reason: 'the CLI exited while its last step still needed another model call' };
    if (lastStepVoid) return { finished: false, reason: 'the last step produced no text, no tool call and no tokens' };
    return { finished: true };
  };

  return Object.assign(translate, { verdict });
}
