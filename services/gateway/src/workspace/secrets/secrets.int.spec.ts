import { generateSecretKey, parseSecretKeys, secretKeyring } from '@switchyard/persistence';
import { startServiceForTest } from '@switchyard/testing';
import { gatewayApp } from '../../gateway.app';
import { GatewayTestKit, findBy, pluck, type TestWorkspace } from '../../gateway-test.spec-helper';
import { FakeQueue } from '../tasks/fake-queue.spec-helper';

describe('workspace secrets API (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;
  const VALUE = 'ghp_secrets-int-spec-value-0123456789';

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000' });
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  const sealedValueOf = async (id: string): Promise<string> => (await kit.query<{ sealed_value: string }>('select sealed_value from workspace_secret where id = $1', [id]))[0]!.sealed_value;

  it('creates, reads, lists, changes and deletes a secret, never answering its value', async () => {
    const api = kit.as(alpha.token);
    const created = await api.post('/api/secrets', { name: 'github-token', value: VALUE, description: 'CI bot' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'github-token',
      description: 'CI bot',
      valueSetAt: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id as string;
    expect((await api.get(`/api/secrets/${id}`)).body).toEqual(created.body);
    expect((await api.get('/api/secrets')).body.secrets).toEqual([created.body]);

    const described = await api.patch(`/api/secrets/${id}`, { description: null });
    expect(described.body).toMatchObject({ description: null, valueSetAt: created.body.valueSetAt });
    const rotated = await api.patch(`/api/secrets/${id}`, { value: `${VALUE}-rotated` });
    expect(rotated.status).toBe(200);
    expect(Date.parse(String(rotated.body.valueSetAt))).toBeGreaterThanOrEqual(Date.parse(String(created.body.valueSetAt)));
    expect(kit.secretKeyring.open('workspace secret value', await sealedValueOf(id))).toBe(`${VALUE}-rotated`);

    for (const response of [created, described, rotated, await api.get('/api/secrets')]) expect(JSON.stringify(response.body)).not.toContain(VALUE);

    expect((await api.delete(`/api/secrets/${id}`)).status).toBe(204);
    expect((await api.get(`/api/secrets/${id}`)).status).toBe(404);
    expect((await api.delete(`/api/secrets/${id}`)).status).toBe(404);
  });

  it('keeps the value sealed at rest: a dump of the table holds no clear value, and it opens for no other purpose', async () => {
    const created = await kit.as(alpha.token).post('/api/secrets', { name: 'sealed-one', value: VALUE });
    const [row] = await kit.query<Record<string, unknown>>('select * from workspace_secret where id = $1', [created.body.id]);
    expect(JSON.stringify(row)).not.toContain(VALUE);
    expect(String(row!['sealed_value'])).toMatch(/^sealed:v2:/);
    expect(() => kit.secretKeyring.open('agent env value', String(row!['sealed_value']))).toThrow(/does not open/);
    await kit.as(alpha.token).delete(`/api/secrets/${created.body.id as string}`);
  });

  it('keeps names unique per workspace: 409 secret_name_taken in the same one, fine in another', async () => {
    await kit.as(alpha.token).post('/api/secrets', { name: 'npm-token', value: 'one' });
    const again = await kit.as(alpha.token).post('/api/secrets', { name: 'npm-token', value: 'two' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('secret_name_taken');
    expect((await kit.as(beta.token).post('/api/secrets', { name: 'npm-token', value: 'three' })).status).toBe(201);
    // Another workspace's secret is a 404, never a 403.
    const alphaSecret = findBy((await kit.as(alpha.token).get('/api/secrets')).body.secrets, 'name', 'npm-token');
    expect((await kit.as(beta.token).get(`/api/secrets/${alphaSecret.id as string}`)).status).toBe(404);
    expect((await kit.as(beta.token).delete(`/api/secrets/${alphaSecret.id as string}`)).status).toBe(404);
  });

  it('refuses bad input with 400 validation_failed and writes nothing; the name cannot change', async () => {
    const before = await kit.count('workspace_secret');
    for (const body of [
      { name: '-leading-dash', value: 'x' },
      { name: 'has space', value: 'x' },
      { name: 'x'.repeat(65), value: 'x' },
      { name: 'empty-value', value: '' },
      { name: 'nul-value', value: 'a\u0000b' },
      { name: 'no-value' },
      { name: 'extra', value: 'x', kind: 'https_token' },
    ]) {
      const response = await kit.as(alpha.token).post('/api/secrets', body);
      expect({ body, status: response.status, code: response.body.error?.code }).toEqual({ body, status: 400, code: 'validation_failed' });
    }
    expect(await kit.count('workspace_secret')).toBe(before);
    const kept = await kit.as(alpha.token).post('/api/secrets', { name: 'kept-name', value: 'x' });
    const renamed = await kit.as(alpha.token).patch(`/api/secrets/${kept.body.id as string}`, { name: 'other-name' });
    expect(renamed.status).toBe(400);
    expect((await kit.as(alpha.token).patch(`/api/secrets/${kept.body.id as string}`, {})).status).toBe(400);
    expect((await kit.as(alpha.token).get(`/api/secrets/${kept.body.id as string}`)).body.name).toBe('kept-name');
  });

  it('refuses to delete a secret a repository’s credential uses (409 secret_in_use naming it), and deletes it once free', async () => {
    const api = kit.as(alpha.token);
    const secret = await api.post('/api/secrets', { name: 'deploy-key', value: VALUE });
    const project = await api.post('/api/projects', { name: 'Secrets project' });
    const repository = await api.post(`/api/projects/${project.body.id as string}/repositories`, {
      name: 'uses-secret',
      url: 'https://git.example.com/team/app.git',
      credential: { username: 'x-access-token', secretName: 'deploy-key' },
    });
    expect(repository.status).toBe(201);
    const refused = await api.delete(`/api/secrets/${secret.body.id as string}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({ code: 'secret_in_use', message: expect.stringContaining('uses-secret'), details: { repositories: ['uses-secret'] } });
    expect((await api.get(`/api/secrets/${secret.body.id as string}`)).status).toBe(200);

    expect((await api.patch(`/api/projects/${project.body.id as string}/repositories/${repository.body.id as string}`, { credential: null })).status).toBe(200);
    expect((await api.delete(`/api/secrets/${secret.body.id as string}`)).status).toBe(204);
  });

  it('closes every secret route to task tokens (403 task_token_forbidden)', async () => {
    const token = queue.issueTaskToken({ taskId: 'task-secrets', workspaceId: alpha.id, agentId: 'agent-secrets', issueId: 'issue-secrets' });
    const [someSecret] = pluck((await kit.as(alpha.token).get('/api/secrets')).body.secrets, 'id') as string[];
    for (const [method, path, body] of [
      ['GET', '/api/secrets', undefined],
      ['POST', '/api/secrets', { name: 'from-agent', value: 'x' }],
      ['GET', `/api/secrets/${someSecret!}`, undefined],
      ['PATCH', `/api/secrets/${someSecret!}`, { value: 'y' }],
      ['DELETE', `/api/secrets/${someSecret!}`, undefined],
    ] as const) {
      const response = await kit.request(method, path, { token, body });
      expect({ method, path, status: response.status, code: response.body?.error?.code }).toEqual({ method, path, status: 403, code: 'task_token_forbidden' });
    }
  });

  // A second gateway boots and stops in here. Its stop used to hang now and then (a consumer stopped
  // while its first pull was being set up, fixed in the messaging library).
  it('seals every value again when a gateway boots with a new first key, so the old key can go', async () => {
    const created = await kit.as(alpha.token).post('/api/secrets', { name: 'rotated-key', value: VALUE });
    const newKey = generateSecretKey();
    const replica = await startServiceForTest(gatewayApp, { database: true, replicaOf: kit.gateway, env: { GATEWAY_SECRET_KEYS: `${newKey},${kit.secretKeyringText}` } });
    try {
      // Opens with the new key alone.
      expect(secretKeyring(parseSecretKeys(newKey)).open('workspace secret value', await sealedValueOf(created.body.id as string))).toBe(VALUE);
    } finally {
      await replica.stop();
    }
  });
});
