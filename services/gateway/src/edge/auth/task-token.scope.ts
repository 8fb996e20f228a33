import { SetMetadata } from '@nestjs/common';
import { ApiError } from '../../workspace/common/api-error';
import type { TaskCaller } from '../../workspace/common/caller';

/**
 * What a task token may do on a route: read its issue (and the issue's comments), comment on it,
 * change its status, create a sub-issue of it. A route without a grant is closed to task tokens.
 * `issueParam` names the path parameter holding the issue id the route acts on.
 */
export type TaskTokenGrant =
  | { readonly kind: 'read_issue'; readonly issueParam: string }
  | { readonly kind: 'comment_on_issue'; readonly issueParam: string }
  | { readonly kind: 'change_issue_status'; readonly issueParam: string }
  | { readonly kind: 'create_sub_issue' };

export const TASK_TOKEN_GRANT = 'switchyard:task-token-grant';

/** Opens a route to task tokens, for what the grant allows; `ApiTokenGuard` enforces it. */
export const AllowTaskToken = (grant: TaskTokenGrant): MethodDecorator => SetMetadata(TASK_TOKEN_GRANT, grant);

const ALLOWED = 'a task token may read its issue and the issue’s comments, comment on it, change its status and create sub-issues of it';

/** The request a grant is checked against: its route, path parameters and (parsed JSON) body. */
export interface TaskTokenRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
}

/**
 * Why this task caller may not make this request, or undefined when it may: 403
 * `task_token_forbidden` for what no task token may do, 403 `task_token_out_of_scope` for another
 * issue than the task's own. Pure, so every rule is tested without HTTP.
 */
export function taskTokenRefusal(options: { readonly grant: TaskTokenGrant | undefined; readonly caller: TaskCaller; readonly request: TaskTokenRequest }): ApiError | undefined {
  const { grant, caller, request } = options;
  if (!grant) return new ApiError('task_token_forbidden', `${ALLOWED}; ${request.method} ${request.path} is none of those`);
  if (grant.kind === 'create_sub_issue') return subIssueRefusal(caller, request.body);
  const issueId = request.params[grant.issueParam];
  if (caller.issueId === null || issueId !== caller.issueId) return outOfScope(caller, issueId ?? '(none)');
  if (grant.kind === 'change_issue_status') return statusChangeRefusal(request.body);
  return undefined;
}

function outOfScope(caller: TaskCaller, issueId: string): ApiError {
  const own = caller.issueId === null ? 'this task works on no issue' : `this task works on issue ${caller.issueId}`;
  return new ApiError('task_token_out_of_scope', `a task token acts on its own task’s issue only: ${own}, not ${issueId}`);
}

function fieldsOf(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** Only `status` may change; title, assignee, parent and the rest stay the humans'. */
function statusChangeRefusal(body: unknown): ApiError | undefined {
  const others = Object.keys(fieldsOf(body)).filter((field) => field !== 'status');
  if (others.length === 0) return undefined;
  return new ApiError('task_token_forbidden', `a task token may change only the status of its issue, not ${others.join(', ')}`);
}

/** A child of the task's issue, never assigned to the agent itself (its run would start another run of it, and so on). */
function subIssueRefusal(caller: TaskCaller, body: unknown): ApiError | undefined {
  const fields = fieldsOf(body);
  const parentIssueId = typeof fields['parentIssueId'] === 'string' ? fields['parentIssueId'] : '(none)';
  if (caller.issueId === null || parentIssueId !== caller.issueId) return outOfScope(caller, `parentIssueId ${parentIssueId}`);
  if (fields['assigneeAgentId'] === caller.agentId) return new ApiError('task_token_forbidden', 'an agent may not assign a sub-issue to itself');
  return undefined;
}

/** The refusals a route open to task tokens may answer, for its OpenAPI entry. */
export const TASK_TOKEN_ERRORS = ['task_token_inactive', 'task_token_forbidden', 'task_token_out_of_scope'] as const;
