import { access, chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STREAM_CATALOG } from '@switchyard/contracts';
import { type MessagingConnection } from '@switchyard/messaging';
import { collectNotices, readStream } from '@switchyard/messaging/testing';
import { startServiceForTest, type ServiceUnderTest, connectTestMessaging } from '@switchyard/testing';
import { daemonApp } from '../daemon.app';

interface RuntimeEvent {
  readonly type: string;
  readonly payload: { readonly runtimeId: string; readonly version?: string; readonly reason?: string; readonly profileId?: string | null; readonly commandName?: string; readonly models?: string[] };
}

describe('daemon runtime registry (real NATS)', () => {
  let bin: string;
  let daemon: ServiceUnderTest | undefined;
  let observer: MessagingConnection | undefined;

  beforeEach(async () => {
    bin = await mkdtemp(path.join(tmpdir(), 'switchyard-fake-clis-'));
    const claude = path.join(bin, 'claude');
    await writeFile(claude, '#!/bin/sh\necho "2.1.197 (Claude Code)"\n');
    await chmod(claude, 0o755);
  });
  afterEach(async () => {
    await observer?.close();
    await daemon?.stop();
    await rm(bin, { recursive: true, force: true });
  });

  async function waitForFile(file: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        await access(file);
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`${file} never appeared`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  async function runtimeEvents(): Promise<RuntimeEvent[]> {
    return (await readStream(observer!, STREAM_CATALOG.RUNTIME_EVENTS.name)).map((message) => JSON.parse(message.text) as RuntimeEvent);
  }

  async function waitForEvents(predicate: (events: RuntimeEvent[]) => boolean): Promise<RuntimeEvent[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const events = await runtimeEvents();
      if (predicate(events)) return events;
      if (Date.now() > deadline) throw new Error(`runtime events never matched: ${JSON.stringify(events.map((event) => event.type))}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('registers the CLIs it finds, heartbeats them, and says they are offline when it stops', async () => {
    daemon = await startServiceForTest(daemonApp, {
      database: false,
      env: { DAEMON_ID: 'daemon-registry-test', DAEMON_PATH: bin, DAEMON_HEARTBEAT_INTERVAL_MS: '100', SWITCHYARD_HOME: bin },
    });
    observer = await connectTestMessaging({ name: 'registry-observer', namespace: daemon.namespace });

    const events = await waitForEvents((all) => all.filter((event) => event.type === 'runtime.heartbeat').length >= 3);
    expect(events[0]).toMatchObject({ type: 'runtime.registered', payload: { runtimeId: 'daemon-registry-test-claude-code', version: '2.1.197' } });
    expect(new Set(events.map((event) => event.payload.runtimeId))).toEqual(new Set(['daemon-registry-test-claude-code']));

    // Stopping the test daemon also removes its streams, so the goodbye is watched live.
    const offline = await collectNotices(observer, 'runtime.offline.>', { max: 1 });
    await daemon.stop();
    daemon = undefined;
    const goodbyes = (await offline.waitFor(1)).map((notice) => JSON.parse(notice.text) as RuntimeEvent);
    expect(goodbyes).toMatchObject([{ type: 'runtime.offline', payload: { runtimeId: 'daemon-registry-test-claude-code', reason: 'daemon_shutdown' } }]);
  });

  it('keeps heartbeating while a re-detection hangs on a CLI, and stops without waiting for it', async () => {
    // The first version probe answers; every later one hangs until killed (/bin/sleep: the probe's
    // PATH is the fake bin folder alone).
    const counter = path.join(bin, 'probes');
    const hanging = path.join(bin, 'hanging');
    await writeFile(
      path.join(bin, 'claude'),
      [
        '#!/bin/sh',
        `n=0; if [ -f "${counter}" ]; then read n < "${counter}"; fi; n=$((n + 1)); echo "$n" > "${counter}"`,
        'if [ "$n" -gt 1 ]; then echo > "' + hanging + '"; exec /bin/sleep 600; fi',
        'echo "2.1.197 (Claude Code)"',
        '',
      ].join('\n'),
    );
    daemon = await startServiceForTest(daemonApp, {
      database: false,
      env: {
        DAEMON_ID: 'daemon-hang-test',
        DAEMON_PATH: bin,
        SWITCHYARD_HOME: bin,
        DAEMON_HEARTBEAT_INTERVAL_MS: '100',
        DAEMON_REDETECT_INTERVAL_MS: '200',
        DAEMON_VERSION_PROBE_TIMEOUT_MS: '600000',
      },
    });
    observer = await connectTestMessaging({ name: 'registry-observer', namespace: daemon.namespace });
    await waitForFile(hanging);
    const heartbeats = await collectNotices(observer, 'runtime.heartbeat.>');

    // Every one of these arrives while the detection is still hanging on the probe (it is killed
    // only when the daemon stops, below): heartbeats do not wait for detection.
    for (let beat = 1; beat <= 10; beat += 1) {
      const received = await heartbeats.waitFor(beat);
      expect(JSON.parse(received[beat - 1]!.text)).toMatchObject({ type: 'runtime.heartbeat', payload: { runtimeId: 'daemon-hang-test-claude-code' } });
      await expect(access(hanging)).resolves.toBeUndefined();
    }
    heartbeats.close();
    expect(await readFile(counter, 'utf8')).toBe('2\n');

    await daemon.stop();
    daemon = undefined;
  });

  it('registers the models a CLI lists, again when they change, and keeps them when one discovery fails', async () => {
    // Only shell builtins: the probe's PATH is the fake bin folder alone.
    const counter = path.join(bin, 'discoveries');
    const opencode = path.join(bin, 'opencode');
    await writeFile(
      opencode,
      [
        '#!/bin/sh',
        'case "$1" in',
        '  --version) echo "1.18.33";;',
        `  models) n=0; if [ -f "${counter}" ]; then read n < "${counter}"; fi; n=$((n + 1)); echo "$n" > "${counter}"`,
        '    case "$n" in 1) echo "a/one";; 2) echo "rate limited" >&2; exit 1;; *) printf "a/one\\nb/two\\n";; esac;;',
        'esac',
        '',
      ].join('\n'),
    );
    await chmod(opencode, 0o755);
    daemon = await startServiceForTest(daemonApp, {
      database: false,
      env: { DAEMON_ID: 'daemon-models-test', DAEMON_PATH: bin, SWITCHYARD_HOME: bin, DAEMON_REDETECT_INTERVAL_MS: '100' },
    });
    observer = await connectTestMessaging({ name: 'registry-observer', namespace: daemon.namespace });

    const modelsRegistered = (events: RuntimeEvent[]): Array<string[] | undefined> =>
      events.filter((event) => event.type === 'runtime.registered' && event.payload.runtimeId === 'daemon-models-test-opencode').map((event) => event.payload.models);
    const events = await waitForEvents((all) => modelsRegistered(all).length >= 2);
    // The failed second discovery published nothing: no registration with an empty list in between.
    expect(modelsRegistered(events)).toEqual([['a/one'], ['a/one', 'b/two']]);
    expect(events.filter((event) => event.type === 'runtime.registered' && event.payload.runtimeId === 'daemon-models-test-claude-code')).toMatchObject([
      { payload: { models: [] } },
    ]);
  });

  it('registers a runtime profile found on PATH, with version unknown when its command prints none', async () => {
    const wrapper = path.join(bin, 'team-claude');
    await writeFile(wrapper, '#!/bin/sh\nexit 2\n');
    await chmod(wrapper, 0o755);
    const profilesFile = path.join(bin, 'profiles.json');
    await writeFile(
      profilesFile,
      JSON.stringify([
        { profileId: 'team-claude', displayName: 'Team Claude', protocolFamily: 'claude-stream-json', commandName: 'team-claude', fixedArgs: ['--x'] },
        { profileId: 'absent', displayName: 'Absent', protocolFamily: 'acp', commandName: 'not-installed-anywhere' },
      ]),
    );
    daemon = await startServiceForTest(daemonApp, {
      database: false,
      env: { DAEMON_ID: 'daemon-profile-test', DAEMON_PATH: bin, SWITCHYARD_HOME: bin, DAEMON_RUNTIME_PROFILES_FILE: profilesFile },
    });
    observer = await connectTestMessaging({ name: 'registry-observer', namespace: daemon.namespace });

    const events = await waitForEvents((all) => all.filter((event) => event.type === 'runtime.registered').length >= 2);
    const registered = events.filter((event) => event.type === 'runtime.registered').map((event) => event.payload);
    expect(registered).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ runtimeId: 'daemon-profile-test-claude-code', profileId: null }),
        expect.objectContaining({ runtimeId: 'daemon-profile-test-profile-team-claude', profileId: 'team-claude', version: 'unknown', commandName: 'team-claude' }),
      ]),
    );
    expect(registered.map((payload) => payload.runtimeId)).not.toContain('daemon-profile-test-profile-absent');
  });
});
