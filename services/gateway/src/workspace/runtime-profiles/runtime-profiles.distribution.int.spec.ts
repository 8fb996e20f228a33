import { KEY_VALUE_CATALOG, workspaceRuntimeProfilesSchema, type WorkspaceRuntimeProfiles } from '@switchyard/contracts';
import { watchKeyValue, type KeyValueWatch } from '@switchyard/messaging';
import { GatewayTestKit, type TestWorkspace } from '../../gateway-test.spec-helper';

/** Every value a workspace's key takes, and a way to wait for one. */
class KeyFollower {
  readonly values: WorkspaceRuntimeProfiles[] = [];
  private readonly waiters: Array<{ matches: (value: WorkspaceRuntimeProfiles) => boolean; resolve: (value: WorkspaceRuntimeProfiles) => void }> = [];
  private watch: KeyValueWatch | undefined;

  async start(kit: GatewayTestKit, workspaceId: string): Promise<void> {
    this.watch = await watchKeyValue(kit.messaging, {
      bucket: KEY_VALUE_CATALOG.RUNTIME_PROFILES.name,
      key: workspaceId,
      onChange: (change) => {
        if (change.kind !== 'value') return;
        const value = workspaceRuntimeProfilesSchema.parse(change.value);
        this.values.push(value);
        for (const waiter of [...this.waiters]) {
          if (!waiter.matches(value)) continue;
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(value);
        }
      },
    });
  }

  /** The first value (seen or to come) that matches. */
  next(matches: (value: WorkspaceRuntimeProfiles) => boolean): Promise<WorkspaceRuntimeProfiles> {
    const seen = this.values.find(matches);
    return seen ? Promise.resolve(seen) : new Promise((resolve) => this.waiters.push({ matches, resolve }));
  }

  stop(): void {
    this.watch?.stop();
  }
}

describe('runtime profiles reach the bus for the workspace’s daemons (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;
  const alphaKey = new KeyFollower();
  const betaKey = new KeyFollower();

  beforeAll(async () => {
    kit = await GatewayTestKit.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
    await alphaKey.start(kit, alpha.id);
    await betaKey.start(kit, beta.id);
  });
  afterAll(async () => {
    alphaKey.stop();
    betaKey.stop();
    await kit?.stop();
  });

  const kimi = { displayName: 'Kimi over ACP', protocolFamily: 'acp', commandName: 'kimi', fixedArgs: ['acp'] };

  it('puts the whole enabled list under the workspace’s key after a create, a change and a delete', async () => {
    const created = await kit.as(alpha.token).post('/api/runtime-profiles', kimi);
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    const afterCreate = await alphaKey.next((value) => value.profiles.some((profile) => profile.profileId === id));
    expect(afterCreate).toEqual({ schemaVersion: 1, workspaceId: alpha.id, profiles: [{ profileId: id, ...kimi }] });

    expect((await kit.as(alpha.token).patch(`/api/runtime-profiles/${id}`, { fixedArgs: ['acp', '--yolo'] })).status).toBe(200);
    const afterChange = await alphaKey.next((value) => value.profiles.some((profile) => profile.fixedArgs.includes('--yolo')));
    expect(afterChange.profiles).toEqual([{ profileId: id, ...kimi, fixedArgs: ['acp', '--yolo'] }]);

    // A disabled profile is not offered to daemons.
    expect((await kit.as(alpha.token).patch(`/api/runtime-profiles/${id}`, { enabled: false })).status).toBe(200);
    await expect(alphaKey.next((value) => value.profiles.length === 0)).resolves.toMatchObject({ workspaceId: alpha.id, profiles: [] });

    const beforeEnable = alphaKey.values.length;
    expect((await kit.as(alpha.token).patch(`/api/runtime-profiles/${id}`, { enabled: true })).status).toBe(200);
    await expect(alphaKey.next((value) => alphaKey.values.indexOf(value) >= beforeEnable)).resolves.toMatchObject({ profiles: [{ profileId: id }] });
    const beforeDelete = alphaKey.values.length;
    expect((await kit.as(alpha.token).delete(`/api/runtime-profiles/${id}`)).status).toBe(204);
    const afterDelete = await alphaKey.next((value) => alphaKey.values.indexOf(value) >= beforeDelete);
    expect(afterDelete.profiles).toEqual([]);
  });

  it('keeps each workspace under its own key', async () => {
    const created = await kit.as(beta.token).post('/api/runtime-profiles', { ...kimi, displayName: 'Beta only' });
    expect(created.status).toBe(201);

    const betaValue = await betaKey.next((value) => value.profiles.some((profile) => profile.displayName === 'Beta only'));
    expect(betaValue.workspaceId).toBe(beta.id);
    expect(alphaKey.values.flatMap((value) => value.profiles).map((profile) => profile.displayName)).not.toContain('Beta only');
  });

  it('puts nothing for a refused change', async () => {
    const before = betaKey.values.length;
    const refused = await kit.as(beta.token).post('/api/runtime-profiles', { ...kimi, displayName: 'Bad', commandName: '/bin/sh' });
    expect(refused.status).toBe(400);
    // A later accepted change is the next value the key takes: nothing came in between.
    expect((await kit.as(beta.token).post('/api/runtime-profiles', { ...kimi, displayName: 'Next' })).status).toBe(201);
    const next = await betaKey.next((value) => value.profiles.some((profile) => profile.displayName === 'Next'));
    expect(betaKey.values.indexOf(next)).toBe(before);
  });
});
