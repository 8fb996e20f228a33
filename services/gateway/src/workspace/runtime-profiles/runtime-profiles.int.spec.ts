import { PROTOCOL_FAMILIES } from '@switchyard/contracts';
import { GatewayTestKit, pluck, type TestWorkspace } from '../../gateway-test.spec-helper';

describe('runtime profiles API (real NATS + Postgres)', () => {
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

  const kimi = { displayName: 'Kimi over ACP', protocolFamily: 'acp', commandName: 'kimi', fixedArgs: ['acp'] };

  it('creates, reads, lists, changes and deletes a profile', async () => {
    const created = await kit.as(alpha.token).post('/api/runtime-profiles', { ...kimi, description: 'Moonshot CLI' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      ...kimi,
      description: 'Moonshot CLI',
      enabled: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id as string;
    expect((await kit.as(alpha.token).get(`/api/runtime-profiles/${id}`)).body).toEqual(created.body);
    expect((await kit.as(alpha.token).get('/api/runtime-profiles')).body.profiles).toEqual([created.body]);

    const changed = await kit.as(alpha.token).patch(`/api/runtime-profiles/${id}`, { fixedArgs: ['acp', '--verbose'], enabled: false, description: null });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ ...kimi, fixedArgs: ['acp', '--verbose'], enabled: false, description: null });

    expect((await kit.as(alpha.token).delete(`/api/runtime-profiles/${id}`)).status).toBe(204);
    expect((await kit.as(alpha.token).get(`/api/runtime-profiles/${id}`)).status).toBe(404);
    expect((await kit.as(alpha.token).delete(`/api/runtime-profiles/${id}`)).status).toBe(404);
  });

  it('refuses an unknown protocol family with 400 unknown_protocol_family listing the accepted ones, writing nothing', async () => {
    const before = await kit.count('runtime_profile');
    const response = await kit.as(alpha.token).post('/api/runtime-profiles', { ...kimi, displayName: 'Made up', protocolFamily: 'telepathy' });
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({ code: 'unknown_protocol_family', message: expect.stringContaining('telepathy'), details: { accepted: [...PROTOCOL_FAMILIES] } });
    expect(await kit.count('runtime_profile')).toBe(before);
  });

  it('refuses an unknown family on change too, leaving the profile as it was', async () => {
    const created = await kit.as(alpha.token).post('/api/runtime-profiles', { ...kimi, displayName: 'Kept' });
    const response = await kit.as(alpha.token).patch(`/api/runtime-profiles/${created.body.id as string}`, { protocolFamily: 'smoke-signals' });
    expect(response.body.error.code).toBe('unknown_protocol_family');
    expect((await kit.as(alpha.token).get(`/api/runtime-profiles/${created.body.id as string}`)).body).toEqual(created.body);
  });

  it('refuses bad input with 400 validation_failed and writes nothing', async () => {
    const before = await kit.count('runtime_profile');
    const bad = [
      { ...kimi, displayName: 'Path', commandName: '/usr/bin/kimi' },
      { ...kimi, displayName: 'Shell', commandName: 'kimi; rm -rf /' },
      { ...kimi, displayName: '' },
      { ...kimi, displayName: 'Args', fixedArgs: Array.from({ length: 51 }, () => 'x') },
      { ...kimi, displayName: 'Extra', shell: true },
      { displayName: 'No family', commandName: 'kimi' },
    ];
    for (const body of bad) {
      const response = await kit.as(alpha.token).post('/api/runtime-profiles', body);
      expect({ body: JSON.stringify(body), status: response.status, code: response.body.error?.code }).toEqual({ body: JSON.stringify(body), status: 400, code: 'validation_failed' });
    }
    const id = (await kit.as(alpha.token).post('/api/runtime-profiles', { ...kimi, displayName: 'Patch target' })).body.id as string;
    expect((await kit.as(alpha.token).patch(`/api/runtime-profiles/${id}`, {})).body.error.code).toBe('validation_failed');
    expect(await kit.count('runtime_profile')).toBe(before + 1);
  });

  it('refuses a second profile with the same display name in a workspace with 409, but not in another workspace', async () => {
    expect((await kit.as(alpha.token).post('/api/runtime-profiles', { ...kimi, displayName: 'Twin' })).status).toBe(201);
    const twin = await kit.as(alpha.token).post('/api/runtime-profiles', { ...kimi, displayName: 'Twin' });
    expect(twin.status).toBe(409);
    expect(twin.body.error.code).toBe('runtime_profile_name_taken');
    expect((await kit.as(beta.token).post('/api/runtime-profiles', { ...kimi, displayName: 'Twin' })).status).toBe(201);
  });

  it('keeps workspaces apart: B neither lists, reads, changes nor deletes A’s profiles', async () => {
    const alphaProfile = (await kit.as(alpha.token).post('/api/runtime-profiles', { ...kimi, displayName: 'Alpha only' })).body;
    const path = `/api/runtime-profiles/${alphaProfile.id as string}`;
    expect(pluck((await kit.as(beta.token).get('/api/runtime-profiles')).body.profiles, 'id')).not.toContain(alphaProfile.id);
    expect((await kit.as(beta.token).get(path)).status).toBe(404);
    expect((await kit.as(beta.token).patch(path, { enabled: false })).status).toBe(404);
    expect((await kit.as(beta.token).delete(path)).status).toBe(404);
    expect((await kit.as(alpha.token).get(path)).body).toEqual(alphaProfile);
  });

  describe('the database constraint on runtime_profile.protocol_family', () => {
    it('names exactly PROTOCOL_FAMILIES', async () => {
      const [constraint] = await kit.query<{ definition: string }>(
        "select pg_get_constraintdef(oid) as definition from pg_constraint where conname = 'runtime_profile_protocol_family_check'",
      );
      const listed = [...(constraint?.definition ?? '').matchAll(/'([^']+)'::text/g)].map((match) => match[1]);
      expect(listed.sort()).toEqual([...PROTOCOL_FAMILIES].sort());
    });

    it('accepts every family of PROTOCOL_FAMILIES and refuses any other', async () => {
      for (const family of PROTOCOL_FAMILIES) {
        await kit.query(
          `insert into runtime_profile (id, workspace_id, display_name, protocol_family, command_name) values ($1, $2, $3, $4, 'cli')`,
          [`constraint-${family}`, alpha.id, `Constraint ${family}`, family],
        );
      }
      await expect(
        kit.query(`insert into runtime_profile (id, workspace_id, display_name, protocol_family, command_name) values ('constraint-x', $1, 'Constraint x', 'telepathy', 'cli')`, [
          alpha.id,
        ]),
      ).rejects.toMatchObject({ code: '23514', constraint: 'runtime_profile_protocol_family_check' });
    });
  });
});
