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

  it('creates a workspace with an id of the server’s own, owned by its creator, with a first personal token that works, shown once', async () => {
    const created = await kit.as(kit.bootstrapToken).post('/api/workspaces', { name: 'Platform team' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      workspace: { id: expect.stringMatching(/^ws-[0-9a-f]{20}$/), name: 'Platform team', queuedTaskTtlSeconds: null, createdAt: expect.any(String) },
      role: 'owner',
      token: {
        id: expect.any(String),
        name: 'first token of Platform team',
        userId: expect.any(String),
        scopes: null,
        token: expect.stringMatching(/^sy_[\w-]{43}$/),
        createdAt: expect.any(String),
        expiresAt: null,
        lastUsedAt: null,
        revokedAt: null,
      },
    });
    const workspaceId = created.body.workspace.id as string;
    const token = created.body.token.token as string;
    expect((await kit.as(token).get('/api/workspace')).body).toMatchObject({ id: workspaceId, name: 'Platform team' });
    // The creator (the bootstrap token's account) owns it.
    const members = await kit.as(token).get('/api/members');
    expect(members.body.members).toEqual([expect.objectContaining({ userId: created.body.token.userId, email: 'owner@switchyard.local', role: 'owner' })]);
    // Only the hash is at rest.
    const stored = await kit.query<{ token_hash: string }>('select token_hash from api_token where workspace_id = $1', [workspaceId]);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('refuses an id the client chooses (ids daemons are configured with cannot be squatted) and writes nothing', async () => {
    const before = [await kit.count('workspace'), await kit.count('api_token')];
    const response = await kit.as(kit.bootstrapToken).post('/api/workspaces', { name: 'Again', id: 'default' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
    expect([await kit.count('workspace'), await kit.count('api_token')]).toEqual(before);
  });

  it('refuses bad input with 400 and every problem listed, writing nothing', async () => {
    const workspacesBefore = await kit.count('workspace');
    const response = await kit.as(kit.bootstrapToken).post('/api/workspaces', { name: '', color: 'red' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
    expect(pluck(response.body.error.details.issues, 'path').sort()).toEqual(['(root)', 'name']);
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
