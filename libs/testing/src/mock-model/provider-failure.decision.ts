import type { TurnDecision } from './conversation.types';
import type { ProviderFailure, Scenario } from './scenario-marker.parser';

type ErrorDecision = Extract<TurnDecision, { kind: 'error' }>;

/** Context overflows are 400s in every provider's API; a reset has no status, 502 names it in logs. */
const CONTEXT_OVERFLOW_STATUS = 400;
const CONNECTION_RESET_STATUS = 502;

/**
 * The failure the prompt's markers script, if any: `error`, `context-overflow` and `reset` every
 * time, `error-once` only while its key is not in `spentOnceKeys` (the server spends it on answering).
 */
export function decideProviderFailure(scenarios: readonly Scenario[], spentOnceKeys: ReadonlySet<string>): ErrorDecision | undefined {
  for (const scenario of scenarios) {
    switch (scenario.name) {
      case 'error':
        return failureDecision({ kind: 'status', status: scenario.status });
      case 'context-overflow':
      case 'reset':
        return failureDecision({ kind: scenario.name });
      case 'error-once':
        if (!spentOnceKeys.has(scenario.key)) return { ...failureDecision(scenario.failure), onceKey: scenario.key };
        break;
      default:
        break;
    }
  }
  return undefined;
}

function failureDecision(failure: ProviderFailure): ErrorDecision {
  switch (failure.kind) {
    case 'status':
      return { kind: 'error', status: failure.status, message: `Mock model error scenario: HTTP ${failure.status}.` };
    case 'context-overflow':
      return { kind: 'error', status: CONTEXT_OVERFLOW_STATUS, message: 'Mock model error scenario: context overflow.', failure: 'context-overflow' };
    case 'reset':
      return { kind: 'error', status: CONNECTION_RESET_STATUS, message: 'Mock model error scenario: connection reset.', failure: 'connection-reset' };
  }
}
