import type { CommandOf } from '@switchyard/contracts';
import { GatewayTestKit, pluck, type TestWorkspace } from '../../gateway-test.spec-helper';
import { FakeQueue, QUEUE_UNAVAILABLE_REPLY as UNAVAILABLE } from '../tasks/fake-queue.spec-helper';

describe('issues, comments and their triggers (real NATS + Postgres, a fake queue responder)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;
  let fixerId: string;
  let reviewerId: string;
  let archivedId: string;
  let betaAgentId: string;

  const sentFor = (issueId: unknown): Array<CommandOf<'task.enqueue'>> =>
    queue.enqueued.filter((command) => command.payload.source.kind === 'issue' && command.payload.source.issueId === issueId);
  const countRows = (table: string, workspaceId: string): Promise<number> => kit.countRows(table, workspaceId);

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000' });
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
    const runtimeId = (await kit.registerRuntime(alpha.id)).runtimeId;
    const api = kit.as(alpha.token);
    fixerId = (await api.post('/api/agents', { name: 'Fixer', runtimeId })).body.id;
    reviewerId = (await api.post('/api/agents', { name: 'Code Reviewer', runtimeId })).body.id;
    archivedId = (await api.post('/api/agents', { name: 'Old Timer', runtimeId })).body.id;
    expect((await api.delete(`/api/agents/${archivedId}`)).status).toBe(204);
    const betaRuntimeId = (await kit.registerRuntime(beta.id)).runtimeId;
    betaAgentId = (await kit.as(beta.token).post('/api/agents', { name: 'Fixer', runtimeId: betaRuntimeId })).body.id;
  });
  afterEach(() => {
    queue.refusal = undefined;
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  it('creates, reads, lists (by parent), changes and deletes issues; a child inherits its parent’s project', async () => {
    const api = kit.as(alpha.token);
    const parent = await api.post('/api/issues', { title: 'Auth epic', description: 'All of auth', priority: 'high', project: 'web' });
    expect(parent.status).toBe(201);
    expect(parent.body).toMatchObject({ title: 'Auth epic', status: 'todo', priority: 'high', project: 'web', assigneeAgentId: null, parentIssueId: null, tasks: [] });
    const child = await api.post('/api/issues', { title: 'Login', parentIssueId: parent.body.id });
    expect(child.body).toMatchObject({ parentIssueId: parent.body.id, project: 'web' });
    const own = await api.post('/api/issues', { title: 'Signup', parentIssueId: parent.body.id, project: 'mobile' });
    expect(own.body.project).toBe('mobile');

    expect(pluck((await api.get(`/api/issues?parentIssueId=${parent.body.id}`)).body.issues, 'id').sort()).toEqual([child.body.id, own.body.id].sort());
    expect((await api.get(`/api/issues/${child.body.id}`)).body).toMatchObject({ title: 'Login', description: '' });

    const changed = await api.patch(`/api/issues/${child.body.id}`, { status: 'in_progress', description: 'Now with 2FA' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ status: 'in_progress', description: 'Now with 2FA', tasks: [] });
    const cycle = await api.patch(`/api/issues/${parent.body.id}`, { parentIssueId: child.body.id });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error.details.issues[0].path).toBe('parentIssueId');

    expect((await api.delete(`/api/issues/${parent.body.id}`)).status).toBe(204);
    expect((await api.get(`/api/issues/${parent.body.id}`)).status).toBe(404);
    expect((await api.get(`/api/issues/${child.body.id}`)).body.parentIssueId).toBeNull();
  });

  it('refuses bad input with a 4xx and writes nothing', async () => {
    const api = kit.as(alpha.token);
    const before = { issues: await countRows('issue', alpha.id), triggers: await countRows('task_trigger', alpha.id), sent: queue.enqueued.length };
    const cases: Array<[Promise<{ status: number; body: { error: { code: string } } }>, number, string]> = [
      [api.post('/api/issues', { title: '  ' }), 400, 'validation_failed'],
      [api.post('/api/issues', { title: 'x', status: 'open' }), 400, 'validation_failed'],
      [api.post('/api/issues', { title: 'x', extra: 1 }), 400, 'validation_failed'],
      [api.post('/api/issues', { title: 'x', parentIssueId: 'nope' }), 400, 'validation_failed'],
      [api.post('/api/issues', { title: 'x', assigneeAgentId: 'nope' }), 404, 'not_found'],
      [api.post('/api/issues', { title: 'x', assigneeAgentId: archivedId }), 409, 'agent_archived'],
      [api.post('/api/issues', { title: 'x', assigneeAgentId: betaAgentId }), 404, 'not_found'],
      [api.post('/api/issues', { title: 'x' }, { 'idempotency-key': 'has spaces' }), 400, 'validation_failed'],
      [api.patch('/api/issues/nope', { title: 'y' }), 404, 'not_found'],
    ];
    for (const [request, status, code] of cases) {
      const response = await request;
      expect({ status: response.status, code: response.body.error.code }).toEqual({ status, code });
    }
    const issue = await api.post('/api/issues', { title: 'Keep me' });
    for (const body of [{}, { assigneeAgentId: archivedId, title: 'changed' }, { title: 'changed', assigneeAgentId: 'nope' }]) {
      expect((await api.patch(`/api/issues/${issue.body.id}`, body)).status).toBeGreaterThanOrEqual(400);
    }
    expect((await api.get(`/api/issues/${issue.body.id}`)).body.title).toBe('Keep me');
    for (const body of [{ body: '' }, { body: 'hi', mentionAgentIds: ['nope'] }, { body: 'hi', mentionAgentIds: [archivedId] }, { body: 'hi', mentionAgentIds: [fixerId, fixerId] }]) {
      const response = await api.post(`/api/issues/${issue.body.id}/comments`, body);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    expect((await api.get(`/api/issues/${issue.body.id}/comments`)).body.comments).toEqual([]);
    expect({ issues: await countRows('issue', alpha.id), triggers: await countRows('task_trigger', alpha.id), sent: queue.enqueued.length }).toEqual({
      ...before,
      issues: before.issues + 1,
    });
  });

  it('assignment: exactly one task with the issue source and a prompt of the issue; a repeated PATCH dedupes; a new assignee gets its own', async () => {
    const api = kit.as(alpha.token);
    const issue = await api.post('/api/issues', { title: 'Flaky login test', description: 'Fails one run in ten', priority: 'urgent', assigneeAgentId: fixerId });
    expect(issue.status).toBe(201);
    const [sent, ...more] = sentFor(issue.body.id);
    expect(more).toEqual([]);
    expect(sent!.payload).toMatchObject({
      workspaceId: alpha.id,
      agentId: fixerId,
      source: { kind: 'issue', issueId: issue.body.id, trigger: 'assignment', commentId: null },
      priority: 4,
      forceFreshSession: false,
    });
    expect(sent!.payload.prompt).toContain('# Issue: Flaky login test');
    expect(sent!.payload.prompt).toContain('Fails one run in ten');
    expect(sent!.payload.prompt).toContain('assigned to you');
    expect(issue.body.tasks).toEqual([{ agentId: fixerId, taskId: expect.any(String), trigger: 'assignment' }]);
    const task = await api.get(`/api/tasks/${issue.body.tasks[0].taskId}`);
    expect(task.body).toMatchObject({ sourceKind: 'issue', issueId: issue.body.id, agentName: 'Fixer' });

    const repeated = await api.patch(`/api/issues/${issue.body.id}`, { assigneeAgentId: fixerId });
    expect(repeated.status).toBe(200);
    expect(repeated.body.tasks).toEqual(issue.body.tasks);
    expect(sentFor(issue.body.id)).toHaveLength(1);

    const reassigned = await api.patch(`/api/issues/${issue.body.id}`, { assigneeAgentId: reviewerId });
    expect(reassigned.body.tasks).toEqual([{ agentId: reviewerId, taskId: expect.any(String), trigger: 'assignment' }]);
    expect((await api.patch(`/api/issues/${issue.body.id}`, { assigneeAgentId: null })).body).toMatchObject({ assigneeAgentId: null, tasks: [] });
    expect(sentFor(issue.body.id).map((command) => command.payload.agentId)).toEqual([fixerId, reviewerId]);
  });

  it('a failed enqueue answers 503 with the issue saved; the same assignment again re-sends it with the same request id, one task', async () => {
    const api = kit.as(alpha.token);
    const issue = await api.post('/api/issues', { title: 'Queue down' });
    queue.refusal = UNAVAILABLE;
    const failed = await api.patch(`/api/issues/${issue.body.id}`, { assigneeAgentId: fixerId });
    expect(failed.status).toBe(503);
    expect(failed.body.error).toMatchObject({ code: 'queue_unavailable', details: { saved: { kind: 'issue', id: issue.body.id } } });
    expect((await api.get(`/api/issues/${issue.body.id}`)).body.assigneeAgentId).toBe(fixerId);
    queue.refusal = undefined;

    const retried = await api.patch(`/api/issues/${issue.body.id}`, { assigneeAgentId: fixerId });
    expect(retried.status).toBe(200);
    expect(retried.body.tasks).toHaveLength(1);
    const sends = sentFor(issue.body.id);
    expect(sends.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sends.map((command) => command.requestId)).size).toBe(1);
    expect(new Set(sends.map((command) => command.payload.prompt)).size).toBe(1);
    expect((await api.patch(`/api/issues/${issue.body.id}`, { assigneeAgentId: fixerId })).body.tasks).toEqual(retried.body.tasks);
    expect(sentFor(issue.body.id)).toHaveLength(sends.length);
    expect(await kit.query('select task_id from task_trigger where issue_id = $1', [issue.body.id])).toEqual([{ task_id: retried.body.tasks[0].taskId }]);
  });

  it('mention: one task per mentioned agent with the trigger comment and the comments since that agent’s last task', async () => {
    const api = kit.as(alpha.token);
    const issue = await api.post('/api/issues', { title: 'Slow search', description: 'Search takes 9 s' });
    await api.post(`/api/issues/${issue.body.id}/comments`, { body: 'Before the assignment' });
    await api.patch(`/api/issues/${issue.body.id}`, { assigneeAgentId: fixerId });
    await api.post(`/api/issues/${issue.body.id}/comments`, { body: 'Profiler says the index is missing' });
    const comment = await api.post(`/api/issues/${issue.body.id}/comments`, {
      body: '@Fixer and @code reviewer: please add the index (mail me at me@Fixer.dev)',
      mentionAgentIds: [reviewerId],
    });
    expect(comment.status).toBe(201);
    expect(comment.body).toMatchObject({ issueId: issue.body.id, author: { kind: 'user' }, mentionedAgentIds: [reviewerId, fixerId] });
    expect((comment.body.tasks as Array<{ agentId: string; trigger: string }>).map((task) => [task.agentId, task.trigger])).toEqual([
      [reviewerId, 'mention'],
      [fixerId, 'mention'],
    ]);
    const mentions = sentFor(issue.body.id).filter((command) => command.payload.source.kind === 'issue' && command.payload.source.trigger === 'mention');
    expect(mentions.map((command) => [command.payload.agentId, command.payload.source])).toEqual([
      [reviewerId, { kind: 'issue', issueId: issue.body.id, trigger: 'mention', commentId: comment.body.id }],
      [fixerId, { kind: 'issue', issueId: issue.body.id, trigger: 'mention', commentId: comment.body.id }],
    ]);
    const fixerPrompt = mentions[1]!.payload.prompt;
    expect(fixerPrompt).toContain('Search takes 9 s');
    expect(fixerPrompt).toContain('> @Fixer and @code reviewer: please add the index');
    expect(fixerPrompt).toContain('## Comments since your last task on this issue');
    expect(fixerPrompt).toContain('Profiler says the index is missing');
    expect(fixerPrompt).not.toContain('Before the assignment');
    // The reviewer never ran on this issue: it sees every earlier comment.
    expect(mentions[0]!.payload.prompt).toContain('## Comments on this issue');
    expect(mentions[0]!.payload.prompt).toContain('Before the assignment');
    expect(pluck((await api.get(`/api/issues/${issue.body.id}/comments`)).body.comments, 'id')).toHaveLength(3);
  });

  it('a retried comment POST (same Idempotency-Key) returns the first comment and its tasks; after a failed enqueue it re-sends with the same request id', async () => {
    const api = kit.as(alpha.token);
    const issue = await api.post('/api/issues', { title: 'Retry me' });
    const headers = { 'idempotency-key': 'comment-retry-1' };
    queue.refusal = UNAVAILABLE;
    const failed = await api.post(`/api/issues/${issue.body.id}/comments`, { body: 'hey @Fixer' }, headers);
    expect(failed.status).toBe(503);
    expect(failed.body.error.details.saved.kind).toBe('comment');
    queue.refusal = undefined;
    const retried = await api.post(`/api/issues/${issue.body.id}/comments`, { body: 'hey @Fixer' }, headers);
    expect(retried.status).toBe(201);
    expect(retried.body.id).toBe(failed.body.error.details.saved.id);
    expect(retried.body.tasks).toHaveLength(1);
    const again = await api.post(`/api/issues/${issue.body.id}/comments`, { body: 'hey @Fixer' }, headers);
    expect(again.body).toEqual(retried.body);
    const sends = sentFor(issue.body.id);
    expect(sends.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sends.map((command) => command.requestId)).size).toBe(1);
    expect((await api.get(`/api/issues/${issue.body.id}/comments`)).body.comments).toHaveLength(1);
    expect(await kit.query('select count(*)::int as count from agent_task_queue where issue_id = $1', [issue.body.id])).toEqual([{ count: 1 }]);
  });

  it('isolates workspaces: another workspace’s issues, comments and agents are not found and never mentioned', async () => {
    const issue = await kit.as(alpha.token).post('/api/issues', { title: 'Alpha only' });
    const other = kit.as(beta.token);
    expect((await other.get(`/api/issues/${issue.body.id}`)).status).toBe(404);
    expect((await other.patch(`/api/issues/${issue.body.id}`, { title: 'mine' })).status).toBe(404);
    expect((await other.delete(`/api/issues/${issue.body.id}`)).status).toBe(404);
    expect((await other.get(`/api/issues/${issue.body.id}/comments`)).status).toBe(404);
    expect((await other.post(`/api/issues/${issue.body.id}/comments`, { body: 'hi' })).status).toBe(404);
    expect(pluck((await other.get('/api/issues')).body.issues, 'id')).not.toContain(issue.body.id);
    const betaIssue = await other.post('/api/issues', { title: 'Beta', parentIssueId: issue.body.id });
    expect(betaIssue.status).toBe(400);

    const own = await other.post('/api/issues', { title: 'Beta issue' });
    expect((await other.patch(`/api/issues/${own.body.id}`, { assigneeAgentId: fixerId })).status).toBe(404);
    const comment = await other.post(`/api/issues/${own.body.id}/comments`, { body: '@Fixer and @Code Reviewer' });
    expect(comment.body.mentionedAgentIds).toEqual([betaAgentId]);
    expect(sentFor(own.body.id).map((command) => [command.payload.workspaceId, command.payload.agentId])).toEqual([[beta.id, betaAgentId]]);
  });
  it('cancels an issue’s unfinished tasks before deleting it; a queue that cannot cancel deletes nothing, and a retry finishes', async () => {
    const api = kit.as(alpha.token);
    const issue = await api.post('/api/issues', { title: 'Doomed', assigneeAgentId: fixerId });
    const [task] = sentFor(issue.body.id);
    const taskId = issue.body.tasks[0].taskId as string;
    expect(task).toBeDefined();

    queue.refusal = UNAVAILABLE;
    expect((await api.delete(`/api/issues/${issue.body.id}`)).status).toBe(503);
    expect((await api.get(`/api/issues/${issue.body.id}`)).status).toBe(200);
    expect(await kit.query('select status from agent_task_queue where task_id = $1', [taskId])).toEqual([{ status: 'queued' }]);

    queue.refusal = undefined;
    expect((await api.delete(`/api/issues/${issue.body.id}`)).status).toBe(204);
    expect((await api.get(`/api/issues/${issue.body.id}`)).status).toBe(404);
    expect(await kit.query('select status from agent_task_queue where task_id = $1', [taskId])).toEqual([{ status: 'cancelled' }]);
    expect(queue.bulkCancels.at(-1)?.payload).toMatchObject({ scope: { kind: 'issue', issueId: issue.body.id, agentId: null }, reason: 'the issue was deleted', requestedBy: { kind: 'user' } });
  });
});
