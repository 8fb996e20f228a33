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
  unauthenticated: { status: 401, description: 'No valid API token (Authorization: Bearer sy_...).' },
  enrollment_refused: { status: 401, description: 'The daemon enrollment token is unknown, expired or already used.' },
  task_token_inactive: { status: 401, description: 'The task token (syt_...) is unknown, revoked or expired, or its task attempt has ended.' },
  task_token_forbidden: {
    status: 403,
    description: 'A task token may read its issue and the issue’s comments, comment on it, change its status and create sub-issues of it; nothing else.',
  },
  task_token_out_of_scope: { status: 403, description: 'A task token acts on its own task’s issue only; this request names another.' },
  not_found: { status: 404, description: 'No such resource in the caller’s workspace.' },
  workspace_exists: { status: 409, description: 'A workspace with this id already exists.' },
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
