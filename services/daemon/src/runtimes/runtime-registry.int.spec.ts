import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STREAM_CATALOG } from '@switchyard/contracts';
import { connectMessaging, readStream, type MessagingConnection } from '@switchyard/messaging';
import { startServiceForTest, testNatsUrl, type ServiceUnderTest } from '@switchyard/testing';
import { daemonService } from '../daemon.service';

interface RuntimeEvent {
  readonly type: string;
  readonly payload: { readonly runtimeId: string; readonly version?: string; readonly reason?: string };
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
    daemon = await startServiceForTest(daemonService, {
      database: false,
      env: { DAEMON_ID: 'daemon-registry-test', DAEMON_PATH: bin, DAEMON_HEARTBEAT_INTERVAL_MS: '100', SWITCHYARD_HOME: bin },
    });
    observer = await connectMessaging({ url: testNatsUrl(), name: 'registry-observer', namespace: daemon.namespace });

    const events = await waitForEvents((all) => all.filter((event) => event.type === 'runtime.heartbeat').length >= 3);
    expect(events[0]).toMatchObject({ type: 'runtime.registered', payload: { runtimeId: 'daemon-registry-test-claude-code', version: '2.1.197' } });
    expect(new Set(events.map((event) => event.payload.runtimeId))).toEqual(new Set(['daemon-registry-test-claude-code']));

    // Stopping the test daemon also removes its streams, so the goodbye is watched live.
    const offline = observer.nats.subscribe(observer.namespace.subject('runtime.offline.>'), { max: 1 });
    await observer.nats.flush();
    await daemon.stop();
    daemon = undefined;
    const goodbyes: RuntimeEvent[] = [];
    for await (const message of offline) goodbyes.push(JSON.parse(message.string()) as RuntimeEvent);
    expect(goodbyes).toMatchObject([{ type: 'runtime.offline', payload: { runtimeId: 'daemon-registry-test-claude-code', reason: 'daemon_shutdown' } }]);
  });
});
