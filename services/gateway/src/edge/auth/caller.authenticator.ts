import { Inject, Injectable } from '@nestjs/common';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.injection-keys';
import type { ApiTokenCaller, TaskCaller } from '../../workspace/common/caller';
import { hashApiToken } from '../../workspace/tokens/api-token.codec';
import { ApiTokenVerifier } from './api-token.verifier';
import { clientKeyOf } from './client-address';
import { FailedAuthLimiter } from './failed-auth.limiter';
import { TaskTokenVerifier } from './task-token.verifier';

/** Client addresses whose failures are remembered at once: a bound on memory under a spray of addresses. */
const TRACKED_CLIENTS = 10_000;

/** What a presented token earns: who is calling, or why not. */
export type Authentication =
  | { readonly outcome: 'accepted'; readonly caller: ApiTokenCaller; readonly credential: TokenCredential }
  | { readonly outcome: 'refused' }
  | { readonly outcome: 'rate_limited'; readonly retryAfterSeconds: number };

export type SecretCheck<T> =
  | { readonly outcome: 'accepted'; readonly value: T }
  | { readonly outcome: 'refused' }
  | { readonly outcome: 'rate_limited'; readonly retryAfterSeconds: number };

/** The token a caller authenticated with, as a live connection remembers it (never the secret). */
export interface TokenCredential {
  readonly tokenId: string;
  readonly tokenHash: string;
}

/**
 * The one way in for REST and the WebSocket alike: a token is verified only while its client
 * address has not failed too often (`GATEWAY_AUTH_FAILURE_LIMIT` per `GATEWAY_AUTH_FAILURE_WINDOW_MS`).
 * No token at all is refused without counting: there is nothing being guessed.
 */
@Injectable()
export class ApiTokenAuthenticator {
  private readonly limiter: FailedAuthLimiter;

  constructor(
    private readonly verifier: ApiTokenVerifier,
    private readonly taskTokens: TaskTokenVerifier,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.limiter = new FailedAuthLimiter({ maxFailures: config.GATEWAY_AUTH_FAILURE_LIMIT, windowMs: config.GATEWAY_AUTH_FAILURE_WINDOW_MS, maxClients: TRACKED_CLIENTS });
  }

  async authenticate(options: { readonly token: string | undefined; readonly clientAddress: string | undefined }): Promise<Authentication> {
    const token = options.token;
    if (!token) return { outcome: 'refused' };
    const checked = await this.checkSecret(options.clientAddress, () => this.verifier.verify(token));
    if (checked.outcome !== 'accepted') return checked;
    return { outcome: 'accepted', caller: checked.value, credential: { tokenId: checked.value.tokenId, tokenHash: hashApiToken(token) } };
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
