import type { FailureClassifier } from '../failure-classification/failure-evidence';
import { classifyWithRules, type FailureRule } from '../failure-classification/provider-failure.rules';

/**
 * Claude Code ends a failed model call with a `result` whose text is its own summary
 * (`__fixtures__/failures/claude-code.*.json`, Claude Code 2.1): "API Error: Request rejected (429)",
 * "API Error: 500 ...", "API Error: Unable to connect to API (ECONNRESET)", "Invalid API key",
 * "Prompt is too long". Qwen Code and the other CLIs of the family print their provider's words,
 * which the shared rules read.
 */
// Only Claude's own wording: a status rule here would outvote the providers' words the shared
// rules read first (`[API Error: 400 This model's maximum context length ...]` is an overflow).
const CLAUDE_FAILURE_RULES: readonly FailureRule[] = [
  { code: 'context_overflow', pattern: /Prompt is too long/i },
  { code: 'auth_failed', pattern: /Invalid API key|Fix external API key|OAuth token has expired/i },
  { code: 'rate_limited', pattern: /API Error: Request rejected \(429\)/i },
  { code: 'provider_network', pattern: /Unable to connect to API|API Error: Connection error|Request timed out/i },
  { code: 'provider_error', pattern: /Repeated 529 Overloaded/i },
];

/**
 * Qwen Code 0.15 ends a failed model call with `result/success`, `is_error: false`, and the error
 * as its answer (`[API Error: 429 ...]`, `__fixtures__/failures/qwen-code.*.json`): a failure.
 */
export const STREAM_JSON_FAILED_OUTPUT = /^\[API Error: /;

export const classifyClaudeFailure: FailureClassifier = (evidence) => classifyWithRules(CLAUDE_FAILURE_RULES, evidence);
