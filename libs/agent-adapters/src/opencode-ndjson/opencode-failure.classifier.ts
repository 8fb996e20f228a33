import type { FailureClassifier } from '../failure-classification/failure-evidence';
import { classifyWithRules, type FailureRule } from '../failure-classification/provider-failure.rules';

/**
 * OpenCode 1.18 prints the provider's message without its HTTP status (`__fixtures__/failures/
 * opencode.*.json`): rate limits, keys and overflows read by their words (shared rules), a cut
 * connection in Bun's words. A plain 400 says nothing a rule could read, and stays `agent_error`.
 */
const OPENCODE_FAILURE_RULES: readonly FailureRule[] = [
  { code: 'context_overflow', pattern: /ContextOverflowError/ },
  { code: 'provider_network', pattern: /Cannot connect to API|socket connection was closed unexpectedly/i },
];

export const classifyOpenCodeFailure: FailureClassifier = (evidence) => classifyWithRules(OPENCODE_FAILURE_RULES, evidence);
