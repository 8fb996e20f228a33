import type { FailureClassifier } from '../failure-classification/failure-evidence';
import { classifyWithRules, type FailureRule } from '../failure-classification/provider-failure.rules';

/**
 * ACP agents fail `session/prompt` with a JSON-RPC error whose message is the provider's error
 * (Gemini CLI 0.61: the Google error body as JSON, `"code":429`, `"status":"RESOURCE_EXHAUSTED"`,
 * `__fixtures__/failures/gemini-cli.*.json`), which the shared rules read. Gemini CLI words a cut
 * connection its own way, and reports it with JSON-RPC code 500.
 */
const ACP_FAILURE_RULES: readonly FailureRule[] = [{ code: 'provider_network', pattern: /fetch failed sending request|exception TypeError: fetch failed/i }];

export const classifyAcpFailure: FailureClassifier = (evidence) => classifyWithRules(ACP_FAILURE_RULES, evidence);
