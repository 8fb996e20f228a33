import { SWITCHYARD_METRICS } from '@switchyard/telemetry';
import { scrapeMetrics, startServiceForTest, type ServiceUnderTest } from '@switchyard/testing';
import { gatewayApp } from '../../gateway.app';
import { connectLiveClient } from './live-client.spec-helper';

const TOKEN = 'sy_live-metrics-token-live-metrics-0001';
const { liveConnections } = SWITCHYARD_METRICS;

/**
 * The gateway's `switchyard_live_connections` follows its open live WebSockets, on the metrics
 * listener (real NATS + Postgres); its public port serves no metrics.
 */
describe('gateway metrics (real NATS + Postgres)', () => {
  let gateway: ServiceUnderTest;

  beforeAll(async () => {
    gateway = await startServiceForTest(gatewayApp, { database: true, env: { GATEWAY_BOOTSTRAP_TOKEN: TOKEN, METRICS_PORT: '0' } });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  const openConnections = async (): Promise<number | undefined> => (await scrapeMetrics(gateway.metricsUrl!)).value(liveConnections.name, { service: 'gateway' });

  /** A closed socket leaves the server's set when the server sees the close, a moment after the client does. */
  async function untilOpenConnections(expected: number): Promise<number | undefined> {
    let seen = await openConnections();
    for (const deadline = Date.now() + 10_000; seen !== expected && Date.now() < deadline; seen = await openConnections()) await new Promise((resolve) => setTimeout(resolve, 25));
    return seen;
  }

  it('counts the open live connections, and never serves metrics on the public port', async () => {
    expect(await openConnections()).toBe(0);

    const first = await connectLiveClient(gateway.url, { token: TOKEN });
    const second = await connectLiveClient(gateway.url, { token: TOKEN });
    expect(await openConnections()).toBe(2);

    await first.close();
    expect(await untilOpenConnections(1)).toBe(1);
    await second.close();
    expect(await untilOpenConnections(0)).toBe(0);

    const publicPort = await fetch(`${gateway.url}/metrics`);
    expect(await publicPort.text()).not.toContain('switchyard_');
    expect((await scrapeMetrics(gateway.metricsUrl!)).text).not.toContain(TOKEN);
  });
});
