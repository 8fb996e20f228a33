/**
 * Why a run did not complete. One table for every protocol family, so the daemon maps codes to task
 * outcomes (retry, resume fresh, give up) in one exhaustive switch.
 */
export const AGENT_RUN_ERROR_CODES = {
  cliNotFound: 'cli_not_found',
  cliSpawnFailed: 'cli_spawn_failed',
  cliExitedNonzero: 'cli_exited_nonzero',
  cliExitedWithoutResult: 'cli_exited_without_result',
  cliReportedFailure: 'cli_reported_failure',
  malformedOutput: 'malformed_output',
  outputLineTooLong: 'output_line_too_long',
  /** The adapter emitted a message (or reported a fact) outside the contract; it was replaced, not sent. */
  agentMessageInvalid: 'agent_message_invalid',
  idleTimeout: 'idle_timeout',
  toolTimeout: 'tool_timeout',
  totalTimeout: 'total_timeout',
  resumeRejected: 'resume_rejected',
  /** The CLI speaks another version of its protocol than the adapter (DSH's versioned frames). */
  protocolVersionUnsupported: 'protocol_version_unsupported',
  cancelled: 'cancelled',
  aborted: 'aborted',
  // What the model provider said, read from the CLI's output by the family's failure classifier.
  /** The provider could not be reached: connection refused or reset, DNS, TLS, a stream cut short. */
  providerNetwork: 'provider_network',
  /** The provider answered with a server error (5xx, overloaded). */
  providerError: 'provider_error',
  /** 429 / quota: retry later, after the provider's retry-after when it gave one. */
  rateLimited: 'rate_limited',
  /** 401 / 403: the agent's key is wrong or lacks access; retrying cannot help. */
  authFailed: 'auth_failed',
  /** 400: the provider refused the request as built (often the conversation itself). */
  invalidRequest: 'invalid_request',
  /** The conversation no longer fits the model's context window. */
  contextOverflow: 'context_overflow',
} as const;

export type AgentRunErrorCode = (typeof AGENT_RUN_ERROR_CODES)[keyof typeof AGENT_RUN_ERROR_CODES];

/** Codes a watchdog can end a run with; they map to the `timeout` status. */
export const WATCHDOG_ERROR_CODES = [
  AGENT_RUN_ERROR_CODES.idleTimeout,
  AGENT_RUN_ERROR_CODES.toolTimeout,
  AGENT_RUN_ERROR_CODES.totalTimeout,
] as const satisfies readonly AgentRunErrorCode[];
export type WatchdogErrorCode = (typeof WATCHDOG_ERROR_CODES)[number];

/** The failure attached to a run result: data, not a thrown error, since a run always resolves. */
export interface AgentRunError {
  readonly code: AgentRunErrorCode;
  readonly message: string;
  /** The last lines of the CLI's stderr (bounded), usually where the real reason is. */
  readonly stderrTail: string;
  /** How long the provider asked to wait before retrying (a rate limit's retry-after), when the CLI printed it. */
  readonly retryAfterMs?: number;
}
