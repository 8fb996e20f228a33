import { Inject, Injectable } from '@nestjs/common';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.injection-keys';
import { ApiError } from '../../workspace/common/api-error';
import type { MemberCaller, TaskCaller } from '../../workspace/common/caller';
import { MembersRepository } from '../../workspace/people/members.repository';
import { SessionsRepository, type LiveSession } from '../../workspace/people/sessions.repository';
import { hashApiToken } from '../../workspace/tokens/api-token.codec';
import { ApiTokenVerifier } from './api-token.verifier';
import { clientKeyOf } from './client-address';
import { FailedAuthLimiter } from './failed-auth.limiter';
import { TaskTokenVerifier } from './task-token.verifier';

/** Client addresses whose failures are remembered at once: a bound on memory under a spray of addresses. */
const TRACKED_CLIENTS = 10_000;

/** What a presented token earns: who is calling, or why not. */
export type Authentication =
  | { readonly outcome: 'accepted'; readonly caller: MemberCaller; readonly credential: LiveCredential }
  | { readonly outcome: 'refused' }
  | { readonly outcome: 'rate_limited'; readonly retryAfterSeconds: number };

export type SecretCheck<T> =
  | { readonly outcome: 'accepted'; readonly value: T }
  | { readonly outcome: 'refused' }
  | { readonly outcome: 'rate_limited'; readonly retryAfterSeconds: number };

/** What a caller authenticated with, as a live connection remembers it to recheck it (never the secret). */
export type LiveCredential = { readonly kind: 'api_token'; readonly tokenId: string; readonly tokenHash: string } | { readonly kind: 'session'; readonly sessionId: string };

/**
 * The one way in for REST and the WebSocket alike: an API token, a task token or a session cookie
 * is verified only while its client address has not failed too often (`GATEWAY_AUTH_FAILURE_LIMIT`
 * per `GATEWAY_AUTH_FAILURE_WINDOW_MS`). No credential at all is refused without counting: there
 * is nothing being guessed.
 */
@Injectable()
export class CallerAuthenticator {
  private readonly limiter: FailedAuthLimiter;

  constructor(
    private readonly verifier: ApiTokenVerifier,
    private readonly taskTokens: TaskTokenVerifier,
    private readonly sessions: SessionsRepository,
    private readonly members: MembersRepository,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.limiter = new FailedAuthLimiter({ maxFailures: config.GATEWAY_AUTH_FAILURE_LIMIT, windowMs: config.GATEWAY_AUTH_FAILURE_WINDOW_MS, maxClients: TRACKED_CLIENTS });
  }

  async authenticate(options: { readonly token: string | undefined; readonly clientAddress: string | undefined }): Promise<Authentication> {
    const token = options.token;
    if (!token) return { outcome: 'refused' };
    const checked = await this.checkSecret(options.clientAddress, () => this.verifier.verify(token));
    if (checked.outcome !== 'accepted') return checked;
    return { outcome: 'accepted', caller: checked.value, credential: { kind: 'api_token', tokenId: checked.value.credential.tokenId, tokenHash: hashApiToken(token) } };
  }

  /** A session cookie's secret, under the same failure count: an unknown, revoked or expired one is refused. */
  authenticateSession(options: { readonly token: string; readonly clientAddress: string | undefined }): Promise<SecretCheck<LiveSession>> {
    return this.checkSecret(options.clientAddress, () => this.sessions.find(options.token));
  }

  /**
   * The signed-in user acting in a workspace: the one they name (`X-Switchyard-Workspace`), or
   * their only one. 400 `workspace_required` when they name none and belong to several (or none),
   * 403 `not_a_member` when they name one they do not belong to.
   */
  async memberOf(options: { readonly session: LiveSession; readonly workspaceId: string | undefined }): Promise<MemberCaller> {
    const { session } = options;
    let workspaceId = options.workspaceId;
    if (workspaceId === undefined) {
      const memberships = await this.members.membershipsOf(session.userId);
      if (memberships.length !== 1) throw new ApiError('workspace_required', `you belong to ${memberships.length} workspaces: name one with the X-Switchyard-Workspace header`);
      workspaceId = memberships[0]!.workspaceId;
    }
    const role = await this.members.roleOf(workspaceId, session.userId);
    if (!role) throw new ApiError('not_a_member', `you are not a member of workspace ${workspaceId}`);
    return { kind: 'member', workspaceId, userId: session.userId, role, credential: { kind: 'session', sessionId: session.sessionId } };
  }

  /** A task token (`syt_...`), under the same failure count: one whose attempt is not live is refused. */
  authenticateTask(options: { readonly token: string; readonly clientAddress: string | undefined }): Promise<SecretCheck<TaskCaller>> {
    return this.checkSecret(options.clientAddress, () => this.taskTokens.verify(options.token));
  }

  /**
   * Any presented secret (an API token, a daemon enrollment token) under the same failure count
   * per client address: `verify` is called only while the address is admitted, and what it
   * refuses (undefined) counts as a failure.
   */
  async checkSecret<T>(clientAddress: string | undefined, verify: () => Promise<T | undefined>): Promise<SecretCheck<T>> {
    const attempt = this.limiter.admit(clientKeyOf(clientAddress));
    if (!attempt.admitted) return { outcome: 'rate_limited', retryAfterSeconds: attempt.retryAfterSeconds };
    let value: T | undefined;
    try {
      value = await verify();
    } catch (error) {
      // The database did not answer: that says nothing about the secret, so it counts against no one.
      attempt.forgive();
      throw error;
    }
    if (value === undefined) {
      attempt.failed();
      return { outcome: 'refused' };
    }
    attempt.forgive();
    return { outcome: 'accepted', value };
  }
}
