import { GatewayTestKit, pluck } from '../../gateway-test.spec-helper';

describe('workspaces API (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;

  beforeAll(async () => {
    kit = await GatewayTestKit.start();
  });
  afterAll(async () => {
    await kit?.stop();
  });

  it('answers GET /api/workspace with the workspace of the token', async () => {
    const response = await kit.as(kit.bootstrapToken).get('/api/workspace');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: 'default', name: 'Default', queuedTaskTtlSeconds: null, createdAt: expect.any(String) });
  });

  it('creates a workspace with a first token that works, shown once', async () => {
    const created = await kit.as(kit.bootstrapToken).post('/api/workspaces', { name: 'Platform team', id: 'platform' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      workspace: { id: 'platform', name: 'Platform team', queuedTaskTtlSeconds: null, createdAt: expect.any(String) },
      token: { id: expect.any(String), name: 'first token of Platform team', token: expect.stringMatching(/^sy_[\w-]{43}$/), createdAt: expect.any(String), lastUsedAt: null, revokedAt: null },
    });
    const token = created.body.token.token as string;
    expect((await kit.as(token).get('/api/workspace')).body).toMatchObject({ id: 'platform', name: 'Platform team' });
    // Only the hash is at rest.
    const stored = await kit.query<{ token_hash: string }>('select token_hash from api_token where workspace_id = $1', ['platform']);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('generates an id when none is given', async () => {
    const created = await kit.as(kit.bootstrapToken).post('/api/workspaces', { name: 'No id' });
    expect(created.status).toBe(201);
    expect(created.body.workspace.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses an id in use with 409 workspace_exists and writes nothing', async () => {
    const tokensBefore = await kit.count('api_token');
    const response = await kit.as(kit.bootstrapToken).post('/api/workspaces', { name: 'Again', id: 'default' });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ error: { code: 'workspace_exists', message: 'workspace default already exists' } });
    expect(await kit.count('api_token')).toBe(tokensBefore);
  });

  it('refuses bad input with 400 and every problem listed, writing nothing', async () => {
    const workspacesBefore = await kit.count('workspace');
    const response = await kit.as(kit.bootstrapToken).post('/api/workspaces', { name: '', id: 'Has Spaces', color: 'red' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
    expect(pluck(response.body.error.details.issues, 'path').sort()).toEqual(['(root)', 'id', 'name']);
    expect(await kit.count('workspace')).toBe(workspacesBefore);
  });

  it('answers malformed JSON with 400 in the API error shape', async () => {
    const response = await kit.request('POST', '/api/workspaces', {
      token: kit.bootstrapToken,
      body: '{"name": ',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('bad_request');
  });

  it('refuses requests without a valid token, an unknown token included', async () => {
    expect((await kit.request('GET', '/api/workspace')).status).toBe(401);
    const unknown = await kit.request('GET', '/api/workspace', { token: 'sy_unknownunknownunknownunknown' });
    expect(unknown).toEqual({ status: 401, body: { error: { code: 'unauthenticated', message: expect.any(String) } } });
    expect((await kit.request('POST', '/api/workspaces', { token: 'sy_nope', body: { name: 'x' } })).status).toBe(401);
  });

  it('answers an unknown route with 404 not_found', async () => {
    const response = await kit.as(kit.bootstrapToken).get('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });
});
