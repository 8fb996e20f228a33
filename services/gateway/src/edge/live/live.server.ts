import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { DataSource } from 'typeorm';
import { WebSocketServer, type WebSocket } from 'ws';
import { MESSAGING_CONNECTION, type MessagingConnection } from '@switchyard/messaging';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import { bearerTokenOf } from '../../workspace/tokens/api-token.codec';
import { ApiTokenVerifier } from '../auth/api-token.verifier';
import { GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { LiveConnection, type LiveConnectionDependencies } from './live.connection';
import { LIVE_CLOSE_CODES } from './live.frames';
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

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly verifier: ApiTokenVerifier,
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {
    this.workspaceFeed = new WorkspaceFeedHub(connection, dataSource, logger);
  }

  onApplicationBootstrap(): void {
    this.workspaceFeed.start();
    const server = this.adapterHost.httpAdapter.getHttpServer() as { on(event: 'upgrade', listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void): void };
    server.on('upgrade', (request, socket, head) => void this.upgrade(request, socket, head));
  }

  async beforeApplicationShutdown(): Promise<void> {
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
    const headerToken = bearerTokenOf(request.headers.authorization);
    const caller = headerToken ? await this.verifier.verify(headerToken) : undefined;
    if (headerToken && !caller) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error":{"code":"unauthenticated","message":"invalid API token"}}');
      return;
    }
    this.sockets.handleUpgrade(request, socket, head, (client: WebSocket) => {
      const connection = new LiveConnection(
        client,
        { connection: this.connection, dataSource: this.dataSource, verifier: this.verifier, workspaceFeed: this.workspaceFeed, sanitize: sanitizeLiveMessage, logger: this.logger, limits: LIMITS },
        caller,
      );
      this.connections.add(connection);
      client.on('close', () => this.connections.delete(connection));
    });
  }
}
