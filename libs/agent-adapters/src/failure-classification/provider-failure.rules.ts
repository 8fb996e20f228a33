import type { ClassifiedFailure, FailureClassifier, FailureEvidence, ProviderFailureCode } from './failure-evidence';
import { CLASSIFIABLE_ERROR_CODES } from './failure-evidence';

/** One way a reason shows in a CLI's output. */
export interface FailureRule {
  readonly code: ProviderFailureCode;
  readonly pattern: RegExp;
}

/**
 * An HTTP status as CLIs print it: `API Error: 429`, `status 500`, `429 Too Many Requests`, or
 * leading the message (`400 Invalid 'messages[2]...'`, Pi).
 */
const status = (codes: string): RegExp =>
  new RegExp(`(?:\\b(?:status|code|error|http)\\b[^0-9\\n]{0,16}(?:${codes})\\b|\\b(?:${codes}) (?:Too Many Requests|Unauthorized|Forbidden|Bad Request|Internal Server Error|Service Unavailable|Bad Gateway)|^\\s*(?:${codes}) [A-Za-z])`, 'im');

/**
 * The providers' own words (Anthropic, OpenAI, Google) and the HTTP statuses, checked in this
 * order: an overflow before the 400 it comes as, auth and rate limits before a generic server
 * error, network last but one since CLIs add "retrying" chatter to every failure.
 */
export const PROVIDER_FAILURE_RULES: readonly FailureRule[] = [
  { code: 'context_overflow', pattern: /prompt is too long|context_length_exceeded|maximum context length|exceeds the context window|input token count \(\d+\) exceeds the maximum|context window (?:exceeded|is full)|ran out of room in the model's context/i },
  { code: 'auth_failed', pattern: /authentication_error|invalid[ _-]?(?:x-)?api[ _-]?key|incorrect api key|api key not valid|UNAUTHENTICATED|PERMISSION_DENIED|permission_error/i },
  { code: 'auth_failed', pattern: status('401|403') },
  { code: 'rate_limited', pattern: /rate_limit|rate limit|RESOURCE_EXHAUSTED|too many requests|exceeded your current quota|usage limit/i },
  { code: 'rate_limited', pattern: status('429') },
  { code: 'provider_error', pattern: /\bapi_error\b|internal server error|server_error|had an error while processing|overloaded|an internal error has occurred/i },
  // Google's status names, upper case only: "node:internal/..." in a stack trace is not one.
  { code: 'provider_error', pattern: /\b(?:INTERNAL|UNAVAILABLE|DEADLINE_EXCEEDED)\b/ },
  { code: 'provider_error', pattern: status('5\\d\\d') },
  { code: 'provider_network', pattern: /ECONNRESET|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EPIPE|EAI_AGAIN|socket hang up|fetch failed|connection (?:error|reset|refused|closed)|network error|error sending request|stream disconnected|premature close|terminated/i },
  { code: 'invalid_request', pattern: /invalid_request_error|INVALID_ARGUMENT|\binvalid_request\b/i },
  { code: 'invalid_request', pattern: status('400|404|413|422') },
];

/**
 * Classifies with the family's own rules first, then the shared provider rules. Only failures the
 * adapter could not name (a reported failure, a bad exit, no result) are read. What the CLI said
 * as its error (the failure's message, the errors it streamed) is read before its stderr tail,
 * where stack traces and request dumps would otherwise outvote it.
 */
export function classifyWithRules(familyRules: readonly FailureRule[], evidence: FailureEvidence): ClassifiedFailure | undefined {
  if (!CLASSIFIABLE_ERROR_CODES.has(evidence.code)) return undefined;
  const said = [evidence.message, ...evidence.errorTexts].filter((text) => text.trim() !== '');
  const rules = [...familyRules, ...PROVIDER_FAILURE_RULES];
  const texts = [...said, evidence.stderrTail];
  return firstMatch(rules, said, texts) ?? firstMatch(rules, [evidence.stderrTail], texts);
}

function firstMatch(rules: readonly FailureRule[], searched: readonly string[], allTexts: readonly string[]): ClassifiedFailure | undefined {
  for (const rule of rules) {
    for (const text of searched) {
      const match = rule.pattern.exec(text);
      if (match) return { code: rule.code, clue: clueAround(text, match.index), retryAfterMs: rule.code === 'rate_limited' ? retryAfterMsOf(allTexts) : null };
    }
  }
  return undefined;
}

/** A classifier of the shared rules only, for families whose CLIs print the providers' words as they are. */
export const classifyProviderFailure: FailureClassifier = (evidence) => classifyWithRules([], evidence);

const RETRY_AFTER_PATTERNS: readonly RegExp[] = [
  /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)(s|ms)"/i,
  /(?:try again|retry) in (\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?)\b/i,
  /retry[- ]after[:= ]\s*(\d+(?:\.\d+)?)\s*(ms|s|seconds?)?/i,
];
const MAXIMUM_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/** The provider's wait before retrying, in milliseconds, as the CLI printed it; null when it printed none. */
export function retryAfterMsOf(texts: readonly string[]): number | null {
  for (const pattern of RETRY_AFTER_PATTERNS) {
    for (const text of texts) {
      const match = pattern.exec(text);
      if (!match) continue;
      const value = Number.parseFloat(match[1] ?? '');
      const milliseconds = (match[2] ?? 's').toLowerCase() === 'ms' ? value : value * 1000;
      if (Number.isFinite(milliseconds) && milliseconds >= 0) return Math.min(Math.round(milliseconds), MAXIMUM_RETRY_AFTER_MS);
    }
  }
  return null;
}

const CLUE_CHARACTERS = 160;

function clueAround(text: string, index: number): string {
  const start = Math.max(0, index - CLUE_CHARACTERS / 2);
  return text.slice(start, start + CLUE_CHARACTERS).replace(/\s+/g, ' ').trim();
}
