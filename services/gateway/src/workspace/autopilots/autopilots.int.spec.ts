import type { CommandOf } from '@switchyard/contracts';
import { GatewayTestKit, pluck, type TestWorkspace } from '../../gateway-test.spec-helper';
import { FakeQueue, QUEUE_UNAVAILABLE_REPLY as UNAVAILABLE } from '../tasks/fake-queue.spec-helper';

describe('autopilots: definitions, manual runs and the webhook (real NATS + Postgres, a fake queue responder)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;
  let agentId: string;
  let archivedId: string;

  const sentFor = (autopilotId: unknown): Array<CommandOf<'task.enqueue'>> =>
    queue.enqueued.filter((command) => command.payload.source.kind === 'autopilot' && command.payload.source.autopilotId === autopilotId);
  const countRows = (table: string, workspaceId: string): Promise<number> => kit.countRows(table, workspaceId);
  const webhook = (id: string, body: unknown, headers: Record<string, string>) => kit.request('POST', `/api/autopilots/${id}/webhook`, { body, headers });

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000', GATEWAY_AUTOPILOT_TICK_MS: '0' });
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
    const runtimeId = (await kit.registerRuntime(alpha.id)).runtimeId;
    const api = kit.as(alpha.token);
    agentId = (await api.post('/api/agents', { name: 'Triager', runtimeId })).body.id;
    archivedId = (await api.post('/api/agents', { name: 'Old Timer', runtimeId })).body.id;
    expect((await api.delete(`/api/agents/${archivedId}`)).status).toBe(204);
  });
  afterEach(() => {
    queue.refusal = undefined;
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  it('creates (secret shown once, stored hashed), reads, lists, changes and deletes autopilots, each workspace its own', async () => {
    const api = kit.as(alpha.token);
    const created = await api.post('/api/autopilots', { name: 'Nightly', agentId, instructions: 'Triage new issues', schedule: '0 2 * * *' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Nightly', agentId, mode: 'run_only', schedule: '0 2 * * *', enabled: true, lastFiredMinute: null });
    expect(created.body.webhookSecret).toMatch(/^ywh_[A-Za-z0-9_-]{43}$/);
    const [stored] = await kit.query<{ webhook_secret_hash: string }>('select webhook_secret_hash from autopilot where id = $1', [created.body.id]);
    expect(stored!.webhook_secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(created.body.webhookSecret);

    const read = await api.get(`/api/autopilots/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.webhookSecret).toBeUndefined();
    expect(pluck((await api.get('/api/autopilots')).body.autopilots, 'id')).toContain(created.body.id);

    const changed = await api.patch(`/api/autopilots/${created.body.id}`, { schedule: null, mode: 'create_issue', enabled: false });
    expect(changed.body).toMatchObject({ schedule: null, mode: 'create_issue', enabled: false });

    const other = kit.as(beta.token);
    expect((await other.get(`/api/autopilots/${created.body.id}`)).status).toBe(404);
    expect((await other.patch(`/api/autopilots/${created.body.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await other.post(`/api/autopilots/${created.body.id}/run`, {})).status).toBe(404);
    expect((await other.delete(`/api/autopilots/${created.body.id}`)).status).toBe(404);
    expect((await other.get('/api/autopilots')).body.autopilots).toEqual([]);

    expect((await api.delete(`/api/autopilots/${created.body.id}`)).status).toBe(204);
    expect((await api.get(`/api/autopilots/${created.body.id}`)).status).toBe(404);
  });

  it('refuses bad input with a 4xx and writes nothing', async () => {
    const api = kit.as(alpha.token);
    const kept = await api.post('/api/autopilots', { name: 'Kept', agentId, instructions: 'Stay as you are' });
    const before = { autopilots: await countRows('autopilot', alpha.id), triggers: await countRows('task_trigger', alpha.id), sent: queue.enqueued.length };
    const cases: Array<[Promise<{ status: number; body: { error: { code: string } } }>, number, string]> = [
      [api.post('/api/autopilots', { name: 'x', agentId, instructions: 'y', schedule: '61 * * * *' }), 400, 'validation_failed'],
      [api.post('/api/autopilots', { name: 'x', agentId, instructions: 'y', schedule: '* * * *' }), 400, 'validation_failed'],
      [api.post('/api/autopilots', { name: 'x', agentId, instructions: 'y', mode: 'sometimes' }), 400, 'validation_failed'],
      [api.post('/api/autopilots', { name: 'x', agentId, instructions: ' ' }), 400, 'validation_failed'],
      [api.post('/api/autopilots', { name: 'x', agentId, instructions: 'y', extra: 1 }), 400, 'validation_failed'],
      [api.post('/api/autopilots', { name: 'x', agentId: 'nope', instructions: 'y' }), 400, 'validation_failed'],
      [api.post('/api/autopilots', { name: 'x', agentId: archivedId, instructions: 'y' }), 409, 'agent_archived'],
      [api.post('/api/autopilots', { name: 'Kept', agentId, instructions: 'y' }), 409, 'autopilot_name_taken'],
      [api.patch(`/api/autopilots/${kept.body.id}`, {}), 400, 'validation_failed'],
      [api.patch(`/api/autopilots/${kept.body.id}`, { instructions: 'changed', schedule: 'every day' }), 400, 'validation_failed'],
      [api.patch(`/api/autopilots/${kept.body.id}`, { instructions: 'changed', agentId: archivedId }), 409, 'agent_archived'],
      [api.patch('/api/autopilots/nope', { name: 'y' }), 404, 'not_found'],
      [api.post(`/api/autopilots/${kept.body.id}/run`, { payload: 1, extra: true }), 400, 'validation_failed'],
      [api.post(`/api/autopilots/${kept.body.id}/run`, { payload: 'x'.repeat(70_000) }), 413, 'payload_too_large'],
      [api.post(`/api/autopilots/${kept.body.id}/run`, {}, { 'idempotency-key': 'has spaces' }), 400, 'validation_failed'],
      [api.post('/api/autopilots/nope/run', {}), 404, 'not_found'],
    ];
    for (const [request, status, code] of cases) {
      const response = await request;
      expect({ status: response.status, code: response.body.error.code }).toEqual({ status, code });
    }
    expect((await api.get(`/api/autopilots/${kept.body.id}`)).body.instructions).toBe('Stay as you are');
    expect({ autopilots: await countRows('autopilot', alpha.id), triggers: await countRows('task_trigger', alpha.id), sent: queue.enqueued.length }).toEqual(before);
  });

  it('manual run: one task with the autopilot source and a prompt of instructions + payload; a retry with the same Idempotency-Key repeats it', async () => {
    const api = kit.as(alpha.token);
    const autopilot = (await api.post('/api/autopilots', { name: 'Release notes', agentId, instructions: 'Write the release notes' })).body;
    const run = await api.post(`/api/autopilots/${autopilot.id}/run`, { payload: { version: '1.4.0' } }, { 'idempotency-key': 'release-1' });
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ autopilotId: autopilot.id, trigger: 'manual', issueId: null, repeated: false });
    const [sent, ...more] = sentFor(autopilot.id);
    expect(more).toEqual([]);
    expect(sent!.payload).toMatchObject({ workspaceId: alpha.id, agentId, source: { kind: 'autopilot', autopilotId: autopilot.id, trigger: 'manual' }, priority: 0, forceFreshSession: false });
    expect(sent!.payload.prompt).toContain('# Autopilot: Release notes');
    expect(sent!.payload.prompt).toContain('## Instructions\nWrite the release notes');
    expect(sent!.payload.prompt).toContain('## Payload\n```json\n{\n  "version": "1.4.0"\n}\n```');
    expect((await api.get(`/api/tasks/${run.body.taskId}`)).body.source).toEqual({ kind: 'autopilot', autopilotId: autopilot.id, trigger: 'manual' });

    const again = await api.post(`/api/autopilots/${autopilot.id}/run`, { payload: { version: 'other' } }, { 'idempotency-key': 'release-1' });
    expect(again.body).toMatchObject({ taskId: run.body.taskId, repeated: true });
    expect(sentFor(autopilot.id)).toHaveLength(1);

    // Without a key every run is its own; a queue outage keeps the firing, the retry with its key sends it.
    expect((await api.post(`/api/autopilots/${autopilot.id}/run`)).status).toBe(201);
    queue.refusal = UNAVAILABLE;
    const refused = await api.post(`/api/autopilots/${autopilot.id}/run`, {}, { 'idempotency-key': 'release-2' });
    expect(refused.status).toBe(503);
    expect(refused.body.error.details.saved.kind).toBe('autopilot_firing');
    queue.refusal = undefined;
    const resent = await api.post(`/api/autopilots/${autopilot.id}/run`, {}, { 'idempotency-key': 'release-2' });
    expect(resent.body).toMatchObject({ repeated: true });
    expect(new Set(sentFor(autopilot.id).map((command) => command.requestId)).size).toBe(3);
  });

  it('webhook: the right secret makes one task with the body as payload; a wrong, missing or rotated secret is 401 and writes nothing', async () => {
    const api = kit.as(alpha.token);
    const created: { id: string; webhookSecret: string } = (await api.post('/api/autopilots', { name: 'On deploy', agentId, instructions: 'Check the deploy' })).body;
    const secret = created.webhookSecret;
    const before = { triggers: await countRows('task_trigger', alpha.id), sent: queue.enqueued.length };
    for (const [id, headers] of [
      [created.id, { 'x-switchyard-autopilot-secret': `${secret}x` }],
      [created.id, {}],
      [created.id, { authorization: `Bearer ${alpha.token}` }],
      ['nope', { 'x-switchyard-autopilot-secret': secret }],
      [created.id, { 'x-switchyard-autopilot-secret': `${secret}x`, 'idempotency-key': 'has spaces' }],
    ] as const) {
      const response = await webhook(id, { ref: 'main' }, headers);
      expect({ status: response.status, code: response.body.error.code }).toEqual({ status: 401, code: 'unauthenticated' });
    }
    expect({ triggers: await countRows('task_trigger', alpha.id), sent: queue.enqueued.length }).toEqual(before);

    const fired = await webhook(created.id, { ref: 'main', sha: 'abc123' }, { 'x-switchyard-autopilot-secret': secret, 'idempotency-key': 'deploy-77' });
    expect(fired.status).toBe(202);
    expect(fired.body).toMatchObject({ autopilotId: created.id, trigger: 'webhook', repeated: false });
    const [sent, ...more] = sentFor(created.id);
    expect(more).toEqual([]);
    expect(sent!.payload.source).toEqual({ kind: 'autopilot', autopilotId: created.id, trigger: 'webhook' });
    expect(sent!.payload.prompt).toContain('"sha": "abc123"');
    expect((await webhook(created.id, { ref: 'main' }, { 'x-switchyard-autopilot-secret': secret, 'idempotency-key': 'deploy-77' })).body.taskId).toBe(fired.body.taskId);
    expect(sentFor(created.id)).toHaveLength(1);
    expect((await webhook(created.id, { big: 'x'.repeat(70_000) }, { 'x-switchyard-autopilot-secret': secret })).status).toBe(413);

    expect((await api.patch(`/api/autopilots/${created.id}`, { enabled: false })).status).toBe(200);
    expect((await webhook(created.id, {}, { 'x-switchyard-autopilot-secret': secret })).body.error.code).toBe('autopilot_disabled');
    expect((await api.patch(`/api/autopilots/${created.id}`, { enabled: true })).status).toBe(200);

    const rotated = await api.post(`/api/autopilots/${created.id}/webhook-secret`);
    expect(rotated.status).toBe(201);
    expect((await webhook(created.id, {}, { 'x-switchyard-autopilot-secret': secret })).status).toBe(401);
    const newSecret: string = rotated.body.webhookSecret;
    expect((await webhook(created.id, {}, { 'x-switchyard-autopilot-secret': newSecret })).status).toBe(202);
    expect(sentFor(created.id)).toHaveLength(2);
  });

  it('webhook: form fields are a payload too, as before; a body of any other type is 415 and fires nothing', async () => {
    const api = kit.as(alpha.token);
    const created: { id: string; webhookSecret: string } = (await api.post('/api/autopilots', { name: 'On alert', agentId, instructions: 'Look at the alert' })).body;
    const headers = (contentType: string): Record<string, string> => ({ 'x-switchyard-autopilot-secret': created.webhookSecret, 'content-type': contentType });
    const form = await webhook(created.id, 'alert=disk_full&host=db-1', headers('application/x-www-form-urlencoded'));
    expect(form.status).toBe(202);
    expect(sentFor(created.id)[0]!.payload.prompt).toContain('"host": "db-1"');
    const typed = await webhook(created.id, JSON.stringify({ alert: 'cpu' }), headers('application/vnd.alerts+json; charset=utf-8'));
    expect(typed.status).toBe(202);
    expect(sentFor(created.id)[1]!.payload.prompt).toContain('"alert": "cpu"');

    const refused = await webhook(created.id, JSON.stringify({ alert: 'cpu' }), headers('text/plain'));
    expect(refused.status).toBe(415);
    expect(refused.body.error).toMatchObject({ code: 'unsupported_media_type', details: { accepted: ['application/json (or a +json type)', 'application/x-www-form-urlencoded'] } });
    expect(sentFor(created.id)).toHaveLength(2);
    // A bodiless webhook still fires, with no payload.
    expect((await kit.request('POST', `/api/autopilots/${created.id}/webhook`, { headers: { 'x-switchyard-autopilot-secret': created.webhookSecret } })).status).toBe(202);
    expect(sentFor(created.id)).toHaveLength(3);
  });

  it('create_issue mode: the firing creates an issue assigned to the agent, whose assignment makes the task', async () => {
    const api = kit.as(alpha.token);
    const autopilot = (await api.post('/api/autopilots', { name: 'Weekly audit', agentId, instructions: 'Audit the dependencies', mode: 'create_issue' })).body;
    const run = await api.post(`/api/autopilots/${autopilot.id}/run`, { payload: { scope: 'npm' } });
    expect(run.status).toBe(201);
    expect(run.body.issueId).toEqual(expect.any(String));
    const issue = (await api.get(`/api/issues/${run.body.issueId}`)).body;
    expect(issue).toMatchObject({ assigneeAgentId: agentId, status: 'todo' });
    expect(issue.title).toMatch(/^Weekly audit — \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect(issue.description).toContain('Audit the dependencies');
    expect(sentFor(autopilot.id)).toEqual([]);
    const sent = queue.enqueued.filter((command) => command.payload.source.kind === 'issue' && command.payload.source.issueId === issue.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.payload.source).toEqual({ kind: 'issue', issueId: issue.id, trigger: 'assignment', commentId: null });
    expect(sent[0]!.payload.prompt).toContain('# Issue: Weekly audit');
    expect(sent[0]!.payload.prompt).toContain('"scope": "npm"');
    expect(run.body.taskId).toBe((await kit.query<{ task_id: string }>('select task_id from task_trigger where issue_id = $1', [issue.id]))[0]!.task_id);
  });
});
