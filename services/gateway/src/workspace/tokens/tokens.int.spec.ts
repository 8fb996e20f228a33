import { findBy, GatewayTestKit, pluck, type TestWorkspace } from '../../gateway-test.spec-helper';

describe('API tokens (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;

  beforeAll(async () => {
    kit = await GatewayTestKit.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
  });
  afterAll(async () => {
    await kit?.stop();
  });

  it('creates a token whose secret is returned once and works, and lists tokens without secrets', async () => {
    const created = await kit.as(alpha.token).post('/api/tokens', { name: 'ci' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'ci',
      userId: expect.any(String),
      scopes: null,
      token: expect.stringMatching(/^sy_/),
      createdAt: expect.any(String),
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
    });
    const secret = created.body.token as string;
    expect((await kit.as(secret).get('/api/workspace')).body.id).toBe(alpha.id);

    const listed = await kit.as(alpha.token).get('/api/tokens');
    expect(listed.status).toBe(200);
    expect(pluck(listed.body.tokens, 'name')).toEqual(['first token of Alpha', 'ci']);
    expect(findBy(listed.body.tokens, 'name', 'ci')).toEqual({
      id: created.body.id,
      name: 'ci',
      userId: created.body.userId,
      scopes: null,
      createdAt: expect.any(String),
      expiresAt: null,
      lastUsedAt: expect.any(String),
      revokedAt: null,
      current: false,
    });
    expect(findBy(listed.body.tokens, 'current', true).name).toBe('first token of Alpha');
    expect(JSON.stringify(listed.body)).not.toMatch(/sy_|token_hash|tokenHash/);
  });

  it('records last use to the minute: a request writes it only when it is older than that', async () => {
    const created = await kit.as(alpha.token).post('/api/tokens', { name: 'last use' });
    const secret = created.body.token as string;
    const lastUsed = async (): Promise<string> => (await kit.query<{ last_used_at: Date }>('select last_used_at from api_token where id = $1', [created.body.id]))[0]!.last_used_at.toISOString();
    const setLastUsed = (sql: string): Promise<unknown> => kit.query(`update api_token set last_used_at = ${sql} where id = $1`, [created.body.id]);

    await setLastUsed(`now() - interval '30 seconds'`);
    const recent = await lastUsed();
    expect((await kit.as(secret).get('/api/workspace')).status).toBe(200);
    expect(await lastUsed()).toBe(recent);

    await setLastUsed(`now() - interval '2 minutes'`);
    const stale = await lastUsed();
    expect((await kit.as(secret).get('/api/workspace')).status).toBe(200);
    expect(Date.parse(await lastUsed())).toBeGreaterThan(Date.parse(stale));
  });

  it('revokes a token: it stops working at once, stays listed with revokedAt, and revoking again is fine', async () => {
    const created = await kit.as(alpha.token).post('/api/tokens', { name: 'to revoke' });
    const id = created.body.id as string;
    expect((await kit.as(alpha.token).delete(`/api/tokens/${id}`)).status).toBe(204);
    expect((await kit.as(created.body.token as string).get('/api/workspace')).status).toBe(401);
    const listed = await kit.as(alpha.token).get('/api/tokens');
    const revoked = findBy(listed.body.tokens, 'id', id);
    expect(revoked.revokedAt).toEqual(expect.any(String));
    expect((await kit.as(alpha.token).delete(`/api/tokens/${id}`)).status).toBe(204);
    expect(findBy((await kit.as(alpha.token).get('/api/tokens')).body.tokens, 'id', id).revokedAt).toBe(revoked.revokedAt);
  });

  it('keeps workspaces apart: B neither lists nor revokes A’s tokens', async () => {
    const alphaToken = await kit.as(alpha.token).post('/api/tokens', { name: 'alpha only' });
    const betaList = await kit.as(beta.token).get('/api/tokens');
    expect(pluck(betaList.body.tokens, 'name')).toEqual(['first token of Beta']);

    const attempt = await kit.as(beta.token).delete(`/api/tokens/${alphaToken.body.id as string}`);
    expect(attempt.status).toBe(404);
    expect(attempt.body.error.code).toBe('not_found');
    expect((await kit.as(alphaToken.body.token as string).get('/api/workspace')).status).toBe(200);
  });

  it('refuses a bad name with 400 and writes nothing', async () => {
    const before = await kit.count('api_token');
    for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 'ok', scope: 'admin' }, { name: 'ok', scopes: ['everything'] }, ['not', 'an', 'object']]) {
      const response = await kit.as(alpha.token).post('/api/tokens', body);
      expect({ status: response.status, code: response.body.error?.code }).toEqual({ status: 400, code: 'validation_failed' });
    }
    expect(await kit.count('api_token')).toBe(before);
  });

  it('answers 404 for an unknown token id', async () => {
    expect((await kit.as(alpha.token).delete('/api/tokens/nope')).status).toBe(404);
  });
});
