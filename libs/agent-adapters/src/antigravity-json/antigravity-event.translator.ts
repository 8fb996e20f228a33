import type { JsonValue } from '@switchyard/contracts';
import type { Translator, TranslatorContext } from '../backend/translator.types';
import {
  ANTIGRAVITY_ADAPTER_ID,
  type AntigravityInitEvent,
  type AntigravityResult,
  type AntigravityStepUpdate,
  type AntigravityStreamEvent,
} from './antigravity-wire.types';

const PROVIDER = 'google';
const SUCCESS_STATUSES: ReadonlySet<string> = new Set(['SUCCESS', 'OK']);
/** Steps that carry nothing for the timeline: the prompt echoed back, notices, checkpoints. */
const QUIET_STEP_TYPES: ReadonlySet<string> = new Set(['user_input', 'system_message', 'checkpoint']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const previewOf = (value: unknown): string => JSON.stringify(value).slice(0, 200);
const tokens = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0);

/** The tool's parameters; a `tool_info` without them is shown as it is, less its name and output. */
function toolInput(step: AntigravityStepUpdate): JsonValue {
  if (!step.tool_info) return {};
  const { name: _name, output: _output, parameters, ...rest } = step.tool_info as Record<string, unknown>;
  return (parameters ?? rest) as JsonValue;
}

/**
 * Plain-text print mode (agy before 1.1.8): every stdout line is assistant text. The run's end,
 * answer and conversation id are only known once agy exited (see `settleAntigravityRun`).
 */
export function createAntigravityTextTranslator(context: TranslatorContext): Translator {
  return (line: unknown) => {
    if (typeof line !== 'string') return context.reportMalformed('not a text line', previewOf(line));
    context.emit({ type: 'text', text: line });
  };
}

export interface AntigravityStreamTranslatorOptions {
  /** The `--model` passed, named in usage when `init` does not name one. */
  readonly model?: string;
  /** The `--conversation` passed; `init` naming it means the conversation was resumed. */
  readonly resumeSessionId?: string;
}

/** Per-run state: response text by step, step types by index, open tools by call id, the model for usage. */
interface AntigravityTranslation {
  readonly context: TranslatorContext;
  readonly resumeSessionId: string | undefined;
  readonly responseText: Map<string, string>;
  readonly stepTypes: Map<number, string>;
  readonly openTools: Map<string, string>;
  sessionAnnounced: boolean;
  model: string | undefined;
  unindexedTools: number;
}

/**
 * Translates agy stream-json events into unified messages and run facts. Pure: per-run state is
 * the text of each response step (streamed as `text_delta` fragments, emitted once the step is
 * done), the step types by index (a closing update may name only its step), and the open tools.
 * Usage comes from the result's totals; per-step usage is not added up (its scope is not documented).
 */
export function createAntigravityStreamTranslator(context: TranslatorContext, options: AntigravityStreamTranslatorOptions = {}): Translator {
  const translation: AntigravityTranslation = {
    context,
    resumeSessionId: options.resumeSessionId,
    responseText: new Map(),
    stepTypes: new Map(),
    openTools: new Map(),
    sessionAnnounced: false,
    model: options.model,
    unindexedTools: 0,
  };
  return (event: unknown) => translateEvent(translation, event);
}

function translateEvent(translation: AntigravityTranslation, event: unknown): void {
  const { context } = translation;
  if (!isObject(event)) return context.reportMalformed('not an agy event', previewOf(event));
  const typed = event as unknown as AntigravityStreamEvent;
  switch (typed.event) {
    case 'init':
      return onInit(translation, typed);
    case 'step_update':
      return onStepUpdate(translation, typed.step_update);
    case 'result':
      return onResult(translation, typed.result);
    default:
      context.reportMalformed(`unknown agy event ${String((event as { event?: unknown }).event)}`, previewOf(event));
  }
}

function announceSession(translation: AntigravityTranslation, conversationId: unknown): void {
  const { context, resumeSessionId } = translation;
  if (typeof conversationId !== 'string' || conversationId === '' || translation.sessionAnnounced) return;
  translation.sessionAnnounced = true;
  context.reportSessionId(conversationId);
  const resumed = resumeSessionId === conversationId;
  context.emit({ type: 'status', sessionId: conversationId, state: resumed ? 'resumed' : 'started' });
  if (resumeSessionId && !resumed) {
    context.emit({ type: 'log', level: 'warn', text: `agy opened conversation ${conversationId}, not the requested ${resumeSessionId}` });
  }
}

function onInit(translation: AntigravityTranslation, event: AntigravityInitEvent): void {
  if (typeof event.init?.model === 'string' && event.init.model !== '') translation.model = event.init.model;
  announceSession(translation, event.conversation_id);
}

function onStepUpdate(translation: AntigravityTranslation, step: unknown): void {
  const { context, stepTypes } = translation;
  if (!isObject(step)) return context.reportMalformed('agy step_update without its step', previewOf(step));
  const update = step as AntigravityStepUpdate;
  announceSession(translation, update.conversation_id);
  const index = typeof update.step_index === 'number' ? update.step_index : undefined;
  if (index !== undefined && update.step_type) stepTypes.set(index, update.step_type);
  const type = update.step_type ?? (index !== undefined ? stepTypes.get(index) : undefined);
  if (type === 'agent_response') return onResponseStep(translation, index !== undefined ? String(index) : 'unindexed', update);
  if (type === 'tool') return onToolStep(translation, update);
  if (type !== undefined && QUIET_STEP_TYPES.has(type)) return;
  context.reportMalformed(`unknown agy step type ${String(type)}`, previewOf(step));
}

function onResponseStep(translation: AntigravityTranslation, key: string, step: AntigravityStepUpdate): void {
  const { context, responseText } = translation;
  const before = responseText.get(key) ?? '';
  const delta = typeof step.text_delta === 'string' ? step.text_delta : '';
  if (step.state === 'ACTIVE') {
    responseText.set(key, before + delta);
    return;
  }
  responseText.delete(key);
  // The closing update carries the last fragment; some builds repeat the whole text instead.
  const text = before !== '' && delta.startsWith(before) ? delta : before + delta;
  if (text !== '') context.emit({ type: 'text', text });
  if (step.state === 'ERROR') context.emit({ type: 'error', code: 'antigravity_step_error', message: step.error?.message ?? 'agy could not finish a response step' });
}

function toolCallId(translation: AntigravityTranslation, step: AntigravityStepUpdate, tool: string): string {
  if (typeof step.step_index === 'number') return `step-${step.step_index}`;
  // No index to pair updates by: the latest open call of the same tool is the one closing.
  const open = [...translation.openTools].reverse().find(([, name]) => name === tool);
  if (open && step.state !== 'ACTIVE') return open[0];
  translation.unindexedTools += 1;
  return `${tool}-${translation.unindexedTools}`;
}

function onToolStep(translation: AntigravityTranslation, step: AntigravityStepUpdate): void {
  const { context, openTools } = translation;
  const tool = step.tool_name ?? step.tool_info?.name ?? 'tool';
  const callId = toolCallId(translation, step, tool);
  if (!openTools.has(callId)) {
    openTools.set(callId, tool);
    context.emit({ type: 'tool-use', tool, callId, input: toolInput(step) });
  }
  if (step.state !== 'DONE' && step.state !== 'ERROR' && step.state !== 'CANCELLED') return;
  openTools.delete(callId);
  const ok = step.state === 'DONE';
  const output = ok ? (step.output ?? step.tool_info?.output ?? '') : (step.error?.message ?? step.output ?? `tool step ${step.state.toLowerCase()}`);
  context.emit({
    type: 'tool-result',
    callId,
    tool,
    output,
    status: ok ? 'ok' : 'error',
    ...(step.duration_seconds !== undefined ? { metadata: { [ANTIGRAVITY_ADAPTER_ID]: { durationSeconds: step.duration_seconds } } } : {}),
  });
}

function onResult(translation: AntigravityTranslation, result: unknown): void {
  const { context } = translation;
  if (!isObject(result)) return context.reportMalformed('agy result without its result', previewOf(result));
  const outcome = result as AntigravityResult;
  announceSession(translation, outcome.conversation_id);
  if (outcome.usage) {
    context.reportUsage({
      provider: PROVIDER,
      model: translation.model ?? 'unknown',
      inputTokens: tokens(outcome.usage.input_tokens),
      outputTokens: tokens(outcome.usage.output_tokens),
      ...(outcome.usage.cache_read_tokens !== undefined ? { cacheReadTokens: tokens(outcome.usage.cache_read_tokens) } : {}),
    });
  }
  const status = typeof outcome.status === 'string' ? outcome.status : 'UNKNOWN';
  if (SUCCESS_STATUSES.has(status)) {
    const output = typeof outcome.response === 'string' && outcome.response !== '' ? outcome.response : undefined;
    context.reportResult({ status: 'completed', ...(output !== undefined ? { output } : {}) });
    return;
  }
  const error = outcome.error;
  const errorMessage = (typeof error === 'string' ? error : error?.message) || `agy ended with status ${status}`;
  context.emit({ type: 'error', code: `antigravity_${status.toLowerCase()}`, message: errorMessage });
  context.reportResult({ status: 'failed', errorMessage });
}
