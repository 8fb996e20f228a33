import { SERVICE_PUBLISHERS, createEvent, subjects, uuidv7, type CommandOf } from '@switchyard/contracts';
import { publish } from '@switchyard/messaging';
import { GatewayTestKit, waitUntil, type TestWorkspace } from '../../gateway-test.spec-helper';
import { FakeQueue } from '../tasks/fake-queue.spec-helper';

describe('child_done and usage totals (real NATS + Postgres, a fake queue responder)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;
  let leadId: string;
  let workerId: string;

  interface IssueBody {
  id: string;
  tasks: Array<{ taskId: string }>;
}

/** Publishes `task.completed` the way the queue's outbox relay does (msg id = event id). */
  const complete = async (taskId: string, output: string | null, eventId?: string): Promise<void> => {
    const envelope = createEvent({ type: 'task.completed', payload: { taskId, attempt: 1, sessionId: null, output, durationMs: 5, usage: [], repositories: [] } });
    const sent = eventId ? { ...envelope, eventId } : envelope;
    await publish(kit.messaging, { subject: subjects.forEvent(sent, SERVICE_PUBLISHERS.queue), data: sent, messageId: sent.eventId });
  };
  const notesOn = async (issueId: string): Promise<Array<{ id: string; author_kind: string; body: string }>> =>
    kit.query(`select id, author_kind, body from issue_comment where issue_id = $1 and author_kind = 'system' order by created_at`, [issueId]);
  const taskOf = (issueId: string, trigger: string): CommandOf<'task.enqueue'> | undefined =>
    queue.enqueued.find((command) => command.payload.source.kind === 'issue' && command.payload.source.issueId === issueId && command.payload.source.trigger === trigger);

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000' });
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
    const runtimeId = (await kit.registerRuntime(alpha.id)).runtimeId;
    const api = kit.as(alpha.token);
    leadId = (await api.post('/api/agents', { name: 'Lead', runtimeId })).body.id;
    workerId = (await api.post('/api/agents', { name: 'Worker', runtimeId })).body.id;
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  it('a completed child task writes one note on the parent and gives its assignee one review task, however often the event comes', async () => {
    const api = kit.as(alpha.token);
    const parent = (await api.post<IssueBody>('/api/issues', { title: 'Auth epic', assigneeAgentId: leadId })).body;
    const child = (await api.post<IssueBody>('/api/issues', { title: 'Login form', parentIssueId: parent.id, assigneeAgentId: workerId })).body;
    const childTaskId: string = child.tasks[0]!.taskId;

    await complete(childTaskId, 'Fixed the form validation.');
    await waitUntil(() => Promise.resolve(taskOf(parent.id, 'mention') !== undefined), 'the parent’s assignee got a review task');
    // The same completion again (a redelivery, or a replay under another event id): nothing new.
    await complete(childTaskId, 'Fixed the form validation.');
    await complete(childTaskId, 'Fixed the form validation.', uuidv7());
    await new Promise((resolve) => setTimeout(resolve, 500));

    const notes = await notesOn(parent.id);
    expect(notes).toEqual([{ id: expect.any(String), author_kind: 'system', body: expect.stringMatching(/^child Login form done: Fixed the form validation\./) }]);
    const reviews = queue.enqueued.filter((command) => command.payload.source.kind === 'issue' && command.payload.source.issueId === parent.id && command.payload.source.trigger === 'mention');
    const review = reviews[0]!;
    expect(new Set(reviews.map((command) => command.requestId)).size).toBe(1);
    expect(review.payload).toMatchObject({ agentId: leadId, source: { kind: 'issue', issueId: parent.id, trigger: 'mention', commentId: notes[0]!.id } });
    expect(review.payload.prompt).toContain('child Login form done: Fixed the form validation.');
    expect(review.requestId).toBe(`gateway:trigger:${alpha.id}:child_done:${childTaskId}`);
    // Separate sessions and work dirs: the conversation key is (agent, issue), and the issue ids differ.
    const childSource = taskOf(child.id, 'assignment')!.payload.source;
    expect(childSource.kind === 'issue' && childSource.issueId).not.toBe(review.payload.source.kind === 'issue' && review.payload.source.issueId);
    expect((await kit.query('select trigger_key from task_trigger where trigger_key = $1 and task_id is not null', [`child_done:${childTaskId}`])).length).toBe(1);

    const comments = (await api.get(`/api/issues/${parent.id}/comments`)).body.comments;
    expect(comments).toEqual([expect.objectContaining({ author: { kind: 'system', id: 'child_done' }, mentionedAgentIds: [] })]);
  });

  it('a parent without an assignee gets only the note; a task of an issue without a parent changes nothing', async () => {
    const api = kit.as(alpha.token);
    const parent = (await api.post<IssueBody>('/api/issues', { title: 'Unowned epic' })).body;
    const child = (await api.post<IssueBody>('/api/issues', { title: 'Signup', parentIssueId: parent.id, assigneeAgentId: workerId })).body;
    const lone = (await api.post<IssueBody>('/api/issues', { title: 'Lone', assigneeAgentId: workerId })).body;
    const sentBefore = queue.enqueued.length;

    await complete(lone.tasks[0]!.taskId, 'done');
    await complete(child.tasks[0]!.taskId, null);
    await waitUntil(async () => (await notesOn(parent.id)).length === 1, 'the note is written');

    expect((await notesOn(parent.id))[0]!.body).toContain('child Signup done: (no output)');
    expect(queue.enqueued.length).toBe(sentBefore);
    // No child_done note on an issue without a parent (its own result is written back as the agent's comment: issue-results).
    expect(await kit.query(`select 1 from issue_comment where issue_id = $1 and author_kind = 'system'`, [lone.id])).toEqual([]);
  });

  it('the note shows the child’s output redacted as its timeline is: secret patterns and the child agent’s env values', async () => {
    const api = kit.as(alpha.token);
    const runtimeId = (await kit.registerRuntime(alpha.id)).runtimeId;
    const keeper = (await api.post('/api/agents', { name: 'Keeper', runtimeId, env: { VAULT_PASSPHRASE: 'open sesame 42' } })).body.id as string;
    const parent = (await api.post<IssueBody>('/api/issues', { title: 'Vault epic' })).body;
    const child = (await api.post<IssueBody>('/api/issues', { title: 'Rotate', parentIssueId: parent.id, assigneeAgentId: keeper })).body;

    await complete(child.tasks[0]!.taskId, 'Rotated. New token ghp_0123456789abcdefghijABCDEFGHIJ012345, vault: open sesame 42');
    await waitUntil(async () => (await notesOn(parent.id)).length === 1, 'the note is written');

    expect((await notesOn(parent.id))[0]!.body).toMatch(/^child Rotate done: Rotated\. New token \[REDACTED:github_token\], vault: \[REDACTED:known_secret\]\n/);
  });

  it('usage totals per issue (per task too) and per agent, failed and cancelled runs included, scoped to the workspace', async () => {
    const api = kit.as(alpha.token);
    const issue = (await api.post<IssueBody>('/api/issues', { title: 'Metered', assigneeAgentId: workerId })).body;
    const first: string = issue.tasks[0]!.taskId;
    const second: string = (await api.post<IssueBody>(`/api/issues/${issue.id}/comments`, { body: 'again', mentionAgentIds: [leadId] })).body.tasks[0]!.taskId;
    const idle: string = (await api.post<IssueBody>(`/api/issues/${issue.id}/comments`, { body: 'and you', mentionAgentIds: [workerId] })).body.tasks[0]!.taskId;
    await kit.setTaskStatus(first, 'failed');
    await kit.setTaskStatus(second, 'cancelled');
    const usage = async (taskId: string, attempt: number, model: string, input: number, output: number): Promise<void> => {
      await kit.query(
        `insert into task_usage (task_id, attempt, provider, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reported_seq)
         values ($1, $2, 'anthropic', $3, $4, $5, 1, 0, 9)`,
        [taskId, attempt, model, input, output],
      );
    };
    await usage(first, 1, 'opus', 100, 10);
    await usage(first, 2, 'opus', 50, 5);
    await usage(first, 2, 'haiku', 7, 1);
    await usage(second, 1, 'opus', 1000, 100);

    const ofIssue = await api.get(`/api/issues/${issue.id}/usage`);
    expect(ofIssue.status).toBe(200);
    expect(ofIssue.body).toMatchObject({
      issueId: issue.id,
      byModel: [
        { provider: 'anthropic', model: 'haiku', inputTokens: 7, outputTokens: 1, cacheReadTokens: 1, cacheWriteTokens: 0 },
        { provider: 'anthropic', model: 'opus', inputTokens: 1150, outputTokens: 115, cacheReadTokens: 3, cacheWriteTokens: 0 },
      ],
      totals: { inputTokens: 1157, outputTokens: 116, cacheReadTokens: 4, cacheWriteTokens: 0 },
    });
    const perTask = ofIssue.body.tasks as Array<{ taskId: string; status: string; totals: { inputTokens: number } }>;
    expect(perTask.map((task) => [task.taskId, task.status, task.totals.inputTokens])).toEqual([
      [first, 'failed', 157],
      [second, 'cancelled', 1000],
      [idle, 'queued', 0],
    ]);

    const ofWorker = await api.get(`/api/agents/${workerId}/usage`);
    expect(ofWorker.body).toMatchObject({ agentId: workerId, since: null, taskCount: 1, totals: { inputTokens: 157, outputTokens: 16 } });
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await api.get(`/api/agents/${workerId}/usage?since=${encodeURIComponent(future)}`)).body).toMatchObject({ taskCount: 0, byModel: [], totals: { inputTokens: 0 } });
    expect((await api.get(`/api/agents/${leadId}/usage`)).body.totals.inputTokens).toBe(1000);

    expect((await api.get(`/api/agents/${workerId}/usage?since=yesterday`)).status).toBe(400);
    expect((await kit.as(beta.token).get(`/api/issues/${issue.id}/usage`)).status).toBe(404);
    expect((await kit.as(beta.token).get(`/api/agents/${workerId}/usage`)).status).toBe(404);
  });
});
