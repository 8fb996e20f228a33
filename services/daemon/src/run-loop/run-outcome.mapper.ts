import type { TaskFailureReason } from '@switchyard/contracts';
import type { AgentRunResult } from '@switchyard/agent-adapters/wing';

/** Why a run that did not complete failed, in the queue's vocabulary (transient ones retry). */
export function failureReasonOf(result: AgentRunResult): TaskFailureReason {
  if (result.status === 'aborted') return 'cancelled_by_shutdown';
  if (result.status === 'timeout') return 'timeout';
  switch (result.error?.code) {
    case 'resume_rejected':
      return 'resume_rejected';
    case 'malformed_output':
    case 'output_line_too_long':
      return 'invalid_output';
    case 'cli_not_found':
    case 'cli_spawn_failed':
      return 'exec_env_failed';
    // The provider's reasons, as the family's failure classifier read them from the CLI's output.
    case 'provider_network':
    case 'provider_error':
    case 'rate_limited':
    case 'auth_failed':
    case 'invalid_request':
    case 'context_overflow':
      return result.error.code;
    default:
      return 'agent_error';
  }
}

/**
 * The failure's message for the queue. A provider's retry-after rides in it as
 * `[retry_after_ms=<n>]` (the fail report has no field of its own for it); the queue's backoff
 * honours it, capped.
 */
export function failureMessageOf(result: AgentRunResult): string {
  const message = result.error?.message ?? `run ended ${result.status}`;
  const retryAfterMs = result.error?.retryAfterMs;
  return retryAfterMs === undefined ? message : `${message} [retry_after_ms=${retryAfterMs}]`;
}
