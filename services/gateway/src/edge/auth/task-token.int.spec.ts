import { GatewayTestKit, pluck, type ApiResponse, type TestWorkspace } from '../../gateway-test.spec-helper';
import { FakeQueue, QUEUE_UNAVAILABLE_REPLY } from '../../workspace/tasks/fake-queue.spec-helper';

/** Above the few refusals the tests before the last one provoke, so only the last one reaches it. */
const AUTH_FAILURE_LIMIT = 8;

const statusAndCode = (answer: ApiResponse): [number, string] => [answer.status, String(answer.body.error?.code)];

describe('an agent calls back with its task token (real NATS + Postgres, a fake queue responder)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;
  let fixerId: string;
  let reviewerId: string;
  let issueId: string;
  let otherIssueId: string;
  let taskId: string;
  let token: string;

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000', GATEWAY_AUTH_FAILURE_LIMIT: String(AUTH_FAILURE_LIMIT), GATEWAY_AUTH_FAILURE_WINDOW_MS: '600000' });
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
    const api = kit.as(alpha.token);
    const runtimeId = (await kit.registerRuntime(alpha.id)).runtimeId;
    fixerId = (await api.post('/api/agents', { name: 'Fixer', runtimeId })).body.id;
    reviewerId = (await api.post('/api/agents', { name: 'Reviewer', runtimeId })).body.id;
    const issue = await api.post('/api/issues', { title: 'Flaky login test', assigneeAgentId: fixerId });
    issueId = issue.body.id;
    taskId = issue.body.tasks[0].taskId;
    otherIssueId = (await api.post('/api/issues', { title: 'Someone else’s issue' })).body.id;
    token = queue.issueTaskToken({ taskId, workspaceId: alpha.id, agentId: fixerId, issueId });
  });
  afterEach(() => {
    queue.refusal = undefined;
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  it('given a live attempt, reads its issue and the issue’s comments', async () => {
    await kit.as(alpha.token).post(`/api/issues/${issueId}/comments`, { body: 'It fails on CI only' });
    const agent = kit.as(token);
    expect((await agent.get(`/api/issues/${issueId}`)).body).toMatchObject({ id: issueId, title: 'Flaky login test' });
    const comments = await agent.get(`/api/issues/${issueId}/comments`);
    expect(comments.status).toBe(200);
    expect(pluck(comments.body.comments, 'body')).toContain('It fails on CI only');
  });

  it('posts a comment authored by its agent with the task recorded; naming itself starts no run of itself, naming another agent does', async () => {
    const sentBefore = queue.enqueued.length;
    const posted = await kit.as(token).post(`/api/issues/${issueId}/comments`, { body: 'Fixed the race in the login test. @Fixer done; @Reviewer please look' });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ author: { kind: 'agent', id: fixerId }, mentionedAgentIds: [reviewerId] });
    expect(posted.body.tasks).toHaveLength(1);
    const sent = queue.enqueued.slice(sentBefore);
    expect(sent.map((command) => command.payload.agentId)).toEqual([reviewerId]);
    const [row] = await kit.query<{ task_id: string; author_kind: string }>('select task_id, author_kind from issue_comment where id = $1', [posted.body.id]);
    expect(row).toEqual({ task_id: taskId, author_kind: 'agent' });
  });

  it('changes its issue’s status, and nothing else of it', async () => {
    const agent = kit.as(token);
    const changed = await agent.patch(`/api/issues/${issueId}`, { status: 'in_review' });
    expect(changed.status).toBe(200);
    expect(changed.body.status).toBe('in_review');
    const retitled = await agent.patch(`/api/issues/${issueId}`, { status: 'done', title: 'Renamed by the agent' });
    expect(retitled.status).toBe(403);
    expect(retitled.body.error.code).toBe('task_token_forbidden');
    expect((await kit.as(alpha.token).get(`/api/issues/${issueId}`)).body).toMatchObject({ status: 'in_review', title: 'Flaky login test' });
  });

  it('creates sub-issues of its issue only, never assigned to itself', async () => {
    const agent = kit.as(token);
    const child = await agent.post('/api/issues', { title: 'Add a retry to the login helper', parentIssueId: issueId, assigneeAgentId: reviewerId });
    expect(child.status).toBe(201);
    expect(child.body).toMatchObject({ parentIssueId: issueId, assigneeAgentId: reviewerId });
    const elsewhere = await agent.post('/api/issues', { title: 'x', parentIssueId: otherIssueId });
    expect([elsewhere.status, elsewhere.body.error.code]).toEqual([403, 'task_token_out_of_scope']);
    const topLevel = await agent.post('/api/issues', { title: 'x' });
    expect([topLevel.status, topLevel.body.error.code]).toEqual([403, 'task_token_out_of_scope']);
    const toItself = await agent.post('/api/issues', { title: 'x', parentIssueId: issueId, assigneeAgentId: fixerId });
    expect([toItself.status, toItself.body.error.code]).toEqual([403, 'task_token_forbidden']);
  });

  it('refuses another issue 403 task_token_out_of_scope, and writes nothing there', async () => {
    const agent = kit.as(token);
    const answers = [
      await agent.get(`/api/issues/${otherIssueId}`),
      await agent.get(`/api/issues/${otherIssueId}/comments`),
      await agent.post(`/api/issues/${otherIssueId}/comments`, { body: 'not mine' }),
      await agent.patch(`/api/issues/${otherIssueId}`, { status: 'done' }),
    ];
    expect(answers.map(statusAndCode)).toEqual(Array.from({ length: 4 }, () => [403, 'task_token_out_of_scope']));
    expect((await kit.as(alpha.token).get(`/api/issues/${otherIssueId}/comments`)).body.comments).toEqual([]);
    expect((await kit.as(alpha.token).get(`/api/issues/${otherIssueId}`)).body.status).toBe('todo');
  });

  it('refuses every other route 403 task_token_forbidden, with a message that says what a task token may do', async () => {
    const agent = kit.as(token);
    const answers = [
      await agent.get('/api/issues'),
      await agent.get('/api/agents'),
      await agent.get('/api/tokens'),
      await agent.get(`/api/tasks/${taskId}`),
      await agent.post('/api/tasks', { agentId: fixerId, prompt: 'run again' }),
      await agent.delete(`/api/issues/${issueId}`),
      await agent.get('/api/workspace'),
    ];
    expect(answers.map(statusAndCode)).toEqual(Array.from({ length: answers.length }, () => [403, 'task_token_forbidden']));
    expect(answers[0]?.body.error.message).toMatch(/may read its issue .* comment on it, change its status and create sub-issues/);
    expect((await kit.as(alpha.token).get(`/api/issues/${issueId}`)).status).toBe(200);
  });

  it('given a chat task’s token, reaches no issue at all', async () => {
    const chatToken = queue.issueTaskToken({ taskId: 'task-of-a-chat', workspaceId: alpha.id, agentId: fixerId, chatSessionId: 'chat-1' });
    const answer = await kit.as(chatToken).get(`/api/issues/${issueId}`);
    expect([answer.status, answer.body.error.code]).toEqual([403, 'task_token_out_of_scope']);
    expect(answer.body.error.message).toContain('this task works on no issue');
  });

  it('never crosses workspaces: a token of another workspace’s task finds nothing of this one', async () => {
    const betaToken = queue.issueTaskToken({ taskId: 'task-of-beta', workspaceId: beta.id, agentId: 'agent-of-beta', issueId });
    // Same issue id, other workspace: the scope check passes, the workspace-scoped read finds nothing.
    expect((await kit.as(betaToken).get(`/api/issues/${issueId}`)).status).toBe(404);
    expect((await kit.as(betaToken).post(`/api/issues/${issueId}/comments`, { body: 'across' })).status).toBe(404);
  });

  it('answers 503 when the queue cannot say whether the token is live, and counts that against no one', async () => {
    queue.refusal = QUEUE_UNAVAILABLE_REPLY;
    const answer = await kit.as(token).get(`/api/issues/${issueId}`);
    expect([answer.status, answer.body.error.code]).toEqual([503, 'queue_unavailable']);
  });

  it('given the attempt ended, refuses the same token 401 task_token_inactive on every route', async () => {
    const ending = queue.issueTaskToken({ taskId: 'task-that-ends', workspaceId: alpha.id, agentId: fixerId, issueId });
    expect((await kit.as(ending).get(`/api/issues/${issueId}`)).status).toBe(200);
    queue.endTaskToken(ending);
    const answers = [await kit.as(ending).get(`/api/issues/${issueId}`), await kit.as(ending).post(`/api/issues/${issueId}/comments`, { body: 'too late' }), await kit.as(ending).get('/api/agents')];
    expect(answers.map(statusAndCode)).toEqual(Array.from({ length: 3 }, () => [401, 'task_token_inactive']));
  });

  // Last: it exhausts this client address's failures for the rest of the (long) window.
  it('counts refused task tokens with the API tokens’ failures: the address is answered 429 after the limit', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < AUTH_FAILURE_LIMIT + 2; index++) statuses.push((await kit.as(`syt_guess-${index}`).get(`/api/issues/${issueId}`)).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(AUTH_FAILURE_LIMIT);
    // The valid API token is held back as well, until the window passes.
    expect((await kit.as(alpha.token).get(`/api/issues/${issueId}`)).status).toBe(429);
  });
});
