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
    default:
      return 'agent_error';
  }
}
