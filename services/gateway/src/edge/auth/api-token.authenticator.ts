import { Inject, Injectable } from '@nestjs/common';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.injection-keys';
import type { Caller } from '../../workspace/common/caller';
import { hashApiToken } from '../../workspace/tokens/api-token.codec';
import { ApiTokenVerifier } from './api-token.verifier';
import { clientKeyOf } from './client-address';
import { FailedAuthLimiter } from './failed-auth.limiter';

/** Client addresses whose failures are remembered at once: a bound on memory under a spray of addresses. */
const TRACKED_CLIENTS = 10_000;

/** What a presented token earns: who is calling, or why not. */
export type Authentication =
  | { readonly outcome: 'accepted'; readonly caller: Caller; readonly credential: TokenCredential }
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
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.limiter = new FailedAuthLimiter({ maxFailures: config.GATEWAY_AUTH_FAILURE_LIMIT, windowMs: config.GATEWAY_AUTH_FAILURE_WINDOW_MS, maxClients: TRACKED_CLIENTS });
  }

  async authenticate(options: { readonly token: string | undefined; readonly clientAddress: string | undefined }): Promise<Authentication> {
    if (!options.token) return { outcome: 'refused' };
    const attempt = this.limiter.admit(clientKeyOf(options.clientAddress));
    if (!attempt.admitted) return { outcome: 'rate_limited', retryAfterSeconds: attempt.retryAfterSeconds };
    let caller: Caller | undefined;
    try {
      caller = await this.verifier.verify(options.token);
    } catch (error) {
      // The database did not answer: that says nothing about the token, so it counts against no one.
      attempt.forgive();
      throw error;
    }
    if (!caller) return { outcome: 'refused' };
    attempt.forgive();
    return { outcome: 'accepted', caller, credential: { tokenId: caller.tokenId, tokenHash: hashApiToken(options.token) } };
  }
}
