import { tokenUsageSchema, type TokenUsage } from '@switchyard/contracts';
import { describeFirstIssue } from './agent-message.guard';
import type { TranslatorResult } from './translator.types';

export type FactVerdict<T> = { readonly kind: 'valid'; readonly value: T } | { readonly kind: 'invalid'; readonly problem: string };

/**
 * The facts a translator reports besides messages (session id, usage, result) end up in the run
 * result, and from there in `task.complete` and the timeline's usage messages: they are held to the
 * same contract, for the same reason (translators read native fields unchecked). None of these throws.
 */
export function guardSessionId(candidate: string): FactVerdict<string> {
  const value = candidate as unknown;
  if (typeof value === 'string' && value !== '') return { kind: 'valid', value };
  return { kind: 'invalid', problem: typeof value === 'string' ? 'the session id is empty' : `the session id is ${kindOf(value)}, not a string` };
}

export function guardTokenUsage(candidate: TokenUsage): FactVerdict<TokenUsage> {
  try {
    const parsed = tokenUsageSchema.safeParse(candidate);
    return parsed.success ? { kind: 'valid', value: parsed.data } : { kind: 'invalid', problem: describeFirstIssue(parsed.error) };
  } catch (error) {
    return { kind: 'invalid', problem: `could not be validated (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** Keeps the result's status and drops each text field that is not text, saying which. */
export function guardTranslatorResult(candidate: TranslatorResult): { readonly result: TranslatorResult; readonly problems: readonly string[] } {
  const { output, errorMessage } = candidate as { output?: unknown; errorMessage?: unknown };
  const problems: string[] = [];
  const outputIsText = output === undefined || typeof output === 'string';
  const errorMessageIsText = errorMessage === undefined || typeof errorMessage === 'string';
  if (!outputIsText) problems.push(`output: ${kindOf(output)}, not a string`);
  if (!errorMessageIsText) problems.push(`errorMessage: ${kindOf(errorMessage)}, not a string`);
  if (problems.length === 0) return { result: candidate, problems };
  const result: TranslatorResult = {
    status: candidate.status,
    ...(candidate.errorCode !== undefined ? { errorCode: candidate.errorCode } : {}),
    ...(outputIsText && output !== undefined ? { output } : {}),
    ...(errorMessageIsText && errorMessage !== undefined ? { errorMessage } : {}),
  };
  return { result, problems };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' || typeof value === 'undefined' ? `an ${typeof value}` : `a ${typeof value}`;
}
