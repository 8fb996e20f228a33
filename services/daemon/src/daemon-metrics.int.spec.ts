import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SWITCHYARD_METRICS } from '@switchyard/telemetry';
import { scrapeMetrics, startServiceForTest, type ServiceUnderTest } from '@switchyard/testing';
import { daemonApp } from './daemon.app';

const DAEMON_ID = 'daemon-metrics-test';
const { daemonSlots, outboxPendingMessages } = SWITCHYARD_METRICS;

/** A daemon booted with METRICS_PORT (real NATS; no agent CLI on its PATH) serves its slots and its outbox's backlog. */
describe('daemon metrics (real NATS)', () => {
  let home: string;
  let daemon: ServiceUnderTest | undefined;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'switchyard-daemon-metrics-'));
    const emptyPath = path.join(home, 'no-clis');
    daemon = await startServiceForTest(daemonApp, {
      database: false,
      env: { DAEMON_ID, METRICS_PORT: '0', DAEMON_MAX_SLOTS: '3', SWITCHYARD_HOME: home, DAEMON_PATH: emptyPath, DAEMON_WORKDIR_GC_INTERVAL_MS: '0' },
    });
  });
  afterAll(async () => {
    await daemon?.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('serves its busy and total slots and an empty outbox, labelled daemon, without its id', async () => {
    const scrape = await scrapeMetrics(daemon!.metricsUrl!);

    expect({
      busy: scrape.value(daemonSlots.name, { state: 'busy', service: 'daemon' }),
      total: scrape.value(daemonSlots.name, { state: 'total' }),
      outbox: scrape.value(outboxPendingMessages.name),
    }).toEqual({ busy: 0, total: 3, outbox: 0 });
    expect(scrape.text).not.toContain(DAEMON_ID);
  });
});
