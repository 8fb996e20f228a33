/**
 * Every error code the REST API answers with, and its HTTP status: one table, so the exception
 * filter, the OpenAPI document and the docs agree. Bodies are `{ error: { code, message, details? } }`.
 */
export const API_ERROR_CODES = {
  validation_failed: { status: 400, description: 'The body, query or path failed validation; nothing was written.' },
  bad_request: { status: 400, description: 'The request could not be read (e.g. malformed JSON).' },
  unknown_protocol_family: { status: 400, description: 'The protocol family is not one of the accepted ones (listed in details).' },
  unknown_runtime: { status: 400, description: 'The runtime is not a runtime of the caller’s workspace.' },
  invalid_skill_bundle: { status: 400, description: 'The skill folder breaks a rule (SKILL.md missing, unsafe path, too large, front matter name not the skill’s); every problem is in details.problems.' },
  invalid_repository: { status: 400, description: 'The repository’s settings break a rule (URL form or embedded credentials, local path, branch name, branch template placeholders, mode); every problem is in details.problems.' },
  secret_not_found: { status: 400, description: 'The repository’s credential names a secret the workspace does not have.' },
  blocked_environment_key: { status: 400, description: 'The agent’s env sets a variable the daemon never passes to an agent (PATH, HOME, LD_*, ...); the keys are in details.keys.' },
  unauthenticated: { status: 401, description: 'No valid credential: an API token (Authorization: Bearer sy_...) or a signed-in session cookie.' },
  sign_in_failed: { status: 401, description: 'The email and password do not match an active account (which of the two is not said).' },
  one_time_code_invalid: { status: 401, description: 'The sign-in link, reset code or invitation is unknown, expired, revoked or already used.' },
  csrf_failed: { status: 403, description: 'A browser session’s unsafe request (POST, PATCH, PUT, DELETE) lacks the session’s `X-CSRF-Token` header, or comes from another origin.' },
  forbidden_role: { status: 403, description: 'The caller’s role in the workspace does not allow this (the permission and the lowest role are in details).' },
  token_scope_insufficient: { status: 403, description: 'The API token’s scopes do not include the permission this route needs (named in details).' },
  scope_exceeds_role: { status: 403, description: 'A token may carry only permissions its holder’s role grants; the ones beyond it are in details.' },
  not_a_member: { status: 403, description: 'The signed-in user is not a member of the workspace named by `X-Switchyard-Workspace`.' },
  workspace_required: { status: 400, description: 'The signed-in user belongs to several workspaces (or none): name one with the `X-Switchyard-Workspace` header.' },
  owner_required: { status: 403, description: 'Only an owner may make someone an owner, change an owner’s role or remove an owner.' },
  last_owner: { status: 409, description: 'The workspace would be left without an owner.' },
  email_taken: { status: 409, description: 'An account with this email exists; sign in and accept the invitation.' },
  weak_password: { status: 400, description: 'The password is shorter than 12 characters (or longer than 256).' },
  workspace_limit: { status: 403, description: 'The user owns as many workspaces as GATEWAY_MAX_OWNED_WORKSPACES allows.' },
  oidc_unavailable: { status: 404, description: 'No OIDC provider is configured (GATEWAY_OIDC_*).' },
  oidc_failed: { status: 401, description: 'The OIDC provider’s answer did not verify (state, nonce, token), or its email is not verified.' },
  enrollment_refused: { status: 401, description: 'The daemon enrollment token is unknown, expired or already used.' },
  task_token_inactive: { status: 401, description: 'The task token (syt_...) is unknown, revoked or expired, or its task attempt has ended.' },
  task_token_forbidden: {
    status: 403,
    description: 'A task token may read its issue and the issue’s comments, comment on it, change its status and create sub-issues of it; nothing else.',
  },
  task_token_out_of_scope: { status: 403, description: 'A task token acts on its own task’s issue only; this request names another.' },
  not_found: { status: 404, description: 'No such resource in the caller’s workspace.' },
  runtime_profile_name_taken: { status: 409, description: 'The workspace has a runtime profile with this display name.' },
  runtime_profiles_not_distributed: { status: 503, description: 'The change is saved, but NATS did not take the workspace’s runtime profiles for its daemons; repeat the request.' },
  secret_name_taken: { status: 409, description: 'The workspace has a secret with this name.' },
  secret_in_use: { status: 409, description: 'A repository’s credential uses the secret; change or delete those repositories first (named in details.repositories).' },
  project_name_taken: { status: 409, description: 'The workspace has a project with this name.' },
  project_not_empty: { status: 409, description: 'The project still has repositories; delete them first.' },
  repository_name_taken: { status: 409, description: 'The workspace has a repository with this name (names are unique per workspace: they name the folder in every work dir).' },
  skill_name_taken: { status: 409, description: 'The workspace has a skill with this name.' },
  agent_name_taken: { status: 409, description: 'The workspace has an active agent with this name.' },
  autopilot_name_taken: { status: 409, description: 'The workspace has an autopilot with this name.' },
  autopilot_disabled: { status: 409, description: 'The autopilot is disabled; its webhook is refused until it is enabled again.' },
  agent_archived: { status: 409, description: 'The agent is archived.' },
  agent_runtime_unavailable: { status: 409, description: 'The agent’s runtime is no longer a runtime of the workspace.' },
  task_not_finished: { status: 409, description: 'Only a completed, failed or cancelled task can be rerun.' },
  conflict: { status: 409, description: 'The queue refused: the command contradicts the task’s current state.' },
  terminal_state: { status: 409, description: 'The queue refused: the task is already completed, failed or cancelled.' },
  stale_attempt: { status: 409, description: 'The queue refused: the attempt named is no longer current.' },
  payload_too_large: { status: 413, description: 'The body exceeds the size limit.' },
  unsupported_media_type: { status: 415, description: 'The body is not JSON (`Content-Type: application/json` or `+json`); details.accepted lists what the route reads.' },
  invalid_request: { status: 422, description: 'The queue refused the command as invalid.' },
  auth_rate_limited: {
    status: 429,
    description: 'This client address presented too many invalid API tokens recently; every request with a token is refused until the `Retry-After` seconds have passed.',
  },
  internal: { status: 500, description: 'A gateway defect; see its logs.' },
  secret_unreadable: {
    status: 500,
    description: 'The agent’s secrets are sealed under a key the gateway does not have (GATEWAY_SECRET_KEYS lost or rotated away); restore the key, or archive the agent and create it again.',
  },
  repository_secret_unreadable: {
    status: 500,
    description: 'A repository’s credential secret is sealed under a key the gateway does not have (GATEWAY_SECRET_KEYS lost or rotated away); nothing was enqueued. Restore the key, or set the secret’s value again. The repository and secret are named in details.',
  },
  queue_error: { status: 502, description: 'The queue failed while handling the command; retrying is safe.' },
  skill_store_unavailable: { status: 503, description: 'The skills object store on NATS did not take a skill version the task needs; nothing was enqueued, retrying is safe.' },
  queue_unavailable: { status: 503, description: 'The queue did not answer (NATS or the queue service is down).' },
  enrollment_unavailable: { status: 503, description: 'This gateway has no enrollment authority (GATEWAY_ENROLLMENT_AUTHORITY_FILE), or NATS did not take the revocation.' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ApiErrorCode = keyof typeof API_ERROR_CODES;

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; details?: unknown };
}

/** A domain error of the REST edge; the exception filter turns it into its status and body. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.status = API_ERROR_CODES[code].status;
  }

  /** Headers the answer needs besides its body (a 429's `Retry-After`). */
  responseHeaders(): Readonly<Record<string, string>> {
    return {};
  }

  toBody(): ApiErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) } };
  }
}

export function notFound(what: string, id: string): ApiError {
  return new ApiError('not_found', `${what} ${id} not found`);
}
