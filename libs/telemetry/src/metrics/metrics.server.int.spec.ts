import { request, type IncomingMessage } from 'node:http';
import { SWITCHYARD_METRICS } from './metric.catalog';
import { startMetricsServer, type RunningMetricsServer } from './metrics.server';
import { createServiceMetrics, type ServiceMetrics } from './service-metrics';

const quietLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** One request: its status, headers and body. */
function send(url: string, method: string): Promise<{ readonly status: number; readonly headers: IncomingMessage['headers']; readonly body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('the metrics listener (loopback HTTP)', () => {
  let metrics: ServiceMetrics;
  let server: RunningMetricsServer;

  beforeAll(async () => {
    metrics = await createServiceMetrics({ service: 'gateway', logger: quietLogger });
    metrics.gaugeAtScrape(SWITCHYARD_METRICS.liveConnections, () => [{ labels: {}, value: 2 }]);
    server = await startMetricsServer({ metrics, host: '127.0.0.1', port: 0, logger: quietLogger });
  });

  afterAll(async () => {
    await server.close();
  });

  it('answers GET /metrics in the Prometheus text format, uncached', async () => {
    const response = await send(server.url, 'GET');

    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect({ status: response.status, type: response.headers['content-type'], cache: response.headers['cache-control'] }).toEqual({
      status: 200,
      type: 'text/plain; version=0.0.4; charset=utf-8',
      cache: 'no-store',
    });
    expect(response.body).toContain('# TYPE switchyard_live_connections gauge');
    expect(response.body).toContain('switchyard_live_connections{service="gateway"} 2');
  });

  it('answers HEAD without a body, another method 405, another path 404', async () => {
    const head = await send(server.url, 'HEAD');
    const post = await send(server.url, 'POST');
    const elsewhere = await send(server.url.replace('/metrics', '/api/tasks'), 'GET');

    expect([head.status, head.body]).toEqual([200, '']);
    expect([post.status, post.headers['allow']]).toEqual([405, 'GET, HEAD']);
    expect(elsewhere.status).toBe(404);
  });

  it('answers 500 when the metrics cannot be rendered, and keeps serving', async () => {
    const broken: ServiceMetrics = { ...metrics, exposition: () => Promise.reject(new Error('registry broken')) };
    const failing = await startMetricsServer({ metrics: broken, host: '127.0.0.1', port: 0, logger: quietLogger });
    try {
      expect((await send(failing.url, 'GET')).status).toBe(500);
      expect((await send(failing.url, 'GET')).status).toBe(500);
    } finally {
      await failing.close();
    }
  });

  it('closes with its connections: the port no longer answers', async () => {
    const closing = await startMetricsServer({ metrics, host: '127.0.0.1', port: 0, logger: quietLogger });
    await expect(fetch(closing.url)).resolves.toMatchObject({ status: 200 });

    await closing.close();
    await closing.close();

    await expect(fetch(closing.url)).rejects.toThrow();
  });

  it('fails to start on a port already taken', async () => {
    const port = Number(new URL(server.url).port);
    await expect(startMetricsServer({ metrics, host: '127.0.0.1', port, logger: quietLogger })).rejects.toThrow(/EADDRINUSE/);
  });
});
