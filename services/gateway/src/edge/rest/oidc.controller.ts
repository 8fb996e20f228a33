import { AuditTrail } from '../../workspace/audit/audit.trail';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { SecretKeyring } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG, GATEWAY_LOGGER, GATEWAY_SECRET_KEYRING } from '../../gateway.injection-keys';
import { ApiError } from '../../workspace/common/api-error';
import { AccountService } from '../../workspace/people/account.service';
import { UserIdentitiesRepository, type ExternalSignIn } from '../../workspace/people/user-identities.repository';
import { Public } from '../auth/access.decorators';
import { AuthRateLimitedError } from '../auth/auth-rate-limited.error';
import { CallerAuthenticator } from '../auth/caller.authenticator';
import { IDENTITY_PROVIDER, IdentityProviderError, type ExternalIdentity, type IdentityProvider } from '../auth/oidc/identity-provider';
import { OIDC_STATE_COOKIE, clearedStateCookie, newPendingSignIn, openStateCookie, stateCookie } from '../auth/oidc/oidc-state.cookie';
import { cookiesOf } from '../auth/session.cookies';
import { cookiesAreSecure, setSessionCookies, type CookieRequest, type CookieResponse } from '../auth/session-cookie.writer';
import { ApiErrorResponses } from '../http/openapi';
import { publicBaseOf } from './members.controller';

export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';

type OidcRequest = CookieRequest & { readonly url: string; readonly originalUrl?: string; readonly socket: { readonly remoteAddress?: string } };
type RedirectResponse = CookieResponse & { redirect(status: number, url: string): void; append(name: string, value: string): unknown };

/** The query of the URL the browser was sent back to (`?code=...&state=...&iss=...`), as it came. */
function queryOf(request: OidcRequest): string {
  const url = request.originalUrl ?? request.url;
  const start = url.indexOf('?');
  return start === -1 ? '' : url.slice(start);
}

/**
 * Signing in with an OpenID Connect provider (docs/architecture/people-oidc.md): the start sends
 * the browser to the provider with a fresh state, nonce and PKCE challenge (their secrets sealed in
 * the `switchyard_oidc` cookie); the callback verifies the provider's answer, finds, links or makes
 * the account, opens a session like a password sign-in and goes to the web app. Without
 * GATEWAY_OIDC_* both answer 404 `oidc_unavailable`; every failed callback is 401 `oidc_failed`
 * and counts against the client address like a bad password.
 */
@ApiTags('account')
@Controller()
export class OidcController {
  constructor(
    @Inject(IDENTITY_PROVIDER) private readonly provider: IdentityProvider | null,
    private readonly identities: UserIdentitiesRepository,
    private readonly account: AccountService,
    private readonly authenticator: CallerAuthenticator,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_SECRET_KEYRING) private readonly keyring: SecretKeyring,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
    private readonly audit: AuditTrail,
  ) {}

  @Get('api/auth/oidc/start')
  @Public('it is where a sign-in with the identity provider begins; nothing is granted before its callback verifies')
  @ApiOperation({ summary: 'Sign in with the OpenID Connect provider: redirects (303) to it, with the sign-in’s sealed state in the `switchyard_oidc` cookie (HttpOnly, SameSite=Lax, 10 minutes)' })
  @ApiResponse({ status: 303, description: 'To the provider’s authorization endpoint' })
  @ApiErrorResponses('oidc_unavailable', 'oidc_failed')
  async start(@Req() request: OidcRequest, @Res() response: RedirectResponse): Promise<void> {
    const provider = this.configuredProvider();
    const pending = newPendingSignIn(this.redirectUriOf(request));
    let authorizationUrl: URL;
    try {
      authorizationUrl = await provider.authorizationUrl(pending);
    } catch (error) {
      throw this.failure(reasonOf(error));
    }
    response.setHeader('Set-Cookie', [stateCookie({ keyring: this.keyring, pending, now: new Date(), secure: cookiesAreSecure(this.config, request) })]);
    response.redirect(303, authorizationUrl.href);
  }

  @Get('api/auth/oidc/callback')
  @Public('the provider’s answer, checked against the sealed state of this browser’s sign-in, is its credential; failures count against the address')
  @ApiOperation({ summary: 'Where the OpenID Connect provider sends the browser back: verifies its answer, signs in (session and CSRF cookies) and redirects (303) to the web app' })
  @ApiResponse({ status: 303, description: 'Signed in: to `/`, with the session cookies' })
  @ApiErrorResponses('oidc_unavailable', 'oidc_failed')
  async callback(@Req() request: OidcRequest, @Res() response: RedirectResponse): Promise<void> {
    const provider = this.configuredProvider();
    const secure = cookiesAreSecure(this.config, request);
    const cleared = clearedStateCookie({ redirectUri: this.redirectUriOf(request), secure });
    // The state is spent whatever the outcome: one callback per start.
    response.setHeader('Set-Cookie', [cleared]);
    let refusal = 'the sign-in could not be completed';
    const checked = await this.authenticator.checkSecret(request.socket.remoteAddress, async () => {
      const signIn = await this.signInFrom(provider, request);
      if (signIn.outcome !== 'refused') return signIn;
      refusal = signIn.reason;
      return undefined;
    });
    if (checked.outcome === 'rate_limited') throw new AuthRateLimitedError(checked.retryAfterSeconds);
    if (checked.outcome === 'refused') throw this.failure(refusal);
    const { outcome, user } = checked.value;
    this.logger.info({ event: 'oidc_signed_in', outcome, userId: user.id }, 'signed in with the identity provider');
    if (outcome === 'linked' || outcome === 'created') {
      await this.audit.record({ workspaceId: null, actor: { kind: 'user', id: user.id }, action: outcome === 'linked' ? 'user.identity_linked' : 'user.account_created', target: { kind: 'user', id: user.id }, details: { how: 'oidc' } });
    }
    const session = await this.account.openSession(checked.value.user, 'oidc');
    setSessionCookies({ response, request, config: this.config, session });
    response.append('Set-Cookie', cleared);
    response.redirect(303, '/');
  }

  /** The account the provider's answer signs in, or why not; a database failure throws (and counts against no one). */
  private async signInFrom(provider: IdentityProvider, request: OidcRequest): Promise<ExternalSignIn> {
    const cookie = typeof request.headers['cookie'] === 'string' ? request.headers['cookie'] : undefined;
    const opened = openStateCookie({ keyring: this.keyring, value: cookiesOf(cookie)[OIDC_STATE_COOKIE], now: new Date() });
    if ('refusal' in opened) return { outcome: 'refused', reason: opened.refusal };
    let identity: ExternalIdentity;
    try {
      // The redirect URI is the one the sign-in started with (sealed), whichever replica or host answers now.
      identity = await provider.complete({ ...opened.pending, callbackUrl: `${opened.pending.redirectUri}${queryOf(request)}` });
    } catch (error) {
      return { outcome: 'refused', reason: reasonOf(error) };
    }
    return this.identities.signIn(identity, { createAccounts: this.config.GATEWAY_OIDC_CREATE_ACCOUNTS });
  }

  /**
   * `<GATEWAY_PUBLIC_URL or the request's origin>/api/auth/oidc/callback`, in the URL's normal form
   * (openid-client sends the callback's normal form at the code exchange; the provider compares).
   */
  private redirectUriOf(request: OidcRequest): string {
    return new URL(`${publicBaseOf(this.config, request)}${OIDC_CALLBACK_PATH}`).href;
  }

  private configuredProvider(): IdentityProvider {
    if (!this.provider) throw new ApiError('oidc_unavailable', 'no OpenID Connect provider is configured (GATEWAY_OIDC_ISSUER, GATEWAY_OIDC_CLIENT_ID, GATEWAY_OIDC_CLIENT_SECRET)');
    return this.provider;
  }

  /** 401 `oidc_failed`, logged with its reason (never a token, a code or a claim: reasons name the check that failed). */
  private failure(reason: string): ApiError {
    this.logger.warn({ event: 'oidc_sign_in_refused', reason }, 'a sign-in with the identity provider was refused');
    return new ApiError('oidc_failed', `signing in with the identity provider failed: ${reason}`);
  }
}

/** An implementation's own refusal says why; anything else it throws is not repeated (it could carry what it read). */
function reasonOf(error: unknown): string {
  return error instanceof IdentityProviderError ? error.message : `the identity provider failed unexpectedly (${error instanceof Error ? error.name : typeof error})`;
}
