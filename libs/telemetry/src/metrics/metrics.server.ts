import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TelemetryLogger } from '../sdk/start-telemetry';
import type { ServiceMetrics } from './service-metrics';

export const METRICS_PATH = '/metrics';

export interface RunningMetricsServer {
  /** Where Prometheus scrapes, e.g. `http://127.0.0.1:9464/metrics` (loopback for a wildcard host). */
  readonly url: string;
  /** Stops listening and ends open (keep-alive) connections. Idempotent. */
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a listener of its own, apart from the service's HTTP port: the gateway's
 * public port never serves metrics, and a scrape never passes the API's guards or body parsing.
 * Anything else is 404 (405 for another method on /metrics).
 */
export async function startMetricsServer(options: {
  readonly metrics: ServiceMetrics;
  readonly host: string;
  readonly port: number;
  readonly logger: TelemetryLogger;
}): Promise<RunningMetricsServer> {
  const server = createServer((request, response) => {
    void answer({ request, response, metrics: options.metrics, logger: options.logger });
  });
  await listen(server, options.host, options.port);
  let closing: Promise<void> | undefined;
  return {
    url: urlOf(server.address() as AddressInfo),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

async function answer(options: { readonly request: IncomingMessage; readonly response: ServerResponse; readonly metrics: ServiceMetrics; readonly logger: TelemetryLogger }): Promise<void> {
  const { request, response } = options;
  const path = new URL(request.url ?? '/', 'http://metrics').pathname;
  if (path !== METRICS_PATH) return plain(response, 404, 'not found: metrics are at /metrics\n');
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('allow', 'GET, HEAD');
    return plain(response, 405, 'method not allowed\n');
  }
  try {
    const exposition = await options.metrics.exposition();
    response.writeHead(200, { 'content-type': exposition.contentType, 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : exposition.body);
  } catch (error) {
    options.logger.error({ event: 'metrics_exposition_failed', error: error instanceof Error ? error.message : String(error) }, 'metrics could not be rendered');
    plain(response, 500, 'metrics could not be rendered\n');
  }
}

function plain(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(body);
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function urlOf(address: AddressInfo): string {
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return `http://${address.family === 'IPv6' ? `[${host}]` : host}:${address.port}${METRICS_PATH}`;
}
