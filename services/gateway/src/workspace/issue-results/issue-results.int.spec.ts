import { SERVICE_PUBLISHERS, STREAM_CATALOG, createEvent, subjects, uuidv7, type EventType, type PayloadOf, type SwitchyardEvent } from '@switchyard/contracts';
import { publish } from '@switchyard/messaging';
import { consumerState } from '@switchyard/messaging/testing';
import { SECRET_SAMPLES } from '@switchyard/redaction';
import { GatewayTestKit, waitUntil, type TestWorkspace } from '../../gateway-test.spec-helper';
import { FakeQueue } from '../tasks/fake-queue.spec-helper';
import { ISSUE_RESULT_EVENT_TYPES, issueResultsConsumerName } from './issue-results.consumer';

interface IssueBody {
  id: string;
  status: string;
  tasks: Array<{ taskId: string }>;
}

type CommentRow = {
  author_kind: string;
  author_id: string;
  body: string;
  task_id: string | null;
  idempotency_key: string | null;
};

describe('issue results written back (real NATS + Postgres, a fake queue responder)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let alpha: TestWorkspace;
  let runtimeId: string;
  let helperId: string;

  type TaskEventType = Extract<EventType, 'task.started' | 'task.completed' | 'task.failed' | 'task.expired'>;

  /** Publishes a task event the way the queue's outbox relay does (msg id = event id). */
  const publishEvent = async <TType extends TaskEventType>(type: TType, payload: PayloadOf<TType>, eventId?: string): Promise<void> => {
    const sent: SwitchyardEvent = createEvent<TaskEventType>({ type, payload, ...(eventId ? { eventId } : {}) });
    await publish(kit.messaging, { subject: subjects.forEvent(sent, SERVICE_PUBLISHERS.queue), data: sent, messageId: sent.eventId });
  };
  const started = (taskId: string): Promise<void> =>
    publishEvent('task.started', { taskId, attempt: 1, daemonId: 'daemon-1', runtimeId, workDir: '/work/dir', resumedSessionId: null, leaseExpiresAt: new Date().toISOString() });
  const completed = (taskId: string, output: string | null, eventId?: string): Promise<void> =>
    publishEvent('task.completed', { taskId, attempt: 1, sessionId: null, output, durationMs: 5, usage: [], repositories: [] }, eventId);
  const failed = (taskId: string, reason: PayloadOf<'task.failed'>['reason'], message: string): Promise<void> =>
    publishEvent('task.failed', { taskId, attempt: 1, reason, message, sessionId: null, detail: null, repositories: [] });

  /** Every event published so far was handled and acknowledged by the write-back consumers. */
  const handled = (): Promise<void> =>
    waitUntil(async () => {
      const states = await Promise.all(
        ISSUE_RESULT_EVENT_TYPES.map((type) => consumerState(kit.messaging, { stream: STREAM_CATALOG.TASK_EVENTS.name, name: issueResultsConsumerName(type) })),
      );
      return states.every((state) => state.pending === 0 && state.ackPending === 0);
    }, 'the issue-results consumers handled every event');

  const commentsOf = (issueId: string): Promise<CommentRow[]> =>
    kit.query<CommentRow>(`select author_kind, author_id, body, task_id, idempotency_key from issue_comment where issue_id = $1 order by created_at, id`, [issueId]);
  const statusOf = async (issueId: string): Promise<string> => (await kit.as(alpha.token).get<{ status: string }>(`/api/issues/${issueId}`)).body.status;
  const assigned = async (title: string, agentId = helperId): Promise<{ issueId: string; taskId: string }> => {
    const issue = (await kit.as(alpha.token).post<IssueBody>('/api/issues', { title, assigneeAgentId: agentId })).body;
    return { issueId: issue.id, taskId: issue.tasks[0]!.taskId };
  };

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000' });
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    runtimeId = (await kit.registerRuntime(alpha.id)).runtimeId;
    helperId = (await kit.as(alpha.token).post('/api/agents', { name: 'Helper', runtimeId, env: { VAULT_PASSPHRASE: 'open sesame 42' } })).body.id;
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  it('a run that starts puts the issue in progress; its completion becomes the agent’s comment, once, and asks for review', async () => {
    const { issueId, taskId } = await assigned('Fix the login');
    expect(await statusOf(issueId)).toBe('todo');

    await kit.setTaskStatus(taskId, 'running');
    await started(taskId);
    await waitUntil(async () => (await statusOf(issueId)) === 'in_progress', 'the issue is in progress');

    const enqueuedBefore = queue.enqueued.length;
    const anthropicKey = SECRET_SAMPLES.find((sample) => sample.kind === 'anthropic_api_key')!.secret;
    const output = `  Fixed it. @Helper please double-check; key ${anthropicKey}, vault open sesame 42.\n`;
    await kit.setTaskStatus(taskId, 'completed');
    await completed(taskId, output);
    await waitUntil(async () => (await statusOf(issueId)) === 'in_review', 'the issue waits for review');
    // A redelivery, a replay under another event id, and a late start: nothing new, nothing moves back.
    await completed(taskId, output);
    await completed(taskId, output, uuidv7());
    await started(taskId);
    await handled();

    expect(await commentsOf(issueId)).toEqual([
      {
        author_kind: 'agent',
        author_id: helperId,
        body: 'Fixed it. @Helper please double-check; key [REDACTED:anthropic_api_key], vault [REDACTED:known_secret].',
        task_id: taskId,
        idempotency_key: `result:${taskId}`,
      },
    ]);
    expect(await statusOf(issueId)).toBe('in_review');
    // The agent's own `@Helper` triggers nothing: the comment names no mentioned agents.
    expect(queue.enqueued.length).toBe(enqueuedBefore);
    const listed = (await kit.as(alpha.token).get(`/api/issues/${issueId}/comments`)).body.comments;
    expect(listed).toEqual([expect.objectContaining({ author: { kind: 'agent', id: helperId }, mentionedAgentIds: [] })]);
  });

  it('an agent that commented in its run with its task token gets no second comment; the issue still goes to review', async () => {
    const { issueId, taskId } = await assigned('Write the changelog');
    await kit.query(
      `insert into issue_comment (id, issue_id, workspace_id, author_kind, author_id, body, task_id) values ($1, $2, $3, 'agent', $4, 'Changelog written.', $5)`,
      [uuidv7(), issueId, alpha.id, helperId, taskId],
    );
    await kit.setTaskStatus(taskId, 'completed');
    await completed(taskId, 'Done: see my comment above.');
    await waitUntil(async () => (await statusOf(issueId)) === 'in_review', 'the issue waits for review');
    await handled();

    expect((await commentsOf(issueId)).map((comment) => comment.body)).toEqual(['Changelog written.']);
  });

  it('a run that fails for good leaves a system note with the reason and the redacted message; the status stays', async () => {
    const { issueId, taskId } = await assigned('Migrate the database');
    await kit.setTaskStatus(taskId, 'running');
    await started(taskId);
    await waitUntil(async () => (await statusOf(issueId)) === 'in_progress', 'the issue is in progress');

    await kit.setTaskStatus(taskId, 'failed');
    await failed(taskId, 'invalid_output', 'unreadable line near "open sesame 42"');
    await waitUntil(async () => (await commentsOf(issueId)).length === 1, 'the failure is noted');
    await failed(taskId, 'invalid_output', 'unreadable line near "open sesame 42"');
    await handled();

    const [note, ...others] = await commentsOf(issueId);
    expect(others).toEqual([]);
    expect(note).toMatchObject({ author_kind: 'system', author_id: 'gateway', task_id: taskId, idempotency_key: `failure:${taskId}` });
    expect(note!.body).toBe(
      `The agent's run failed: invalid_output (The CLI produced output the adapter could not read.)\n\nunreadable line near "[REDACTED:known_secret]"\n\n(task ${taskId})`,
    );
    expect(await statusOf(issueId)).toBe('in_progress');
  });

  it('a failure the queue retries writes nothing; the retry’s completion writes the result', async () => {
    const { issueId, taskId } = await assigned('Flaky network');
    const retryId = await kit.insertTask({
      workspaceId: alpha.id,
      enqueued: { agentId: helperId, runtimeId, source: { kind: 'issue', issueId, trigger: 'assignment', commentId: null }, retryOfTaskId: taskId },
    });
    // The queue's projection keeps the link; the kit's row does not carry it.
    await kit.query('update agent_task_queue set retry_of_task_id = $2 where task_id = $1', [retryId, taskId]);
    await kit.setTaskStatus(taskId, 'failed');
    await failed(taskId, 'provider_network', 'connection reset');
    await handled();
    expect(await commentsOf(issueId)).toEqual([]);

    await kit.setTaskStatus(retryId, 'completed');
    await completed(retryId, 'Worked on the second try.');
    await waitUntil(async () => (await commentsOf(issueId)).length === 1, 'the retry’s result is written');
    expect(await commentsOf(issueId)).toEqual([expect.objectContaining({ author_kind: 'agent', body: 'Worked on the second try.', task_id: retryId })]);
    expect(await statusOf(issueId)).toBe('in_review');
  });

  it('a queued task that expired leaves a note; a done issue keeps its status; a second unfinished task holds the review', async () => {
    const expiring = await assigned('Nobody home');
    await kit.setTaskStatus(expiring.taskId, 'failed');
    await publishEvent('task.expired', { taskId: expiring.taskId, cause: 'runtime_offline', message: 'no runtime claimed it within 1h' });
    await waitUntil(async () => (await commentsOf(expiring.issueId)).length === 1, 'the expiry is noted');
    expect((await commentsOf(expiring.issueId))[0]!.body).toMatch(/^The agent's run failed: expired \(.+\)\n\nno runtime claimed it within 1h\n/);

    const finished = await assigned('Already done');
    await kit.as(alpha.token).patch(`/api/issues/${finished.issueId}`, { status: 'done' });
    await kit.setTaskStatus(finished.taskId, 'running');
    await started(finished.taskId);
    await kit.setTaskStatus(finished.taskId, 'completed');
    await completed(finished.taskId, 'Nothing left to do.');
    await waitUntil(async () => (await commentsOf(finished.issueId)).length === 1, 'the result is written');

    const shared = await assigned('Two agents');
    const reviewerId = (await kit.as(alpha.token).post('/api/agents', { name: 'Reviewer', runtimeId })).body.id as string;
    const second = (await kit.as(alpha.token).post<IssueBody>(`/api/issues/${shared.issueId}/comments`, { body: 'have a look', mentionAgentIds: [reviewerId] })).body.tasks[0]!.taskId;
    await kit.setTaskStatus(shared.taskId, 'running');
    await kit.setTaskStatus(second, 'running');
    await started(shared.taskId);
    await waitUntil(async () => (await statusOf(shared.issueId)) === 'in_progress', 'the issue is in progress');
    await kit.setTaskStatus(shared.taskId, 'completed');
    await completed(shared.taskId, 'My half is done.');
    await waitUntil(async () => (await commentsOf(shared.issueId)).some((comment) => comment.task_id === shared.taskId), 'the first result is written');
    await handled();
    expect(await statusOf(shared.issueId)).toBe('in_progress');
    await kit.setTaskStatus(second, 'completed');
    await completed(second, 'Looks good.');
    await waitUntil(async () => (await statusOf(shared.issueId)) === 'in_review', 'the last completion asks for review');

    expect(await statusOf(finished.issueId)).toBe('done');
    expect(await statusOf(expiring.issueId)).toBe('todo');
  });

  it('events of tasks that are not an issue’s, and of a deleted issue, write nothing', async () => {
    const session = (await kit.as(alpha.token).post('/api/chat-sessions', { agentId: helperId })).body;
    const chatTaskId: string = (await kit.as(alpha.token).post(`/api/chat-sessions/${session.id}/messages`, { body: 'hi' })).body.task.taskId;
    const { issueId, taskId } = await assigned('Short-lived');
    await kit.as(alpha.token).delete(`/api/issues/${issueId}`);
    const before = await kit.count('issue_comment');

    await completed(chatTaskId, 'hello');
    await completed(taskId, 'too late');
    await failed(taskId, 'agent_error', 'too late');
    await handled();
    expect(await kit.count('issue_comment')).toBe(before);
  });
});
