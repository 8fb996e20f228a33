import {
  AuthorizationResponseError,
  ClientError,
  ClientSecretBasic,
  ResponseBodyError,
  WWWAuthenticateChallengeError,
  allowInsecureRequests,
  authorizationCodeGrant,
  buildAuthorizationUrl,
  calculatePKCECodeChallenge,
  discovery,
  enableNonRepudiationChecks,
  fetchUserInfo,
  type Configuration,
  type IDToken,
  type UserInfoResponse,
} from 'openid-client';
import type { JsonLogger } from '@switchyard/service-kit';
import { IdentityProviderError, type ExternalIdentity, type IdentityProvider, type PendingSignIn } from './identity-provider';

/** The provider's settings (`GATEWAY_OIDC_ISSUER`, `_CLIENT_ID`, `_CLIENT_SECRET`). */
export interface OpenIdSettings {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/** What the gateway asks of the provider: who (openid), the email it vouches for, and a name. */
const SCOPE = 'openid email profile';
/** Seconds any one request to the provider may take (discovery, keys, token, userinfo). */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** OAuth error codes are short ASCII words; anything else from a callback URL is not repeated. */
const OAUTH_ERROR_CODE = /^[\w.-]{1,64}$/;

/**
 * An OpenID Connect provider through openid-client: its metadata discovered from the issuer (on
 * first use, then kept; a failed discovery is tried again on the next sign-in), the authorization
 * code flow with PKCE (S256), `state` and `nonce` checked, the client authenticated with its
 * secret (HTTP Basic, the OpenID default), and the ID token's signature verified against the
 * provider's published keys even though it comes straight from the token endpoint: an `http:`
 * issuer (a local provider) has no TLS to vouch for it.
 */
export class OpenIdIdentityProvider implements IdentityProvider {
  private configuration: Promise<Configuration> | undefined;

  constructor(
    private readonly settings: OpenIdSettings,
    private readonly logger: JsonLogger,
  ) {}

  async authorizationUrl(pending: PendingSignIn): Promise<URL> {
    const configuration = await this.discovered();
    return buildAuthorizationUrl(configuration, {
      redirect_uri: pending.redirectUri,
      scope: SCOPE,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  async complete(options: PendingSignIn & { readonly callbackUrl: string }): Promise<ExternalIdentity> {
    const configuration = await this.discovered();
    const callbackUrl = new URL(options.callbackUrl);
    // openid-client sends the callback URL without its query as redirect_uri: it must be the one the request named.
    const returnedTo = new URL(callbackUrl);
    returnedTo.search = '';
    returnedTo.hash = '';
    if (returnedTo.href !== new URL(options.redirectUri).href) throw new IdentityProviderError('the callback is not the redirect URI this sign-in started with');
    try {
      const tokens = await authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: options.codeVerifier,
        expectedState: options.state,
        expectedNonce: options.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new IdentityProviderError('the provider sent no ID token');
      // Providers that keep the ID token small (conformIdTokenClaims) give email and name at userinfo only.
      const userInfo = claims['email'] === undefined || claims['email_verified'] === undefined ? await fetchUserInfo(configuration, tokens.access_token, claims.sub) : undefined;
      return identityOf(claims, userInfo);
    } catch (error) {
      throw new IdentityProviderError(safeReasonOf(error));
    }
  }

  private discovered(): Promise<Configuration> {
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      throw new IdentityProviderError(`the identity provider's metadata could not be read: ${safeReasonOf(error)}`);
    });
    return this.configuration;
  }

  private async discover(): Promise<Configuration> {
    const issuer = new URL(this.settings.issuer);
    const insecure = issuer.protocol === 'http:';
    if (insecure) this.logger.warn({ event: 'oidc_insecure_issuer', issuer: issuer.origin }, 'the OIDC issuer is plain http: fit for a local test provider only');
    return discovery(issuer, this.settings.clientId, { client_secret: this.settings.clientSecret }, ClientSecretBasic(this.settings.clientSecret), {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      execute: insecure ? [allowInsecureRequests, enableNonRepudiationChecks] : [enableNonRepudiationChecks],
    });
  }
}

/** Who signed in: the ID token's issuer and subject, email and name from it or (as the provider chose) from userinfo. */
function identityOf(claims: IDToken, userInfo: UserInfoResponse | undefined): ExternalIdentity {
  const email = stringClaim(claims['email']) ?? stringClaim(userInfo?.email);
  const verified = claims['email_verified'] ?? userInfo?.email_verified;
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email,
    // Some providers send the flag as the string "true".
    emailVerified: verified === true || verified === 'true',
    name: stringClaim(claims['name']) ?? stringClaim(userInfo?.name),
  };
}

const stringClaim = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/**
 * Why a step failed, in words safe to answer and log: the library's messages name the check that
 * failed, never a value; their causes (which may hold claims or a response body) are left out.
 */
export function safeReasonOf(error: unknown): string {
  if (error instanceof IdentityProviderError) return error.message;
  if (error instanceof AuthorizationResponseError) return `the provider answered ${oauthErrorCodeOf(error.error)}`;
  if (error instanceof ResponseBodyError) return `the provider refused the request: ${oauthErrorCodeOf(error.error)}`;
  if (error instanceof WWWAuthenticateChallengeError) return 'the provider refused the access token';
  const transport = transportFailureOf(error);
  if (transport) return transport;
  if (error instanceof ClientError) {
    const detail = messageOf(error.cause);
    return detail === undefined ? error.message : `${error.message}: ${detail}`;
  }
  return `unexpected ${error instanceof Error ? error.name : 'failure'}`;
}

const oauthErrorCodeOf = (code: string): string => (OAUTH_ERROR_CODE.test(code) ? code : 'an error');

/**
 * The message of a cause that is oauth4webapi's own check or refusal (fixed texts naming the check,
 * e.g. `unsupported JWS algorithm` for an HS256 ID token); any other cause (a response, a parser's error quoting the body) is not repeated.
 */
function messageOf(cause: unknown): string | undefined {
  const { name, message } = typeof cause === 'object' && cause !== null ? (cause as { name?: unknown; message?: unknown }) : {};
  return (name === 'OperationProcessingError' || name === 'UnsupportedOperationError') && typeof message === 'string' ? message : undefined;
}

/**
 * A provider that could not be reached or did not answer in time. fetch's errors come wrapped (a
 * ClientError around them) and, under jest, from another realm, so they are recognised by shape.
 */
function transportFailureOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && typeof current === 'object' && current !== null; depth += 1) {
    const { name, message, cause } = current as { name?: unknown; message?: unknown; cause?: unknown };
    if (name === 'TimeoutError' || name === 'AbortError') return 'the identity provider did not answer in time';
    if (name === 'TypeError' && message === 'fetch failed') {
      const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
      return `the identity provider could not be reached${typeof code === 'string' ? ` (${code})` : ''}`;
    }
    current = cause;
  }
  return undefined;
}
