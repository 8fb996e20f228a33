import type { TokenUsage } from '@switchyard/contracts';
import type { ClaudeMessageUsage, ClaudeResultEvent } from './claude-wire.types';

const count = (...values: ReadonlyArray<number | undefined>): number | undefined => values.find((value) => typeof value === 'number');

/**
 * The run's usage from a `result` event: `modelUsage` per model (Claude, CodeBuddy), else its one
 * `usage` object (Anthropic names, or Cursor's camelCase) for the model the result or the session
 * named. Entries without any token are left out.
 */
export function readResultUsage(input: { readonly event: ClaudeResultEvent; readonly sessionModel: string | undefined; readonly provider: string }): TokenUsage[] {
  const { event, provider } = input;
  const perModel = Object.entries(event.modelUsage ?? {}).map(([model, usage]) =>
    toTokenUsage({ provider, model, input: usage.inputTokens, output: usage.outputTokens, cacheRead: usage.cacheReadInputTokens, cacheWrite: usage.cacheCreationInputTokens }),
  );
  if (perModel.length > 0) return perModel.filter(hasTokens);
  const usage = event.usage;
  const model = event.model ?? input.sessionModel;
  if (!usage || !model) return [];
  const single = toTokenUsage({
    provider,
    model,
    input: count(usage.inputTokens, usage.input_tokens),
    output: count(usage.outputTokens, usage.output_tokens),
    cacheRead: count(usage.cacheReadTokens, usage.cacheReadInputTokens, usage.cache_read_input_tokens),
    cacheWrite: count(usage.cacheWriteTokens, usage.cacheCreationInputTokens, usage.cache_creation_input_tokens),
  });
  return hasTokens(single) ? [single] : [];
}

/** Adds one model call's `usage` (from an `assistant` event) to the model's running total. */
export function sumMessageUsage(input: { readonly previous: TokenUsage | undefined; readonly usage: ClaudeMessageUsage; readonly model: string; readonly provider: string }): TokenUsage {
  const { previous, usage } = input;
  const add = (earlier: number | undefined, more: number | undefined): number | undefined =>
    earlier === undefined && more === undefined ? undefined : (earlier ?? 0) + (more ?? 0);
  return toTokenUsage({
    provider: input.provider,
    model: input.model,
    input: add(previous?.inputTokens, usage.input_tokens),
    output: add(previous?.outputTokens, usage.output_tokens),
    cacheRead: add(previous?.cacheReadTokens, usage.cache_read_input_tokens),
    cacheWrite: add(previous?.cacheWriteTokens, usage.cache_creation_input_tokens),
  });
}

function toTokenUsage(fields: {
  provider: string;
  model: string;
  input: number | undefined;
  output: number | undefined;
  cacheRead: number | undefined;
  cacheWrite: number | undefined;
}): TokenUsage {
  return {
    provider: fields.provider,
    model: fields.model,
    inputTokens: fields.input ?? 0,
    outputTokens: fields.output ?? 0,
    ...(fields.cacheRead !== undefined ? { cacheReadTokens: fields.cacheRead } : {}),
    ...(fields.cacheWrite !== undefined ? { cacheWriteTokens: fields.cacheWrite } : {}),
  };
}

function hasTokens(usage: TokenUsage): boolean {
  return usage.inputTokens + usage.outputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0) > 0;
}
