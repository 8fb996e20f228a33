import { PROTOCOL_FAMILIES, createEvent, subjects } from '@switchyard/contracts';
import { publish } from '@switchyard/messaging';
import { uniqueNamespace } from '@switchyard/testing';
import { GatewayTestKit, pluck, waitUntil, type TestWorkspace } from '../../gateway-test.spec-helper';

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
    const beat = new Date();
    await kit.publishRuntimeEvent('runtime.heartbeat', { daemonId: runtime.daemonId, runtimeId: runtime.runtimeId, activeTaskIds: [], freeSlots: 20 }, beat);
    await waitUntil(async () => (await lastHeartbeatOf(runtime.runtimeId)) === beat.toISOString(), 'the heartbeat is recorded');

    await kit.publishRuntimeEvent('runtime.offline', { daemonId: runtime.daemonId, runtimeId: runtime.runtimeId, reason: 'daemon_shutdown', lastHeartbeatAt: beat.toISOString() });
    await waitUntil(async () => (await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body.status === 'offline', 'the runtime is offline');
    expect((await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body).toMatchObject({ offlineReason: 'daemon_shutdown', offlineSince: expect.any(String) });
    expect(pluck((await kit.as(alpha.token).get('/api/runtimes?status=offline')).body.runtimes, 'runtimeId')).toContain(runtime.runtimeId);
    expect(pluck((await kit.as(alpha.token).get('/api/runtimes?status=online')).body.runtimes, 'runtimeId')).not.toContain(runtime.runtimeId);

    await kit.publishRuntimeEvent('runtime.registered', { ...runtime, version: '2.2.0' });
    await waitUntil(async () => (await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body.status === 'online', 'the runtime is back');
    expect((await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body).toMatchObject({ version: '2.2.0', offlineReason: null, offlineSince: null });
  });

  it('never moves a runtime back in time: late registrations, heartbeats and notices are ignored', async () => {
    const runtime = await kit.registerRuntime(alpha.id, {}, secondsAgo(10));
    await kit.publishRuntimeEvent('runtime.offline', { daemonId: runtime.daemonId, runtimeId: runtime.runtimeId, reason: 'not_detected', lastHeartbeatAt: null }, secondsAgo(2));
    await waitUntil(async () => (await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body.status === 'offline', 'the runtime is offline');

    // Redelivered, from between the registration and the notice: a registration and a heartbeat.
    await kit.publishRuntimeEvent('runtime.registered', { ...runtime, version: '0.0.1' }, secondsAgo(5));
    const heartbeatAt = secondsAgo(4);
    await kit.publishRuntimeEvent('runtime.heartbeat', { daemonId: runtime.daemonId, runtimeId: runtime.runtimeId, activeTaskIds: [], freeSlots: 1 }, heartbeatAt);
    await kit.runtimeEventsProjected();

    // The heartbeat is a fact worth keeping, but it predates the notice: the runtime stays offline.
    expect((await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body).toMatchObject({
      status: 'offline',
      offlineReason: 'not_detected',
      version: runtime.version,
      lastHeartbeatAt: heartbeatAt.toISOString(),
    });

    // And an even older heartbeat, redelivered last, does not replace it.
    await kit.publishRuntimeEvent('runtime.heartbeat', { daemonId: runtime.daemonId, runtimeId: runtime.runtimeId, activeTaskIds: [], freeSlots: 1 }, secondsAgo(6));
    await kit.runtimeEventsProjected();
    expect((await kit.as(alpha.token).get(`/api/runtimes/${runtime.runtimeId}`)).body.lastHeartbeatAt).toBe(heartbeatAt.toISOString());
  });

  it('takes the daemon from the subject: a registration naming another daemon is never projected', async () => {
    const runtime = await kit.registerRuntime(alpha.id);
    const forged = createEvent({ type: 'runtime.registered', payload: { ...runtime, runtimeId: `${runtime.runtimeId}-forged`, version: '6.6.6' } });
    await publish(kit.messaging, { subject: subjects.forEvent(forged, 'daemon-intruder'), data: forged, messageId: forged.eventId });
    await kit.runtimeEventsProjected();
    expect(await kit.query('select runtime_id from runtime_view where runtime_id = $1', [forged.payload.runtimeId])).toEqual([]);
  });

  it('ignores heartbeats and offline notices of runtimes it never saw registered', async () => {
    const unknown = uniqueNamespace('runtime');
    await kit.publishRuntimeEvent('runtime.heartbeat', { daemonId: 'daemon-x', runtimeId: unknown, activeTaskIds: [], freeSlots: 3 });
    await kit.publishRuntimeEvent('runtime.offline', { daemonId: 'daemon-x', runtimeId: unknown, reason: 'daemon_shutdown', lastHeartbeatAt: null });
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
