import type { FailureClassifier } from '../failure-classification/failure-evidence';
import { classifyWithRules, type FailureRule } from '../failure-classification/provider-failure.rules';

/**
 * Codex words some provider failures its own way (Codex 0.171, `__fixtures__/failures/`): a 5xx
 * becomes "high demand", an overflow "ran out of room in the model's context window", a 429 after
 * its own retries "exceeded retry limit, last status: 429". "Reconnecting... n/5" lines are only
 * its retries, never a reason.
 */
const CODEX_FAILURE_RULES: readonly FailureRule[] = [
  { code: 'context_overflow', pattern: /ran out of room in the model's context window/i },
  { code: 'provider_error', pattern: /experiencing high demand|temporary errors/i },
  { code: 'rate_limited', pattern: /last status: 429/i },
  { code: 'provider_error', pattern: /last status: 5\d\d/i },
];

export const classifyCodexFailure: FailureClassifier = (evidence) => classifyWithRules(CODEX_FAILURE_RULES, evidence);
