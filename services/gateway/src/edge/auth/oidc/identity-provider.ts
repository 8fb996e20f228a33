import type { ExternalIdentity } from '../../../workspace/people/external-sign-in.decider';

export type { ExternalIdentity } from '../../../workspace/people/external-sign-in.decider';

/**
 * The secrets one sign-in carries from its start to its callback. The gateway makes them (random,
 * one set per start), keeps them sealed in the browser's `switchyard_oidc` cookie, and hands them
 * back to the provider on the callback; a provider never stores them.
 */
export interface PendingSignIn {
  /** Sent as `state`; the callback must bring it back unchanged (it binds the answer to this browser). */
  readonly state: string;
  /** Sent as `nonce`; the ID token must carry it (it binds the token to this request). */
  readonly nonce: string;
  /** PKCE: its S256 challenge goes with the request, the verifier itself with the code exchange. */
  readonly codeVerifier: string;
  /** Where the provider sends the browser back: `<public URL or request origin>/api/auth/oidc/callback`. */
  readonly redirectUri: string;
}

/**
 * The extension point for signing in with an external identity provider. The gateway owns the
 * flow around it (the routes, the sealed state cookie, the failure count per client address, the
 * account decision and the session); an implementation only speaks its provider's protocol:
 *
 * 1. `authorizationUrl` builds where the browser goes to sign in, carrying `state`, `nonce` and
 *    the PKCE challenge of `codeVerifier`, and returning to `redirectUri`;
 * 2. `complete` takes the URL the provider sent the browser back to, checks it (state, the
 *    provider's error answer), exchanges the code (with the verifier) and verifies what it gets
 *    (ID token signature, issuer, audience, expiry, nonce), then says who signed in.
 *
 * Whatever does not verify throws `IdentityProviderError` with a reason safe to show and log (never
 * a token, a code or a claim value). The gateway answers it 401 `oidc_failed`.
 *
 * `OpenIdIdentityProvider` (openid-identity.provider.ts) is the implementation over any OpenID
 * Connect provider with discovery; another (an OAuth-only provider with its own user API, say)
 * would implement the same two methods and be provided under `IDENTITY_PROVIDER`.
 */
export interface IdentityProvider {
  authorizationUrl(pending: PendingSignIn): Promise<URL>;
  complete(options: PendingSignIn & { readonly callbackUrl: string }): Promise<ExternalIdentity>;
}

/** The configured provider, or null when none is (GATEWAY_OIDC_* unset): the routes then answer 404 `oidc_unavailable`. */
export const IDENTITY_PROVIDER = Symbol.for('switchyard.gateway.identity-provider');

/** A sign-in the provider's answer does not support; `message` is safe to return and log. */
export class IdentityProviderError extends Error {
  override readonly name = 'IdentityProviderError';
}
