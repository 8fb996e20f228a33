import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { DataSource } from 'typeorm';
import { WebSocketServer, type WebSocket } from 'ws';
import { MESSAGING_CONNECTION, type MessagingConnection } from '@switchyard/messaging';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import type { GatewayConfig } from '../../gateway.config';
import { bearerTokenOf } from '../../workspace/tokens/api-token.codec';
import { ApiTokenAuthenticator, type Authentication } from '../auth/api-token.authenticator';
import { ApiTokenVerifier } from '../auth/api-token.verifier';
import { TokenRevocations } from '../auth/token-revocations';
import { GATEWAY_CONFIG, GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { LiveConnection, type LiveConnectionDependencies } from './live.connection';
import { LIVE_CLOSE_CODES } from './live.frames';
import { LiveTokenWatch } from './live-token.watch';
import { sanitizeLiveMessage } from './live-message.sanitizer';
import { WorkspaceFeedHub } from './workspace-feed.hub';

export const LIVE_PATH = '/api/live';

const LIMITS: LiveConnectionDependencies['limits'] = {
  authWindowMs: 5_000,
  maxSubscriptions: 100,
  // Past this much unsent data the client is cut off; it resumes from its last seq.
  maxBufferedBytes: 8 * 1024 * 1024,
};

/** The WebSocket endpoint `/api/live`, on the gateway's own HTTP server. */
@Injectable()
export class LiveServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly connections = new Set<LiveConnection>();
  private readonly workspaceFeed: WorkspaceFeedHub;
  private readonly tokenWatch: LiveTokenWatch;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly authenticator: ApiTokenAuthenticator,
    verifier: ApiTokenVerifier,
    revocations: TokenRevocations,
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {
    this.workspaceFeed = new WorkspaceFeedHub(connection, dataSource, logger);
    this.tokenWatch = new LiveTokenWatch({ connections: () => this.connections, verifier, revocations, recheckMs: config.GATEWAY_LIVE_TOKEN_RECHECK_MS, logger });
  }

  onApplicationBootstrap(): void {
    this.workspaceFeed.start();
    this.tokenWatch.start();
    const server = this.adapterHost.httpAdapter.getHttpServer() as { on(event: 'upgrade', listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void): void };
    server.on('upgrade', (request, socket, head) => {
      this.upgrade(request, socket, head).catch((error: unknown) => {
        // The database could not verify the token, for one: this client retries, nobody else notices.
        this.logger.warn({ event: 'live_upgrade_failed', err: error }, 'live upgrade failed');
        socket.destroy();
      });
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.tokenWatch.stop();
    this.workspaceFeed.stop();
    for (const client of this.sockets.clients) client.close(LIVE_CLOSE_CODES.goingAway, 'gateway shutting down');
    await Promise.all([...this.connections].map((connection) => connection.close()));
    await new Promise<void>((resolve) => this.sockets.close(() => resolve()));
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (new URL(request.url ?? '/', 'http://gateway').pathname !== LIVE_PATH) {
      socket.destroy();
      return;
    }
    // A bad header token is refused at once; no header means the client authenticates in a frame.
    const clientAddress = request.socket.remoteAddress;
    const headerToken = bearerTokenOf(request.headers.authorization);
    const authentication = headerToken ? await this.authenticator.authenticate({ token: headerToken, clientAddress }) : undefined;
    if (authentication && authentication.outcome !== 'accepted') {
      refuseUpgrade(socket, authentication);
      return;
    }
    this.sockets.handleUpgrade(request, socket, head, (client: WebSocket) => {
      const connection = new LiveConnection(
        client,
        { connection: this.connection, dataSource: this.dataSource, authenticator: this.authenticator, workspaceFeed: this.workspaceFeed, sanitize: sanitizeLiveMessage, logger: this.logger, limits: LIMITS },
        { clientAddress, authenticated: authentication },
      );
      this.connections.add(connection);
      client.on('close', () => this.connections.delete(connection));
    });
  }
}

/** An HTTP answer instead of the upgrade, in the REST API's error shape. */
function refuseUpgrade(socket: Duplex, refusal: Exclude<Authentication, { outcome: 'accepted' }>): void {
  const { status, headers, error } =
    refusal.outcome === 'rate_limited'
      ? {
          status: '429 Too Many Requests',
          headers: [`Retry-After: ${refusal.retryAfterSeconds}`],
          error: { code: 'auth_rate_limited', message: `too many failed authentications from this address; retry in ${refusal.retryAfterSeconds} s` },
        }
      : { status: '401 Unauthorized', headers: [], error: { code: 'unauthenticated', message: 'invalid API token' } };
  socket.end([`HTTP/1.1 ${status}`, 'Content-Type: application/json', ...headers, 'Connection: close', '', JSON.stringify({ error })].join('\r\n'));
}
