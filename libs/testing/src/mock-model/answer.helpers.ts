import type { TurnDecision } from './conversation.types';

/** Decisions the encoders turn into a successful answer; errors are encoded separately. */
export type AnswerDecision = Exclude<TurnDecision, { kind: 'error' }>;
export type TextAnswer = Extract<AnswerDecision, { kind: 'text' | 'json' }>;

/** An HTTP error reply in one provider's shape. */
export interface ProviderErrorReply {
  readonly status: number;
  readonly body: unknown;
}

/** The streamed pieces of a text or JSON answer and the pause before each. */
export function textDeltas(decision: TextAnswer): { readonly deltas: readonly string[]; readonly intervalMilliseconds: number } {
  return decision.kind === 'text'
    ? { deltas: decision.deltas, intervalMilliseconds: decision.deltaIntervalMilliseconds }
    : { deltas: [decision.text], intervalMilliseconds: 0 };
}

/** Splits a JSON argument string into a few pieces, as providers stream partial JSON. */
export function splitJsonArguments(json: string, pieces = 3): string[] {
  const size = Math.max(1, Math.ceil(json.length / pieces));
  const parts: string[] = [];
  for (let index = 0; index < json.length; index += size) parts.push(json.slice(index, index + size));
  return parts.length > 0 ? parts : [''];
}

/** Rough token count (four characters a token), enough for usage fields. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
