import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KEY_VALUE_CATALOG, STREAM_CATALOG, type RuntimeProfile } from '@switchyard/contracts';
import { putKeyValue, type MessagingConnection } from '@switchyard/messaging';
import { readStream } from '@switchyard/messaging/testing';
import { connectTestMessaging, startServiceForTest, type ServiceUnderTest } from '@switchyard/testing';
import { daemonApp } from '../daemon.app';

interface RuntimeEvent {
  readonly type: string;
  readonly payload: { readonly runtimeId: string; readonly profileId?: string | null; readonly commandName?: string; readonly reason?: string };
}

const WORKSPACE_ID = 'ws-profiles-test';
const DAEMON_ID = 'daemon-workspace-profiles';

/**
 * Runtime profiles created over REST reach the daemon through its workspace's key in the
 * `runtime-profiles` bucket (put here as the gateway puts them): applied without a restart, a
 * local-file profile of the same name winning.
 */
describe('daemon runtime profiles from the workspace (real NATS)', () => {
  let bin: string;
  let daemon: ServiceUnderTest | undefined;
  let observer: MessagingConnection | undefined;

  beforeAll(async () => {
    bin = await mkdtemp(path.join(tmpdir(), 'switchyard-workspace-profiles-'));
    for (const command of ['team-kimi', 'team-kimi-local', 'team-hermes']) {
      await writeFile(path.join(bin, command), `#!/bin/sh\necho "${command} 1.0.0"\n`);
      await chmod(path.join(bin, command), 0o755);
    }
    await writeFile(
      path.join(bin, 'profiles.json'),
      JSON.stringify([{ profileId: 'kimi-here', displayName: 'team kimi', protocolFamily: 'acp', commandName: 'team-kimi-local', fixedArgs: ['acp'] }]),
    );
    daemon = await startServiceForTest(daemonApp, {
      database: false,
      env: {
        DAEMON_ID,
        DAEMON_WORKSPACE_ID: WORKSPACE_ID,
        DAEMON_PATH: bin,
        SWITCHYARD_HOME: bin,
        DAEMON_RUNTIME_PROFILES_FILE: path.join(bin, 'profiles.json'),
        // Only a change may trigger a detection within this test: no periodic one.
        DAEMON_REDETECT_INTERVAL_MS: '3600000',
      },
    });
    observer = await connectTestMessaging({ name: 'workspace-profiles-observer', namespace: daemon.namespace });
  });
  afterAll(async () => {
    await observer?.close();
    await daemon?.stop();
    await rm(bin, { recursive: true, force: true });
  });

  async function runtimeEvents(): Promise<RuntimeEvent[]> {
    return (await readStream(observer!, STREAM_CATALOG.RUNTIME_EVENTS.name)).map((message) => JSON.parse(message.text) as RuntimeEvent);
  }

  async function waitForEvents(predicate: (events: RuntimeEvent[]) => boolean): Promise<RuntimeEvent[]> {
    for (;;) {
      const events = await runtimeEvents();
      if (predicate(events)) return events;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const putWorkspaceProfiles = (profiles: RuntimeProfile[]): Promise<number> =>
    putKeyValue(observer!, { bucket: KEY_VALUE_CATALOG.RUNTIME_PROFILES.name, key: WORKSPACE_ID, value: { schemaVersion: 1, workspaceId: WORKSPACE_ID, profiles } });
  const registered = (events: RuntimeEvent[], runtimeId: string): RuntimeEvent | undefined => events.find((event) => event.type === 'runtime.registered' && event.payload.runtimeId === runtimeId);

  const hermesId = '0193a000-0000-7000-8000-000000000001';
  const kimiId = '0193a000-0000-7000-8000-000000000002';

  it('registers a workspace profile put after boot, under its own daemon id, without a restart', async () => {
    await waitForEvents((events) => registered(events, `${DAEMON_ID}-profile-kimi-here`) !== undefined);

    await putWorkspaceProfiles([
      { profileId: hermesId, displayName: 'Team Hermes', protocolFamily: 'acp', commandName: 'team-hermes', fixedArgs: ['--acp'] },
      { profileId: kimiId, displayName: 'Team Kimi', protocolFamily: 'acp', commandName: 'team-kimi', fixedArgs: ['acp'] },
    ]);

    const events = await waitForEvents((all) => registered(all, `${DAEMON_ID}-profile-${hermesId}`) !== undefined);
    expect(registered(events, `${DAEMON_ID}-profile-${hermesId}`)?.payload).toMatchObject({ profileId: hermesId, commandName: 'team-hermes' });
  });

  it('lets the local file win over a workspace profile of the same name', async () => {
    const events = await runtimeEvents();

    expect(registered(events, `${DAEMON_ID}-profile-${kimiId}`)).toBeUndefined();
    expect(registered(events, `${DAEMON_ID}-profile-kimi-here`)?.payload).toMatchObject({ profileId: 'kimi-here', commandName: 'team-kimi-local' });
  });

  it('takes a workspace profile offline once the workspace removes it, keeping the local one', async () => {
    await putWorkspaceProfiles([]);

    const events = await waitForEvents((all) => all.some((event) => event.type === 'runtime.offline' && event.payload.runtimeId === `${DAEMON_ID}-profile-${hermesId}`));
    expect(events.find((event) => event.type === 'runtime.offline' && event.payload.runtimeId === `${DAEMON_ID}-profile-${hermesId}`)?.payload.reason).toBe('not_detected');
    expect(events.some((event) => event.type === 'runtime.offline' && event.payload.runtimeId === `${DAEMON_ID}-profile-kimi-here`)).toBe(false);
  });

  it('refuses a value that is not a profile list and keeps the last good one', async () => {
    const before = (await runtimeEvents()).length;
    await putKeyValue(observer!, { bucket: KEY_VALUE_CATALOG.RUNTIME_PROFILES.name, key: WORKSPACE_ID, value: { schemaVersion: 1, workspaceId: WORKSPACE_ID, profiles: [{ commandName: '/bin/sh' }] } });
    // A good value after it is the next one applied: the bad one changed nothing in between.
    await putWorkspaceProfiles([{ profileId: hermesId, displayName: 'Team Hermes', protocolFamily: 'acp', commandName: 'team-hermes', fixedArgs: [] }]);

    const events = await waitForEvents((all) => all.slice(before).some((event) => event.type === 'runtime.registered' && event.payload.runtimeId === `${DAEMON_ID}-profile-${hermesId}`));
    expect(events.slice(before).filter((event) => event.type === 'runtime.offline')).toEqual([]);
  });
});
