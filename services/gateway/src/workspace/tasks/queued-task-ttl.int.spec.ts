import type { CommandOf } from '@switchyard/contracts';
import { GatewayTestKit, pluck, type TestWorkspace } from '../../gateway-test.spec-helper';
import { FakeQueue } from './fake-queue.spec-helper';

const TEN_MINUTES = 600;

describe('queue ageing in the gateway: workspace default TTL and per-task TTL (real NATS + Postgres, a fake queue responder)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let ageing: TestWorkspace;
  let timeless: TestWorkspace;
  let ageingAgentId: string;
  let timelessAgentId: string;

  const agentIn = async (workspace: TestWorkspace): Promise<string> => {
    const { runtimeId } = await kit.registerRuntime(workspace.id);
    return (await kit.as(workspace.token).post('/api/agents', { name: 'Fixer', runtimeId })).body.id as string;
  };
  const lastSent = (): CommandOf<'task.enqueue'> => queue.enqueued.at(-1)!;

  /** Creates a task and brackets the gateway's clock: its `expiresAt` lies between before + TTL and after + TTL. */
  const createBracketed = async (workspace: TestWorkspace, body: Record<string, unknown>) => {
    const before = Date.now();
    const response = await kit.as(workspace.token).post('/api/tasks', body);
    const after = Date.now();
    return { response, before, after };
  };

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000' });
    queue = new FakeQueue(kit);
    queue.start();
    ageing = await kit.workspace('Ageing');
    timeless = await kit.workspace('Timeless');
    ageingAgentId = await agentIn(ageing);
    timelessAgentId = await agentIn(timeless);
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  it('reads and sets the workspace default TTL over REST; a new workspace has none', async () => {
    expect((await kit.as(ageing.token).get('/api/workspace')).body).toMatchObject({ id: ageing.id, queuedTaskTtlSeconds: null });
    const changed = await kit.as(ageing.token).patch('/api/workspace', { queuedTaskTtlSeconds: TEN_MINUTES });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ id: ageing.id, name: 'Ageing', queuedTaskTtlSeconds: TEN_MINUTES, createdAt: expect.any(String) });
    expect((await kit.as(ageing.token).get('/api/workspace')).body.queuedTaskTtlSeconds).toBe(TEN_MINUTES);
    // The other workspace is untouched.
    expect((await kit.as(timeless.token).get('/api/workspace')).body.queuedTaskTtlSeconds).toBeNull();
  });

  it('creates a workspace with a default TTL', async () => {
    const created = await kit.as(kit.bootstrapToken).post('/api/workspaces', { name: 'Born ageing', queuedTaskTtlSeconds: 3_600 });
    expect(created.status).toBe(201);
    expect(created.body.workspace).toMatchObject({ name: 'Born ageing', queuedTaskTtlSeconds: 3_600 });
    expect((await kit.as(created.body.token.token as string).get('/api/workspace')).body.queuedTaskTtlSeconds).toBe(3_600);
  });

  it('gives a quick task the workspace default: expiresAt = now + TTL, and the TTL for its retries', async () => {
    const { response, before, after } = await createBracketed(ageing, { agentId: ageingAgentId, prompt: 'Age me' });
    expect(response.status).toBe(201);
    const { expiresAt, queuedTtlMs } = lastSent().payload;
    expect(queuedTtlMs).toBe(TEN_MINUTES * 1000);
    expect(Date.parse(expiresAt!)).toBeGreaterThanOrEqual(before + TEN_MINUTES * 1000);
    expect(Date.parse(expiresAt!)).toBeLessThanOrEqual(after + TEN_MINUTES * 1000);
    // The task as the API shows it carries the same deadline.
    expect(response.body.expiresAt).toBe(expiresAt);
    expect((await kit.as(ageing.token).get(`/api/tasks/${response.body.taskId as string}`)).body.expiresAt).toBe(expiresAt);
  });

  it('lets a task’s expiresInSeconds override the workspace default, and null mean no expiry', async () => {
    const { response, before, after } = await createBracketed(ageing, { agentId: ageingAgentId, prompt: 'Short fuse', expiresInSeconds: 120 });
    expect(response.status).toBe(201);
    expect(lastSent().payload.queuedTtlMs).toBe(120_000);
    expect(Date.parse(response.body.expiresAt as string)).toBeGreaterThanOrEqual(before + 120_000);
    expect(Date.parse(response.body.expiresAt as string)).toBeLessThanOrEqual(after + 120_000);

    const forever = await kit.as(ageing.token).post('/api/tasks', { agentId: ageingAgentId, prompt: 'No fuse', expiresInSeconds: null });
    expect(forever.status).toBe(201);
    expect(forever.body.expiresAt).toBeNull();
    expect(lastSent().payload).toMatchObject({ expiresAt: null, queuedTtlMs: null });
  });

  it('gives no expiry where neither the workspace nor the request names a TTL', async () => {
    const response = await kit.as(timeless.token).post('/api/tasks', { agentId: timelessAgentId, prompt: 'Wait forever' });
    expect(response.status).toBe(201);
    expect(response.body.expiresAt).toBeNull();
    expect(lastSent().payload).toMatchObject({ expiresAt: null, queuedTtlMs: null });
  });

  it('gives a rerun the workspace default, or the TTL its body names', async () => {
    const original = (await kit.as(ageing.token).post('/api/tasks', { agentId: ageingAgentId, prompt: 'Again', expiresInSeconds: null })).body;
    await kit.setTaskStatus(original.taskId as string, 'failed');

    const byDefault = await kit.as(ageing.token).post(`/api/tasks/${original.taskId as string}/rerun`);
    expect(byDefault.status).toBe(201);
    expect(lastSent().payload.queuedTtlMs).toBe(TEN_MINUTES * 1000);
    expect(byDefault.body.expiresAt).toEqual(expect.any(String));

    const overridden = await kit.as(ageing.token).post(`/api/tasks/${original.taskId as string}/rerun`, { expiresInSeconds: 90 });
    expect(overridden.status).toBe(201);
    expect(lastSent().payload.queuedTtlMs).toBe(90_000);
  });

  it('gives a triggered task (an issue’s assignment) the workspace default', async () => {
    const issue = await kit.as(ageing.token).post('/api/issues', { title: 'Assigned work', assigneeAgentId: ageingAgentId });
    expect(issue.status).toBe(201);
    const sent = queue.enqueued.filter((command) => command.payload.source.kind === 'issue' && command.payload.source.issueId === issue.body.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.payload).toMatchObject({ queuedTtlMs: TEN_MINUTES * 1000, expiresAt: expect.any(String) });
  });

  it('refuses a TTL out of bounds with 400 and every problem listed, sending and changing nothing', async () => {
    const sentBefore = queue.enqueued.length;
    const tooShort = await kit.as(ageing.token).post('/api/tasks', { agentId: ageingAgentId, prompt: 'x', expiresInSeconds: 30 });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.error.code).toBe('validation_failed');
    expect(pluck(tooShort.body.error.details.issues, 'path')).toEqual(['expiresInSeconds']);
    const fractional = await kit.as(ageing.token).post('/api/tasks', { agentId: ageingAgentId, prompt: 'x', expiresInSeconds: 90.5 });
    expect(fractional.status).toBe(400);
    expect(queue.enqueued.length).toBe(sentBefore);

    const tooLong = await kit.as(ageing.token).patch('/api/workspace', { queuedTaskTtlSeconds: 31 * 24 * 3600 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details.issues[0].message).toContain('at most 2592000 seconds');
    const nothing = await kit.as(ageing.token).patch('/api/workspace', {});
    expect(nothing.status).toBe(400);
    const unknown = await kit.as(ageing.token).patch('/api/workspace', { name: 'Renamed' });
    expect(unknown.status).toBe(400);
    expect((await kit.as(ageing.token).get('/api/workspace')).body).toMatchObject({ name: 'Ageing', queuedTaskTtlSeconds: TEN_MINUTES });
  });

  it('removes the default with null: tasks created from then on have no expiry', async () => {
    const cleared = await kit.as(ageing.token).patch('/api/workspace', { queuedTaskTtlSeconds: null });
    expect(cleared.body.queuedTaskTtlSeconds).toBeNull();
    const response = await kit.as(ageing.token).post('/api/tasks', { agentId: ageingAgentId, prompt: 'No default now' });
    expect(response.body.expiresAt).toBeNull();
  });
});
