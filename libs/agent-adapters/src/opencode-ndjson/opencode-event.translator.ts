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

/** Per-run state: the usage totals of the run's model, and what the steps so far say about the run's end. */
interface OpenCodeTranslation {
  readonly context: TranslatorContext;
  readonly reasoningReportedApart: boolean | undefined;
  readonly usageKey: Pick<TokenUsage, 'provider' | 'model'>;
  readonly totals: UsageTotals;
  sessionAnnounced: boolean;
  openStep: boolean;
  stepProducedSomething: boolean;
  stepNeedsToolContinuation: boolean;
  awaitingContinuation: boolean;
  sawStepFinish: boolean;
  lastStepVoid: boolean;
  errorMessage: string | undefined;
}

/**
 * Translates `run --format json` events (OpenCode, DevEco Code, CodeArts Agent) into unified
 * messages and run facts. A `tool_use` event carries call and outcome at once, so it becomes a
 * `tool-use` and its `tool-result`. Usage arrives per step (one model call each) and is summed
 * into one running total for the run's model.
 */
export function createOpenCodeEventTranslator(context: TranslatorContext, options: OpenCodeTranslatorOptions = {}): OpenCodeTranslator {
  const translation: OpenCodeTranslation = {
    context,
    reasoningReportedApart: options.reasoningReportedApart,
    usageKey: splitModel(options.model),
    totals: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    sessionAnnounced: false,
    openStep: false,
    stepProducedSomething: false,
    stepNeedsToolContinuation: false,
    awaitingContinuation: false,
    sawStepFinish: false,
    lastStepVoid: false,
    errorMessage: undefined,
  };
  const translate = (event: unknown): void => translateEvent(translation, event);
  return Object.assign(translate, { verdict: (): OpenCodeRunVerdict => runVerdict(translation) });
}

function translateEvent(translation: OpenCodeTranslation, event: unknown): void {
  const { context } = translation;
  const typed = event as OpenCodeEvent;
  announceSession(translation, typed.sessionID ?? typed.part?.sessionID);
  const part = typed.part ?? {};
  switch (typed.type) {
    case 'step_start':
      return onStepStart(translation);
    case 'text':
      if (part.text) {
        translation.stepProducedSomething = true;
        context.emit({ type: 'text', text: part.text });
      }
      return;
    case 'reasoning':
      if (part.text) context.emit({ type: 'thinking', text: part.text });
      return;
    case 'tool_use':
      return onToolUse(translation, part);
    case 'step_finish':
      return onStepFinish(translation, part);
    case 'error':
      return onError(translation, typed);
    case 'done':
      return onDone(translation, typed);
    default:
      context.reportMalformed(`unknown opencode event type ${String(typed.type)}`, JSON.stringify(event).slice(0, 200));
  }
}

function runVerdict(translation: OpenCodeTranslation): OpenCodeRunVerdict {
  if (translation.errorMessage !== undefined) return { finished: false, reason: translation.errorMessage };
  if (!translation.sawStepFinish) return { finished: false, reason: 'the CLI exited before any step finished' };
  if (translation.openStep) return { finished: false, reason: 'the CLI exited with a step still open' };
  if (translation.awaitingContinuation) return { finished: false, reason: 'the CLI exited while its last step still needed another model call' };
  if (translation.lastStepVoid) return { finished: false, reason: 'the last step produced no text, no tool call and no tokens' };
  return { finished: true };
}

function announceSession(translation: OpenCodeTranslation, sessionId: string | undefined): void {
  if (!sessionId || translation.sessionAnnounced) return;
  translation.sessionAnnounced = true;
  translation.context.reportSessionId(sessionId);
  translation.context.emit({ type: 'status', sessionId, state: 'started' });
}

/** Adds a step's tokens to the run's total and reports it; true when the step used any. */
function addUsage(translation: OpenCodeTranslation, tokens: OpenCodeTokens | undefined): boolean {
  if (!tokens) return false;
  const { totals } = translation;
  const reasoning = translation.reasoningReportedApart ? count(tokens.reasoning) : 0;
  totals.inputTokens += count(tokens.input);
  totals.outputTokens += count(tokens.output) + reasoning;
  totals.cacheReadTokens += count(tokens.cache?.read);
  totals.cacheWriteTokens += count(tokens.cache?.write);
  translation.context.reportUsage({ ...translation.usageKey, ...totals });
  return [tokens.input, tokens.output, tokens.reasoning, tokens.total, tokens.cache?.read, tokens.cache?.write].some((value) => count(value) > 0);
}

function onStepStart(translation: OpenCodeTranslation): void {
  translation.openStep = true;
  translation.stepProducedSomething = false;
  translation.stepNeedsToolContinuation = false;
  translation.awaitingContinuation = false;
}

function onToolUse(translation: OpenCodeTranslation, part: OpenCodePart): void {
  const { context } = translation;
  const callId = part.callID ?? part.id;
  const tool = part.tool ?? 'unknown';
  if (!callId || !part.state) {
    context.reportMalformed('tool_use without callID or state', JSON.stringify(part).slice(0, 200));
    return;
  }
  translation.stepProducedSomething = true;
  if (!part.metadata?.providerExecuted) translation.stepNeedsToolContinuation = true;
  context.emit({ type: 'tool-use', tool, callId, input: (part.state.input ?? null) as JsonValue });
  const failed = part.state.status === 'error';
  context.emit({
    type: 'tool-result',
    callId,
    tool,
    output: failed ? (part.state.error ?? toolOutputText(part.state.output)) : toolOutputText(part.state.output),
    status: failed ? 'error' : 'ok',
  });
}

function onStepFinish(translation: OpenCodeTranslation, part: OpenCodePart): void {
  translation.openStep = false;
  translation.sawStepFinish = true;
  translation.awaitingContinuation = part.reason === 'tool-calls' || (part.reason !== undefined && part.reason !== '' && translation.stepNeedsToolContinuation);
  translation.stepNeedsToolContinuation = false;
  if (addUsage(translation, part.tokens) || count(part.cost) > 0) translation.stepProducedSomething = true;
  translation.lastStepVoid = !translation.stepProducedSomething;
}

function onError(translation: OpenCodeTranslation, event: OpenCodeEvent): void {
  const message = describeOpenCodeError(event.error);
  const errorMessage = translation.errorMessage ? `${translation.errorMessage}\n${message}` : message;
  translation.errorMessage = errorMessage;
  translation.context.emit({ type: 'error', code: `opencode_${event.error?.name ?? 'error'}`, message });
  translation.context.reportResult({ status: 'failed', errorMessage });
}

function onDone(translation: OpenCodeTranslation, event: OpenCodeEvent): void {
  const { context } = translation;
  for (const permission of event.rejected ?? []) context.emit({ type: 'log', level: 'warn', text: `opencode rejected a permission request: ${permission}` });
  if (translation.errorMessage === undefined) context.reportResult({ status: 'completed' });
}
