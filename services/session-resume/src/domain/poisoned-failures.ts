import type { TaskFailureReason } from '@switchyard/contracts';

/**
 * Failures after which a session must not be resumed (design §7): resuming would replay the same
 * dead end. Most are not `TASK_FAILURE_REASONS` (adapters report them under `agent_error`), so
 * they are matched as data against the failure reason and the error codes found in the failure's
 * message and detail.
 */
export const POISONED_FAILURE_CODES = [
  'iteration_limit',
  'agent_fallback_message',
  'api_invalid_request',
  'agent_error.context_overflow',
  'codex_semantic_inactivity',
  'codex_resume_oversized',
] as const;
export type PoisonedFailureCode = (typeof POISONED_FAILURE_CODES)[number];

/** Contract failure reasons that are one of the poisons under another name. */
const POISONED_REASON_ALIASES: Partial<Record<TaskFailureReason, PoisonedFailureCode>> = {
  context_overflow: 'agent_error.context_overflow',
  // The provider refused the request as built (API 400): usually the conversation itself.
  invalid_request: 'api_invalid_request',
};

export interface FailureFacts {
  reason: TaskFailureReason;
  message: string;
  detail: string | null;
}

/**
 * The poison a failure carries, or null. A code counts when it is the reason itself, a whole
 * token of the message or detail (`api_invalid_request: 400 ...`), or `<reason>.<code>` with the
 * code as such a token (`agent_error` + `context_overflow`).
 */
export function poisonOf(failure: FailureFacts): PoisonedFailureCode | null {
  const alias = POISONED_REASON_ALIASES[failure.reason];
  if (alias) return alias;
  const tokens = codeTokens(`${failure.message}\n${failure.detail ?? ''}`);
  for (const code of POISONED_FAILURE_CODES) {
    if (code === failure.reason || tokens.has(code)) return code;
    const prefix = `${failure.reason}.`;
    if (code.startsWith(prefix) && tokens.has(code.slice(prefix.length))) return code;
  }
  return null;
}

function codeTokens(text: string): Set<string> {
  const tokens = text
    .split(/[^A-Za-z0-9_.]+/)
    .map((token) => token.replace(/^\.+|\.+$/g, ''))
    .filter((token) => token.length > 0);
  return new Set(tokens);
}
