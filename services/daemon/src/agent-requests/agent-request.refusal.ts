import type { RepositoryErrorCode } from '../repositories/repository.error';

/**
 * Why the daemon's agent-request server refuses a request, with the HTTP status of each (one
 * switch, this edge's). A failed checkout answers with the checkout error's own code instead
 * (`checkoutFailureStatus`).
 */
export const AGENT_REQUEST_REFUSAL_CODES = {
  /** No running task with this id, or not its token: the same answer, so a guess learns nothing. */
  task_token_inactive: 'task_token_inactive',
  /** The task has no repository of that name. */
  repository_not_found: 'repository_not_found',
  /** The name cannot be a repository's (`REPOSITORY_NAME_PATTERN`). */
  invalid_repository_name: 'invalid_repository_name',
  route_not_found: 'route_not_found',
  method_not_allowed: 'method_not_allowed',
  /** A body that is not one JSON object. */
  invalid_json: 'invalid_json',
  request_too_large: 'request_too_large',
  /** The checkout failed without a typed code: the details are in the daemon's log only. */
  checkout_failed: 'checkout_failed',
  /** The task's repositories could not be listed: the details are in the daemon's log only. */
  internal_error: 'internal_error',
} as const;

export type AgentRequestRefusalCode = keyof typeof AGENT_REQUEST_REFUSAL_CODES;

export function refusalStatus(code: AgentRequestRefusalCode): number {
  switch (code) {
    case 'task_token_inactive':
      return 401;
    case 'repository_not_found':
    case 'route_not_found':
      return 404;
    case 'invalid_repository_name':
    case 'invalid_json':
      return 400;
    case 'method_not_allowed':
      return 405;
    case 'request_too_large':
      return 413;
    case 'checkout_failed':
    case 'internal_error':
      return 500;
  }
}

/** A refusal as the wire carries it: `{ error: { code, message } }`, the gateway's shape. */
export class AgentRequestRefusal extends Error {
  override readonly name = 'AgentRequestRefusal';
  constructor(
    readonly code: AgentRequestRefusalCode,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return refusalStatus(this.code);
  }
}

export type CheckoutFailureStatus = 409 | 422 | 502 | 507;

/**
 * The status of each repository error code (`../repositories`; a new code there fails the build
 * here until it has one): the work dir is in the way (409), the repository's settings cannot work
 * (422), the remote failed us (502), the daemon's disk is full (507).
 */
const CHECKOUT_FAILURE_STATUS: Readonly<Record<RepositoryErrorCode, CheckoutFailureStatus>> = {
  repo_unavailable: 502,
  repo_auth_failed: 502,
  repo_branch_conflict: 409,
  repo_branch_invalid: 422,
  local_directory_unavailable: 422,
  disk_full: 507,
};

/** A code not in the table is another part's failure, not the agent's request: 502 like the remote's. */
export function checkoutFailureStatus(code: string): CheckoutFailureStatus {
  return Object.hasOwn(CHECKOUT_FAILURE_STATUS, code) ? CHECKOUT_FAILURE_STATUS[code as RepositoryErrorCode] : 502;
}

/**
 * The typed code of a thrown checkout error (`{ code: string }`, snake_case), else undefined: a
 * system error's `ENOENT` is no answer for the agent, so it counts as untyped.
 */
export function checkoutErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const { code } = error;
  return typeof code === 'string' && /^[a-z][a-z0-9_]{0,63}$/.test(code) ? code : undefined;
}
