import type { DataSource } from 'typeorm';
import type WebSocket from 'ws';
import type { AgentMessage } from '@switchyard/contracts';
import type { MessagingConnection } from '@switchyard/messaging';
import { workspaceOfTask } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import type { CallerAuthenticator, LiveCredential } from '../auth/caller.authenticator';
import { callerHolds, type Caller } from '../../workspace/common/caller';
import { clientFrameSchema, LIVE_CLOSE_CODES, type ClientFrame, type ServerFrame } from './live.frames';
import { TaskFeed } from './task.feed';
import type { WorkspaceFeedHub } from './workspace-feed.hub';
import { textOfFrame } from './ws-frame.text';

export interface LiveConnectionDependencies {
  readonly connection: MessagingConnection;
  readonly dataSource: DataSource;
  readonly authenticator: CallerAuthenticator;
  readonly workspaceFeed: WorkspaceFeedHub;
  readonly sanitize: (message: AgentMessage) => AgentMessage;
  readonly logger: JsonLogger;
  readonly limits: { readonly authWindowMs: number; readonly maxSubscriptions: number; readonly maxBufferedBytes: number };
}

/** Who a socket is, once authenticated: the caller and the token it proved it with. */
export interface LiveIdentity {
  readonly caller: Caller;
  readonly credential: LiveCredential;
}

/**
 * One client socket: authenticates (upgrade header or an `auth` frame), then serves task and
 * workspace subscriptions. A client that reads too slowly is disconnected rather than buffered
 * without bound; it reconnects with its last seq and loses nothing. It remembers the token it
 * authenticated with, so revoking that token closes it (`revoke`).
 */
export class LiveConnection {
  private caller: Caller | undefined;
  private tokenCredential: LiveCredential | undefined;
  private readonly feeds = new Map<string, TaskFeed>();
  private stopWorkspaceFeed: (() => void) | undefined;
  private readonly authTimer: NodeJS.Timeout;

  constructor(
    private readonly socket: WebSocket,
    private readonly dependencies: LiveConnectionDependencies,
    private readonly peer: { readonly clientAddress: string | undefined; readonly authenticated: LiveIdentity | undefined },
  ) {
    this.authTimer = setTimeout(() => {
      if (!this.caller) socket.close(LIVE_CLOSE_CODES.unauthenticated, 'no valid API token');
    }, dependencies.limits.authWindowMs);
    if (peer.authenticated) this.accept(peer.authenticated);
    socket.on('message', (data, isBinary) => {
      // A frame whose handling fails (the database away) costs that frame, not the gateway.
      this.receive(isBinary ? undefined : textOfFrame(data)).catch((error: unknown) => dependencies.logger.warn({ event: 'live_frame_failed', err: error }, 'live frame could not be handled'));
    });
    socket.on('close', () => void this.close());
    socket.on('error', () => void this.close());
  }

  /** The token this socket authenticated with; undefined until it has. */
  get credential(): LiveCredential | undefined {
    return this.tokenCredential;
  }

  /** Its token was revoked: the client must not go on with it. */
  revoke(): void {
    this.socket.close(LIVE_CLOSE_CODES.tokenRevoked, 'token_revoked');
  }

  private accept(identity: LiveIdentity): void {
    this.caller = identity.caller;
    this.tokenCredential = identity.credential;
    clearTimeout(this.authTimer);
    this.send({ type: 'ready', workspaceId: identity.caller.workspaceId });
  }

  private async receive(text: string | undefined): Promise<void> {
    let frame: ClientFrame;
    try {
      const parsed = clientFrameSchema.safeParse(text === undefined ? undefined : JSON.parse(text));
      if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
      frame = parsed.data;
    } catch (error) {
      this.send({ type: 'error', code: 'bad_frame', message: `not a valid frame: ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    if (frame.type === 'ping') return this.send({ type: 'pong' });
    if (frame.type === 'auth') return this.authenticate(frame.token);
    if (!this.caller) return this.send({ type: 'error', code: 'unauthenticated', message: 'send an auth frame first' });
    // Every live frame reads tasks: a token whose scopes leave that out reads nothing here either.
    if (this.caller.kind === 'member' && !callerHolds(this.caller, 'tasks:read')) {
      return this.send({ type: 'error', code: 'token_scope_insufficient', message: 'this API token’s scopes do not include tasks:read' });
    }
    switch (frame.type) {
      case 'subscribe':
        return this.subscribe(this.caller, frame.taskId, frame.afterSeq);
      case 'unsubscribe':
        await this.feeds.get(frame.taskId)?.stop();
        this.feeds.delete(frame.taskId);
        return this.send({ type: 'unsubscribed', taskId: frame.taskId });
      case 'subscribe_workspace': {
        const workspaceId = this.caller.workspaceId;
        this.stopWorkspaceFeed ??= this.dependencies.workspaceFeed.listen(workspaceId, (frame) => this.send(frame));
        return this.send({ type: 'subscribed_workspace', workspaceId });
      }
    }
  }

  private async authenticate(token: string): Promise<void> {
    const authentication = await this.dependencies.authenticator.authenticate({ token, clientAddress: this.peer.clientAddress });
    switch (authentication.outcome) {
      case 'accepted':
        return this.accept(authentication);
      case 'rate_limited':
        return this.socket.close(LIVE_CLOSE_CODES.authRateLimited, `too many failed authentications; retry in ${authentication.retryAfterSeconds} s`);
      case 'refused':
        return this.socket.close(LIVE_CLOSE_CODES.unauthenticated, 'invalid API token');
    }
  }

  private async subscribe(caller: Caller, taskId: string, afterSeq: number): Promise<void> {
    // Another workspace's task is as unknown as a missing one.
    if ((await workspaceOfTask(this.dependencies.dataSource, taskId)) !== caller.workspaceId) {
      return this.send({ type: 'error', code: 'not_found', message: `no task ${taskId}`, taskId });
    }
    if (!this.feeds.has(taskId) && this.feeds.size >= this.dependencies.limits.maxSubscriptions) {
      return this.send({ type: 'error', code: 'too_many_subscriptions', message: `at most ${this.dependencies.limits.maxSubscriptions} tasks per connection`, taskId });
    }
    await this.feeds.get(taskId)?.stop();
    const feed = new TaskFeed({
      taskId,
      afterSeq,
      connection: this.dependencies.connection,
      dataSource: this.dependencies.dataSource,
      sanitize: this.dependencies.sanitize,
      send: (frame) => this.send(frame),
      onFailure: (error) => this.feedFailed(taskId, error),
    });
    this.feeds.set(taskId, feed);
    this.send({ type: 'subscribed', taskId, afterSeq });
    await feed.start().catch((error: unknown) => this.feedFailed(taskId, error));
  }

  private feedFailed(taskId: string, error: unknown): void {
    this.dependencies.logger.warn({ err: error, taskId }, 'live task feed failed');
    this.feeds.delete(taskId);
    this.send({ type: 'error', code: 'feed_failed', message: 'the feed stopped; subscribe again with your last seq', taskId });
  }

  private send(frame: ServerFrame): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > this.dependencies.limits.maxBufferedBytes) {
      this.socket.close(LIVE_CLOSE_CODES.slowConsumer, 'slow consumer: reconnect with your last seq');
      return;
    }
    this.socket.send(JSON.stringify(frame));
  }

  async close(): Promise<void> {
    clearTimeout(this.authTimer);
    this.stopWorkspaceFeed?.();
    this.stopWorkspaceFeed = undefined;
    const feeds = [...this.feeds.values()];
    this.feeds.clear();
    await Promise.all(feeds.map((feed) => feed.stop()));
  }
}
