import { subjects } from '@switchyard/contracts';
import { collectNotices } from '@switchyard/messaging/testing';
import { GatewayTestKit, type TestWorkspace } from '../../gateway-test.spec-helper';
import { FakeQueue } from './fake-queue.spec-helper';

describe('task commands: create, cancel, rerun over NATS (real NATS + Postgres, a fake queue responder)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;
  let runtimeId: string;
  let agentId: string;

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000' });
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
    runtimeId = (await kit.registerRuntime(alpha.id)).runtimeId;
    const agent = await kit.as(alpha.token).post('/api/agents', {
      name: 'Fixer',
      instructions: 'Fix things.',
      runtimeId,
      model: 'claude-sonnet-4-5',
      env: { API_KEY: 'key_secret' },
      extraArgs: ['--verbose'],
      mcpServers: { github: { command: 'github-mcp', args: [] } },
      skills: ['testing'],
      maxConcurrentTasks: 2,
    });
    agentId = agent.body.id as string;
  });
  afterEach(() => {
    queue.refusal = undefined;
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  const userIdOf = async (token: string): Promise<string> => (await kit.as(token).get('/api/me')).body.user.id as string;

  it('creates a quick task: the queue gets task.enqueue with the agent snapshot, the client the task', async () => {
    const response = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'Fix the flaky test', priority: 5 });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      taskId: expect.any(String),
      status: 'queued',
      agentId,
      agentName: 'Fixer',
      runtimeId,
      sourceKind: 'quick_create',
      source: { kind: 'quick_create' },
      priority: 5,
      prompt: 'Fix the flaky test',
      forceFreshSession: false,
      failure: null,
      cancellation: null,
    });
    expect(JSON.stringify(response.body)).not.toContain('key_secret');
    const sent = queue.enqueued.at(-1)!;
    expect(sent.payload).toEqual({
      workspaceId: alpha.id,
      agentId,
      runtimeId,
      agent: {
        name: 'Fixer',
        instructions: 'Fix things.',
        model: 'claude-sonnet-4-5',
        thinkingLevel: null,
        skills: ['testing'],
        // No skill named `testing` is in the store: no version to ship.
        skillVersions: [],
        env: { API_KEY: 'key_secret' },
        extraArgs: ['--verbose'],
        mcpConfig: { servers: { github: { command: 'github-mcp', args: [] } } },
        maxConcurrentTasks: 2,
        // The workspace has no repositories.
        repositories: [],
      },
      source: { kind: 'quick_create' },
      priority: 5,
      prompt: 'Fix the flaky test',
      forceFreshSession: false,
      maxAttempts: null,
      fireAt: null,
      // The workspace has no default TTL and the request named none.
      expiresAt: null,
      queuedTtlMs: null,
    });
  });

  it('returns the first task when a POST is retried with the same Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'retry-me-1' };
    const first = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'Once only' }, headers);
    const second = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'Once only' }, headers);
    expect(second.body.taskId).toBe(first.body.taskId);
    const requestIds = queue.enqueued.slice(-2).map((envelope) => envelope.requestId);
    expect(requestIds[0]).toBe(requestIds[1]);
    expect(await kit.query("select task_id from agent_task_queue where task_id = $1", [first.body.taskId])).toHaveLength(1);
  });

  it('refuses bad input with 400 before anything reaches the queue', async () => {
    const sentBefore = queue.enqueued.length;
    const tasksBefore = await kit.count('agent_task_queue');
    for (const body of [{ agentId }, { agentId, prompt: '   ' }, { prompt: 'no agent' }, { agentId, prompt: 'x', priority: 1.5 }, { agentId, prompt: 'x', runtimeId }]) {
      const response = await kit.as(alpha.token).post('/api/tasks', body);
      expect({ status: response.status, code: response.body.error?.code }).toEqual({ status: 400, code: 'validation_failed' });
    }
    const badKey = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'x' }, { 'idempotency-key': 'has spaces' });
    expect(badKey.status).toBe(400);
    expect(queue.enqueued.length).toBe(sentBefore);
    expect(await kit.count('agent_task_queue')).toBe(tasksBefore);
  });

  it('takes a prompt of the full 100,000 characters and answers a body over the limit with 413', async () => {
    const long = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'p'.repeat(100_000) });
    expect(long.status).toBe(201);
    expect((long.body.prompt as string).length).toBe(100_000);
    const tooLong = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'p'.repeat(100_001) });
    expect(tooLong.body.error.code).toBe('validation_failed');
    const sentBefore = queue.enqueued.length;
    const huge = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'p'.repeat(2 * 1024 * 1024) });
    expect({ status: huge.status, code: huge.body.error.code }).toEqual({ status: 413, code: 'payload_too_large' });
    expect(queue.enqueued.length).toBe(sentBefore);
  });

  it('answers an unknown agent, another workspace’s agent, and an archived agent without asking the queue', async () => {
    const sentBefore = queue.enqueued.length;
    expect((await kit.as(alpha.token).post('/api/tasks', { agentId: 'no-such-agent', prompt: 'x' })).body.error.code).toBe('not_found');
    expect((await kit.as(beta.token).post('/api/tasks', { agentId, prompt: 'x' })).status).toBe(404);
    const archived = (await kit.as(alpha.token).post('/api/agents', { name: 'Archived', runtimeId })).body.id as string;
    await kit.as(alpha.token).delete(`/api/agents/${archived}`);
    const response = await kit.as(alpha.token).post('/api/tasks', { agentId: archived, prompt: 'x' });
    expect({ status: response.status, code: response.body.error.code }).toEqual({ status: 409, code: 'agent_archived' });
    expect(queue.enqueued.length).toBe(sentBefore);
  });

  it('maps queue refusals to 409 and 422 with the queue’s code', async () => {
    queue.refusal = { ok: false, error: { code: 'conflict', message: 'already exists', retryable: false } };
    const conflict = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'x' });
    expect({ status: conflict.status, code: conflict.body.error.code }).toEqual({ status: 409, code: 'conflict' });
    queue.refusal = { ok: false, error: { code: 'invalid_request', message: 'deadline not after now', retryable: false } };
    const invalid = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'x' });
    expect(invalid).toEqual({ status: 422, body: { error: { code: 'invalid_request', message: 'the queue refused: deadline not after now' } } });
  });

  it('answers 503 queue_unavailable when nothing serves the queue’s commands', async () => {
    await queue.stop();
    try {
      const tasksBefore = await kit.count('agent_task_queue');
      const response = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'nobody listens' });
      expect({ status: response.status, code: response.body.error.code }).toEqual({ status: 503, code: 'queue_unavailable' });
      expect(await kit.count('agent_task_queue')).toBe(tasksBefore);
    } finally {
      queue.start();
    }
  });

  it('retries a command the queue did not answer in time once, with the same request id, then answers 503', async () => {
    await queue.stop();
    // A queue that takes the requests and never answers.
    const silent = await collectNotices(kit.messaging, subjects.command('task.enqueue'), { queueGroup: 'queue' });
    try {
      const response = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'into the void' });
      expect({ status: response.status, code: response.body.error.code }).toEqual({ status: 503, code: 'queue_unavailable' });
      const seen = silent.received.map((request) => (JSON.parse(request.text) as { requestId: string }).requestId);
      expect(seen).toHaveLength(2);
      expect(seen[1]).toBe(seen[0]);
    } finally {
      silent.close();
      queue.start();
    }
  });

  it('cancels a task with task.cancel, naming the person whose API token asked', async () => {
    const taskId = (await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'Cancel me' })).body.taskId as string;
    const response = await kit.as(alpha.token).post(`/api/tasks/${taskId}/cancel`, { reason: 'wrong branch' });
    expect(response.status).toBe(200);
    const userId = await userIdOf(alpha.token);
    expect(response.body).toMatchObject({ taskId, status: 'cancelled', cancellation: { by: { kind: 'user', id: userId }, reason: 'wrong branch' } });
    expect(queue.cancels.at(-1)!.payload).toEqual({ taskId, requestedBy: { kind: 'user', id: userId }, reason: 'wrong branch' });

    const again = await kit.request('POST', `/api/tasks/${taskId}/cancel`, { token: alpha.token });
    expect({ status: again.status, code: again.body.error.code }).toEqual({ status: 409, code: 'terminal_state' });
  });

  it('never lets another workspace cancel or rerun a task', async () => {
    const taskId = (await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'Mine' })).body.taskId as string;
    const cancelsBefore = queue.cancels.length;
    const enqueuedBefore = queue.enqueued.length;
    expect((await kit.as(beta.token).post(`/api/tasks/${taskId}/cancel`, {})).status).toBe(404);
    await kit.setTaskStatus(taskId, 'completed');
    expect((await kit.as(beta.token).post(`/api/tasks/${taskId}/rerun`)).status).toBe(404);
    expect(queue.cancels.length).toBe(cancelsBefore);
    expect(queue.enqueued.length).toBe(enqueuedBefore);
  });

  it('reruns a finished task: same prompt, source and priority, a fresh session', async () => {
    const original = (await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'Run it again', priority: 3 })).body;
    const notFinished = await kit.as(alpha.token).post(`/api/tasks/${original.taskId as string}/rerun`);
    expect({ status: notFinished.status, code: notFinished.body.error.code }).toEqual({ status: 409, code: 'task_not_finished' });

    await kit.setTaskStatus(original.taskId as string, 'failed');
    const rerun = await kit.as(alpha.token).post(`/api/tasks/${original.taskId as string}/rerun`);
    expect(rerun.status).toBe(201);
    expect(rerun.body.taskId).not.toBe(original.taskId);
    expect(rerun.body).toMatchObject({ status: 'queued', prompt: 'Run it again', priority: 3, forceFreshSession: true, source: { kind: 'quick_create' } });
    expect(queue.enqueued.at(-1)!.payload).toMatchObject({ agentId, prompt: 'Run it again', priority: 3, forceFreshSession: true, source: { kind: 'quick_create' } });
  });

  it('answers create and rerun with the prompt redacted, and still sends the queue the prompt as written', async () => {
    const prompt = 'Deploy with key_secret and ghp_0123456789abcdefghijABCDEFGHIJ012345';
    const created = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt });
    expect(created.status).toBe(201);
    // `key_secret` is the agent's API_KEY value; the token is a GitHub token by its pattern.
    expect(created.body.prompt).toBe('Deploy with [REDACTED:known_secret] and [REDACTED:github_token]');
    expect(queue.enqueued.at(-1)!.payload.prompt).toBe(prompt);

    await kit.setTaskStatus(created.body.taskId as string, 'completed');
    const rerun = await kit.as(alpha.token).post(`/api/tasks/${created.body.taskId as string}/rerun`);
    expect(rerun.body.prompt).toBe('Deploy with [REDACTED:known_secret] and [REDACTED:github_token]');
    expect(queue.enqueued.at(-1)!.payload.prompt).toBe(prompt);
  });

  it('reruns an issue task as a `rerun` trigger of the same issue', async () => {
    const taskId = await kit.insertTask({
      workspaceId: alpha.id,
      status: 'completed',
      enqueued: { agentId, runtimeId, source: { kind: 'issue', issueId: 'issue-7', trigger: 'mention', commentId: 'comment-3' }, prompt: 'Look at issue 7' },
    });
    const rerun = await kit.as(alpha.token).post(`/api/tasks/${taskId}/rerun`);
    expect(rerun.status).toBe(201);
    expect(queue.enqueued.at(-1)!.payload).toMatchObject({
      source: { kind: 'issue', issueId: 'issue-7', trigger: 'rerun', commentId: null },
      prompt: 'Look at issue 7',
      forceFreshSession: true,
    });
    expect(rerun.body).toMatchObject({ sourceKind: 'issue', issueId: 'issue-7' });
  });
});
