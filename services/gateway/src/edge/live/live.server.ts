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
import { CallerAuthenticator, type Authentication } from '../auth/caller.authenticator';
import { ApiTokenVerifier } from '../auth/api-token.verifier';
import { csrfRefusal } from '../auth/csrf.check';
import { SESSION_COOKIE, cookiesOf } from '../auth/session.cookies';
import { ApiError } from '../../workspace/common/api-error';
import { SessionsRepository } from '../../workspace/people/sessions.repository';
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
  private readonly publicUrl: string | undefined;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly authenticator: CallerAuthenticator,
    verifier: ApiTokenVerifier,
    revocations: TokenRevocations,
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
    sessions: SessionsRepository,
  ) {
    this.publicUrl = config.GATEWAY_PUBLIC_URL;
    this.workspaceFeed = new WorkspaceFeedHub(connection, dataSource, logger);
    this.tokenWatch = new LiveTokenWatch({ connections: () => this.connections, verifier, sessions, revocations, recheckMs: config.GATEWAY_LIVE_TOKEN_RECHECK_MS, logger });
  }

  /** Open live connections: upgraded, not closed yet (authenticated or still to authenticate in a frame). */
  get openConnections(): number {
    return this.connections.size;
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

  /**
   * A browser's session: its origin must be this gateway's (no other site's page may open a socket
   * with the cookie), and it acts in the workspace `?workspace=` names (or its only one).
   */
  private async sessionAuthentication(request: IncomingMessage, sessionToken: string): Promise<Authentication> {
    const checked = await this.authenticator.authenticateSession({ token: sessionToken, clientAddress: request.socket.remoteAddress });
    if (checked.outcome !== 'accepted') return checked;
    const refusal = csrfRefusal({ request: { method: 'GET', headers: request.headers }, session: checked.value, publicUrl: this.publicUrl });
    if (refusal) throw refusal;
    const workspaceId = new URL(request.url ?? '/', 'http://gateway').searchParams.get('workspace') ?? undefined;
    const caller = await this.authenticator.memberOf({ session: checked.value, workspaceId });
    return { outcome: 'accepted', caller, credential: { kind: 'session', sessionId: checked.value.sessionId } };
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (new URL(request.url ?? '/', 'http://gateway').pathname !== LIVE_PATH) {
      socket.destroy();
      return;
    }
    // A bad header token is refused at once; a browser brings its session cookie; with neither the
    // client authenticates in a frame.
    const clientAddress = request.socket.remoteAddress;
    const headerToken = bearerTokenOf(request.headers.authorization);
    const sessionToken = cookiesOf(request.headers.cookie)[SESSION_COOKIE];
    let authentication: Authentication | undefined;
    try {
      authentication = headerToken
        ? await this.authenticator.authenticate({ token: headerToken, clientAddress })
        : sessionToken
          ? await this.sessionAuthentication(request, sessionToken)
          : undefined;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refuseUpgradeWith(socket, error);
      return;
    }
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

/** An HTTP answer with an API error instead of the upgrade. */
function refuseUpgradeWith(socket: Duplex, error: ApiError): void {
  const status = `${error.status} ${error.status === 403 ? 'Forbidden' : error.status === 400 ? 'Bad Request' : 'Unauthorized'}`;
  socket.end([`HTTP/1.1 ${status}`, 'Content-Type: application/json', 'Connection: close', '', JSON.stringify({ error: { code: error.code, message: error.message } })].join('\r\n'));
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
