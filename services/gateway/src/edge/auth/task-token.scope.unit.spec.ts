import type { TaskCaller } from '../../workspace/common/caller';
import { taskTokenRefusal, type TaskTokenGrant, type TaskTokenRequest } from './task-token.scope';

const issueTask: TaskCaller = { kind: 'task', workspaceId: 'w1', agentId: 'agent-1', taskId: 'task-1', attempt: 1, issueId: 'issue-1', chatSessionId: null };
const chatTask: TaskCaller = { ...issueTask, issueId: null, chatSessionId: 'chat-1' };

function request(overrides: Partial<TaskTokenRequest> = {}): TaskTokenRequest {
  return { method: 'GET', path: '/api/issues/issue-1', params: { id: 'issue-1' }, body: undefined, ...overrides };
}

/** Given a grant and a caller, when the request is checked, then this code (or none) comes back. */
function codeOf(grant: TaskTokenGrant | undefined, caller: TaskCaller, checked: TaskTokenRequest): string | undefined {
  return taskTokenRefusal({ grant, caller, request: checked })?.code;
}

describe('taskTokenRefusal', () => {
  it('given a route without a grant, refuses task_token_forbidden and names the route', () => {
    const refusal = taskTokenRefusal({ grant: undefined, caller: issueTask, request: request({ method: 'GET', path: '/api/agents', params: {} }) });
    expect(refusal?.code).toBe('task_token_forbidden');
    expect(refusal?.message).toContain('GET /api/agents is none of those');
  });

  it.each([
    [{ kind: 'read_issue', issueParam: 'id' }, request()],
    [{ kind: 'read_issue', issueParam: 'issueId' }, request({ params: { issueId: 'issue-1' } })],
    [{ kind: 'comment_on_issue', issueParam: 'issueId' }, request({ method: 'POST', params: { issueId: 'issue-1' }, body: { body: 'hi' } })],
    [{ kind: 'change_issue_status', issueParam: 'id' }, request({ method: 'PATCH', body: { status: 'in_review' } })],
    [{ kind: 'create_sub_issue' }, request({ method: 'POST', params: {}, body: { title: 'child', parentIssueId: 'issue-1', assigneeAgentId: 'agent-2' } })],
  ] as Array<[TaskTokenGrant, TaskTokenRequest]>)('given grant %j on its own issue, allows it', (grant, checked) => {
    expect(codeOf(grant, issueTask, checked)).toBeUndefined();
  });

  it('given another issue in the path, refuses task_token_out_of_scope', () => {
    expect(codeOf({ kind: 'read_issue', issueParam: 'id' }, issueTask, request({ params: { id: 'issue-2' } }))).toBe('task_token_out_of_scope');
    expect(codeOf({ kind: 'comment_on_issue', issueParam: 'issueId' }, issueTask, request({ params: {} }))).toBe('task_token_out_of_scope');
  });

  it('given a task of no issue, refuses every issue route task_token_out_of_scope', () => {
    expect(codeOf({ kind: 'read_issue', issueParam: 'id' }, chatTask, request())).toBe('task_token_out_of_scope');
    expect(codeOf({ kind: 'create_sub_issue' }, chatTask, request({ body: { title: 'x', parentIssueId: 'issue-1' } }))).toBe('task_token_out_of_scope');
  });

  it('given a change of more than the status, refuses task_token_forbidden and names the fields', () => {
    const refusal = taskTokenRefusal({ grant: { kind: 'change_issue_status', issueParam: 'id' }, caller: issueTask, request: request({ body: { status: 'done', assigneeAgentId: null } }) });
    expect(refusal?.code).toBe('task_token_forbidden');
    expect(refusal?.message).toContain('assigneeAgentId');
  });

  it('given a sub-issue of another parent, or none, refuses task_token_out_of_scope; assigned to the agent itself, task_token_forbidden', () => {
    const grant: TaskTokenGrant = { kind: 'create_sub_issue' };
    expect(codeOf(grant, issueTask, request({ body: { title: 'x', parentIssueId: 'issue-2' } }))).toBe('task_token_out_of_scope');
    expect(codeOf(grant, issueTask, request({ body: { title: 'x' } }))).toBe('task_token_out_of_scope');
    expect(codeOf(grant, issueTask, request({ body: 'not an object' }))).toBe('task_token_out_of_scope');
    expect(codeOf(grant, issueTask, request({ body: { title: 'x', parentIssueId: 'issue-1', assigneeAgentId: 'agent-1' } }))).toBe('task_token_forbidden');
  });
});
