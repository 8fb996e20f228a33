import { PROTOCOL_FAMILIES, createEvent, runtimeIdOf, subjects } from '@switchyard/contracts';
import { publish } from '@switchyard/messaging';
import { uniqueNamespace } from '@switchyard/testing';
import { GatewayTestKit, pluck, runtimeRegistration, waitUntil, type TestWorkspace } from '../../gateway-test.spec-helper';
import type { RawQueryRunner } from '../database/returning-rows';
import { projectRuntimeEvent, type RuntimeEvent } from './runtime-view.projection';

const secondsAgo = (seconds: number): Date => new Date(Date.now() - seconds * 1_000);

describe('runtimes API and the runtime view projection (real NATS + Postgres)', () => {
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

  const lastHeartbeatOf = async (runtimeId: string): Promise<string | null> =>
    (await kit.as(alpha.token).get(`/api/runtimes/${runtimeId}`)).body.lastHeartbeatAt as string | null;

  it('lists a registered runtime of the workspace, online', async () => {
    const registered = await kit.registerRuntime(alpha.id, { identity: 'codex', protocolFamily: 'codex-app-server', commandName: 'codex', provider: 'openai', version: '0.171.0' });
    const listed = await kit.as(alpha.token).get('/api/runtimes');
    expect(listed.status).toBe(200);
    expect(listed.body.runtimes).toContainEqual({
      runtimeId: registered.runtimeId,
      daemonId: 'daemon-test',
      identity: 'codex',
      provider: 'openai',
      version: '0.171.0',
      protocolFamily: 'codex-app-server',
      commandName: 'codex',
      profileId: null,
      capacity: 20,
      models: [],
      status: 'online',
      offlineReason: null,
      offlineSince: null,
      registeredAt: expect.any(String),
      lastHeartbeatAt: null,
      lastSeenAt: expect.any(String),
    });
    expect((await kit.as(alpha.token).get(`/api/runtimes/${registered.runtimeId}`)).body.runtimeId).toBe(registered.runtimeId);
  });

  it('shows the models a runtime listed, and replaces them with those of its next registration', async () => {
    const models = ['anthropic/claude-sonnet-4-5', 'openrouter/qwen/qwen3-coder:free', 'openai/gpt-5.1-codex'];
    const runtime = await kit.registerRuntime(alpha.id, { identity: 'opencode', protocolFamily: 'opencode-ndjson', commandName: 'opencode', provider: null, models });
    const read = await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`);
    expect(read.status).toBe(200);
    expect(read.body.models).toEqual(models);
    expect((await kit.as(alpha.token).get('/api/runtimes')).body.runtimes).toContainEqual(expect.objectContaining({ runtimeId: runtime.runtimeId, models }));

    await kit.publishRuntimeEvent('runtime.registered', { ...runtime, models: ['openai/gpt-5.1-codex'] });
    await kit.runtimeEventsProjected();
    expect((await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body.models).toEqual(['openai/gpt-5.1-codex']);
  });

  it('shows no models for a registration published before daemons listed them', async () => {
    const runtime = await kit.registerRuntime(alpha.id);
    expect((await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body.models).toEqual([]);

    // An older daemon's event has no `models` field at all.
    const { models: _models, ...earlierPayload } = { ...runtime, runtimeId: `${runtime.runtimeId}-earlier` };
    const envelope = createEvent({ type: 'runtime.registered', payload: { ...earlierPayload, models: [] } });
    const earlier = { ...envelope, payload: earlierPayload };
    await publish(kit.messaging, { subject: subjects.forEvent(envelope, earlierPayload.daemonId), data: earlier, messageId: envelope.eventId });
    await kit.runtimeEventsProjected();
    const read = await kit.as(alpha.token).get(`/api/runtimes/${earlierPayload.runtimeId}`);
    expect(read.status).toBe(200);
    expect(read.body.models).toEqual([]);
  });

  it('records heartbeats, goes offline on runtime.offline, and comes back with a new registration', async () => {
    const runtime = await kit.registerRuntime(alpha.id);
    await kit.publishRuntimeEvent('runtime.heartbeat', { daemonId: runtime.daemonId, runtimeId: runtime.runtimeId, activeTaskIds: [], freeSlots: 20 });
    await waitUntil(async () => (await lastHeartbeatOf(runtime.runtimeId)) !== null, 'the heartbeat is recorded');
    const beat = await lastHeartbeatOf(runtime.runtimeId);

    await kit.publishRuntimeEvent('runtime.offline', { daemonId: runtime.daemonId, runtimeId: runtime.runtimeId, reason: 'daemon_shutdown', lastHeartbeatAt: beat });
    await waitUntil(async () => (await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body.status === 'offline', 'the runtime is offline');
    expect((await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body).toMatchObject({ offlineReason: 'daemon_shutdown', offlineSince: expect.any(String) });
    expect(pluck((await kit.as(alpha.token).get('/api/runtimes?status=offline')).body.runtimes, 'runtimeId')).toContain(runtime.runtimeId);
    expect(pluck((await kit.as(alpha.token).get('/api/runtimes?status=online')).body.runtimes, 'runtimeId')).not.toContain(runtime.runtimeId);

    await kit.publishRuntimeEvent('runtime.registered', { ...runtime, version: '2.2.0' });
    await waitUntil(async () => (await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body.status === 'online', 'the runtime is back');
    expect((await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body).toMatchObject({ version: '2.2.0', offlineReason: null, offlineSince: null });
  });

  it('stamps runtime events with the time the server stored them, never the payload’s occurredAt', async () => {
    const publishedAfter = Date.now();
    const runtime = await kit.registerRuntime(alpha.id, {}, new Date('2100-01-01T00:00:00.000Z'));
    await kit.publishRuntimeEvent('runtime.heartbeat', { daemonId: runtime.daemonId, runtimeId: runtime.runtimeId, activeTaskIds: [], freeSlots: 20 }, secondsAgo(3_600));
    await waitUntil(async () => (await lastHeartbeatOf(runtime.runtimeId)) !== null, 'the heartbeat is recorded');

    const view = (await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body as { registeredAt: string; lastHeartbeatAt: string; status: string };
    // Both are the server's clock (this host's, give or take a little), and in publication order.
    expect(Math.abs(Date.parse(view.registeredAt) - publishedAfter)).toBeLessThan(60_000);
    expect(Date.parse(view.lastHeartbeatAt)).toBeGreaterThanOrEqual(Date.parse(view.registeredAt));
    expect(view.status).toBe('online');
  });

  it('never moves a runtime back in time: late registrations, heartbeats and notices are ignored', async () => {
    // Stored times out of order, as redeliveries and concurrent handlers may apply them.
    const runner: RawQueryRunner = { query: async <Row>(sql: string, parameters?: unknown[]) => (await kit.query(sql, parameters)) as Row };
    const registered = await kit.registerRuntime(alpha.id);
    const runtime = { ...registered, runtimeId: runtimeIdOf(registered.daemonId, uniqueNamespace('runtime')) };
    const project = (event: RuntimeEvent, storedAt: Date) => projectRuntimeEvent(runner, { event, storedAt });
    const heartbeat = (): RuntimeEvent => createEvent({ type: 'runtime.heartbeat', payload: { daemonId: runtime.daemonId, runtimeId: runtime.runtimeId, activeTaskIds: [], freeSlots: 1 } });
    await project(createEvent({ type: 'runtime.registered', payload: runtime }), secondsAgo(10));
    await project(createEvent({ type: 'runtime.offline', payload: { daemonId: runtime.daemonId, runtimeId: runtime.runtimeId, reason: 'not_detected', lastHeartbeatAt: null } }), secondsAgo(2));

    // Redelivered, from between the registration and the notice: a registration and a heartbeat.
    await expect(project(createEvent({ type: 'runtime.registered', payload: { ...runtime, version: '0.0.1' } }), secondsAgo(5))).resolves.toEqual({ kind: 'stale' });
    const heartbeatAt = secondsAgo(4);
    await expect(project(heartbeat(), heartbeatAt)).resolves.toEqual({ kind: 'applied' });

    // The heartbeat is a fact worth keeping, but it predates the notice: the runtime stays offline.
    expect((await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body).toMatchObject({
      status: 'offline',
      offlineReason: 'not_detected',
      version: runtime.version,
      lastHeartbeatAt: heartbeatAt.toISOString(),
    });

    // And an even older heartbeat, redelivered last, does not replace it.
    await expect(project(heartbeat(), secondsAgo(6))).resolves.toEqual({ kind: 'stale' });
    expect((await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body.lastHeartbeatAt).toBe(heartbeatAt.toISOString());
  });

  it('never moves or refreshes a runtime for another daemon, whatever occurredAt its forged events claim', async () => {
    const runtime = await kit.registerRuntime(alpha.id);
    const [before] = await kit.query('select * from runtime_view where runtime_id = $1', [runtime.runtimeId]);
    const farFuture = new Date('2100-01-01T00:00:00.000Z');
    // The intruder's own id is on the subject and in the payload, as NATS permissions force it to be;
    // the runtime id stays the owner's, under the owner's daemon id.
    const intruder = { ...runtime, daemonId: uniqueNamespace('daemon-intruder'), version: '6.6.6' };
    await kit.publishRuntimeEvent('runtime.registered', { ...intruder, workspaceId: beta.id }, farFuture);
    await kit.publishRuntimeEvent('runtime.registered', intruder, farFuture);
    await kit.publishRuntimeEvent('runtime.heartbeat', { daemonId: intruder.daemonId, runtimeId: runtime.runtimeId, activeTaskIds: [], freeSlots: 0 }, farFuture);
    await kit.publishRuntimeEvent('runtime.offline', { daemonId: intruder.daemonId, runtimeId: runtime.runtimeId, reason: 'daemon_shutdown', lastHeartbeatAt: null }, farFuture);
    // Acked, not retried: the backlog drains.
    await kit.runtimeEventsProjected();

    expect(await kit.query('select * from runtime_view where runtime_id = $1', [runtime.runtimeId])).toEqual([before]);
    expect(before).toMatchObject({ workspace_id: alpha.id, daemon_id: runtime.daemonId, version: runtime.version, status: 'online', last_heartbeat_at: null });
    expect((await kit.as(beta.token).get(`/api/runtimes/${runtime.runtimeId}`)).status).toBe(404);
  });

  it('a daemon registering a runtime id under another daemon’s id, before that daemon does, is ignored: the owner’s later registration is projected to the owner', async () => {
    const [bravo, charlie] = [await kit.workspace('Bravo'), await kit.workspace('Charlie')];
    const [daemonB, daemonC] = [uniqueNamespace('daemon-b'), uniqueNamespace('daemon-c')];
    // C's runtime id follows from C's daemon id and a CLI's name: B can guess it before C comes online.
    const runtimeId = `${daemonC}-claude-code`;
    await kit.publishRuntimeEvent('runtime.registered', runtimeRegistration(bravo.id, { daemonId: daemonB, runtimeId }));
    // Acked, not retried: the backlog drains.
    await kit.runtimeEventsProjected();
    expect(await kit.query('select runtime_id from runtime_view where runtime_id = $1', [runtimeId])).toEqual([]);
    expect(pluck((await kit.as(bravo.token).get('/api/runtimes')).body.runtimes, 'runtimeId')).not.toContain(runtimeId);
    expect((await kit.as(bravo.token).get(`/api/runtimes/${runtimeId}`)).status).toBe(404);

    await kit.registerRuntime(charlie.id, { daemonId: daemonC, runtimeId });
    expect(await kit.query('select workspace_id, daemon_id from runtime_view where runtime_id = $1', [runtimeId])).toEqual([{ workspace_id: charlie.id, daemon_id: daemonC }]);
    expect(pluck((await kit.as(charlie.token).get('/api/runtimes')).body.runtimes, 'runtimeId')).toEqual([runtimeId]);
    expect((await kit.as(charlie.token).get(`/api/runtimes/${runtimeId}`)).body).toMatchObject({ runtimeId, daemonId: daemonC, status: 'online' });
    expect((await kit.as(bravo.token).get(`/api/runtimes/${runtimeId}`)).status).toBe(404);
  });

  it('projects an enrolled daemon’s runtimes into its own workspace only, and nothing once it is revoked', async () => {
    const daemonId = uniqueNamespace('daemon-enrolled');
    await kit.query('insert into enrolled_daemon (id, workspace_id, name, user_public_key, curve_public_key) values ($1, $2, $3, $4, $5)', [
      daemonId,
      alpha.id,
      'laptop',
      uniqueNamespace('U'),
      uniqueNamespace('X'),
    ]);
    const base = { ...(await kit.registerRuntime(alpha.id)), daemonId };
    const intoBeta = { ...base, runtimeId: runtimeIdOf(daemonId, uniqueNamespace('runtime')), workspaceId: beta.id };
    await kit.publishRuntimeEvent('runtime.registered', intoBeta);
    await kit.runtimeEventsProjected();
    expect(await kit.query('select runtime_id from runtime_view where runtime_id = $1', [intoBeta.runtimeId])).toEqual([]);
    expect(pluck((await kit.as(beta.token).get('/api/runtimes')).body.runtimes, 'daemonId')).not.toContain(daemonId);

    const own = await kit.registerRuntime(alpha.id, { daemonId });
    expect((await kit.as(alpha.token).get(`/api/runtimes/${own.runtimeId}`)).body).toMatchObject({ daemonId, status: 'online' });

    await kit.query('update enrolled_daemon set revoked_at = now() where id = $1', [daemonId]);
    const afterRevocation = { ...own, runtimeId: runtimeIdOf(daemonId, uniqueNamespace('runtime')) };
    await kit.publishRuntimeEvent('runtime.registered', afterRevocation);
    await kit.publishRuntimeEvent('runtime.heartbeat', { daemonId, runtimeId: own.runtimeId, activeTaskIds: [], freeSlots: 1 });
    await kit.runtimeEventsProjected();
    expect(await kit.query('select runtime_id from runtime_view where runtime_id = $1', [afterRevocation.runtimeId])).toEqual([]);
    expect(await lastHeartbeatOf(own.runtimeId)).toBeNull();
  });

  it('takes the daemon from the subject: a registration naming another daemon is never projected', async () => {
    const runtime = await kit.registerRuntime(alpha.id);
    const forged = createEvent({ type: 'runtime.registered', payload: { ...runtime, runtimeId: `${runtime.runtimeId}-forged`, version: '6.6.6' } });
    await publish(kit.messaging, { subject: subjects.forEvent(forged, 'daemon-intruder'), data: forged, messageId: forged.eventId });
    await kit.runtimeEventsProjected();
    expect(await kit.query('select runtime_id from runtime_view where runtime_id = $1', [forged.payload.runtimeId])).toEqual([]);
  });

  it('ignores heartbeats and offline notices of runtimes it never saw registered', async () => {
    const daemonId = 'daemon-x';
    const unknown = runtimeIdOf(daemonId, uniqueNamespace('runtime'));
    await kit.publishRuntimeEvent('runtime.heartbeat', { daemonId, runtimeId: unknown, activeTaskIds: [], freeSlots: 3 });
    await kit.publishRuntimeEvent('runtime.offline', { daemonId, runtimeId: unknown, reason: 'daemon_shutdown', lastHeartbeatAt: null });
    await kit.runtimeEventsProjected();
    expect(await kit.query('select runtime_id from runtime_view where runtime_id = $1', [unknown])).toEqual([]);
  });

  it('shows a silent runtime offline (heartbeat_missed) though no notice came', async () => {
    const runtime = await kit.registerRuntime(alpha.id);
    await kit.publishRuntimeEvent('runtime.heartbeat', { daemonId: runtime.daemonId, runtimeId: runtime.runtimeId, activeTaskIds: [], freeSlots: 20 }, secondsAgo(0));
    await kit.runtimeEventsProjected();
    // As if the daemon was killed a minute ago: its last sign of life is old.
    await kit.query("update runtime_view set registered_at = now() - interval '2 minutes', last_heartbeat_at = now() - interval '1 minute' where runtime_id = $1", [
      runtime.runtimeId,
    ]);
    const view = (await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body;
    expect(view).toMatchObject({ status: 'offline', offlineReason: 'heartbeat_missed', offlineSince: view.lastHeartbeatAt });
  });

  it('keeps workspaces apart: B neither lists nor reads A’s runtimes', async () => {
    const alphaRuntime = await kit.registerRuntime(alpha.id);
    const betaRuntime = await kit.registerRuntime(beta.id);
    const betaList = pluck((await kit.as(beta.token).get('/api/runtimes')).body.runtimes, 'runtimeId');
    expect(betaList).toEqual([betaRuntime.runtimeId]);
    const read = await kit.as(beta.token).get(`/api/runtimes/${alphaRuntime.runtimeId}`);
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe('not_found');
  });

  it('describes every protocol family, once each, in the contracts’ order', async () => {
    const response = await kit.as(alpha.token).get('/api/runtimes/families');
    expect(response.status).toBe(200);
    expect(pluck(response.body.families, 'family')).toEqual([...PROTOCOL_FAMILIES]);
    for (const family of response.body.families as unknown[]) {
      expect(family).toEqual({
        family: expect.any(String),
        displayName: expect.stringMatching(/\S/),
        runtimes: expect.arrayContaining([expect.any(String)]),
        adapter: 'available',
        launch: expect.stringMatching(/\S/),
        promptDelivery: expect.stringMatching(/\S/),
        resume: expect.stringMatching(/\S/),
        cancel: expect.stringMatching(/\S/),
        usage: expect.stringMatching(/\S/),
        identities: expect.arrayContaining([expect.objectContaining({ identity: expect.any(String), verification: expect.stringMatching(/^(real-cli|recorded-frames)$/) })]),
      });
    }
    const families = response.body.families as Array<{ family: string; identities: Array<{ identity: string; verification: string; launchArgs: string[] }> }>;
    const identities = families.flatMap((family) => family.identities);
    expect(identities.filter((identity) => identity.verification === 'real-cli').map((identity) => identity.identity)).toEqual(
      expect.arrayContaining(['claude-code', 'qwen-code', 'codex', 'gemini-cli', 'opencode', 'pi']),
    );
    expect(identities.find((identity) => identity.identity === 'kimi')).toMatchObject({ launchArgs: ['acp'], inlineRuntimeBrief: true, acpResumeMethod: 'session/resume' });
  });

  it('refuses an unknown status filter with 400', async () => {
    const response = await kit.as(alpha.token).get('/api/runtimes?status=sleepy');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
  });
});
