import type { UserView } from './people.schemas';
import { normalizeEmail } from './users.repository';

/**
 * Who an identity provider says signed in, after the protocol checks passed (state, nonce, PKCE, ID
 * token): the provider's issuer identifier and its stable subject, and what it vouches for.
 */
export interface ExternalIdentity {
  /** The ID token's `iss`: the provider, exactly as it names itself. */
  readonly issuer: string;
  /** The ID token's `sub`: stable per person at that issuer, unlike an email. */
  readonly subject: string;
  readonly email: string | undefined;
  /** True only when the provider says it verified the email (`email_verified`). */
  readonly emailVerified: boolean;
  readonly name: string | undefined;
}

/** What the gateway knows, read before deciding. */
export interface ExternalIdentityFacts {
  /** The account this (issuer, subject) is linked to: an active one, one that is disabled, or none. */
  readonly linked: { readonly kind: 'active'; readonly user: UserView } | { readonly kind: 'disabled' } | { readonly kind: 'none' };
  /** The active account with the identity's email, if any, and whether it has another identity at this issuer. */
  readonly accountWithEmail: { readonly user: UserView; readonly linkedAtIssuer: boolean } | undefined;
  /** `GATEWAY_OIDC_CREATE_ACCOUNTS`. */
  readonly createAccounts: boolean;
}

export type ExternalSignInDecision =
  | { readonly kind: 'sign_in'; readonly user: UserView }
  | { readonly kind: 'link'; readonly user: UserView }
  | { readonly kind: 'create'; readonly email: string; readonly displayName: string }
  | { readonly kind: 'refuse'; readonly reason: string };

const DISPLAY_NAME_MAX_LENGTH = 100;

/**
 * Which account an external identity signs in. The provider must vouch for the email in every
 * case: an unverified address proves nothing, and a known identity whose provider stopped vouching
 * is refused too rather than half-trusted. Then: a linked identity signs in its account; else the
 * active account with that email is linked (unless it already has another identity at this
 * issuer: a recycled address must not take over an account); else a new account, when the
 * gateway creates them; else a refusal, since people join by invitation.
 */
export function decideExternalSignIn(identity: ExternalIdentity, facts: ExternalIdentityFacts): ExternalSignInDecision {
  if (identity.email === undefined || identity.email.trim() === '') return { kind: 'refuse', reason: 'the identity provider gave no email address' };
  if (!identity.emailVerified) return { kind: 'refuse', reason: `the identity provider does not vouch for the email ${normalizeEmail(identity.email)} (email_verified is not true)` };
  if (facts.linked.kind === 'active') return { kind: 'sign_in', user: facts.linked.user };
  if (facts.linked.kind === 'disabled') return { kind: 'refuse', reason: 'the account linked to this identity is disabled' };
  const email = normalizeEmail(identity.email);
  if (facts.accountWithEmail) {
    if (facts.accountWithEmail.linkedAtIssuer) return { kind: 'refuse', reason: `the account ${email} is linked to another identity of this provider` };
    return { kind: 'link', user: facts.accountWithEmail.user };
  }
  if (!facts.createAccounts) return { kind: 'refuse', reason: `no account has the email ${email}: people join by invitation (ask a workspace admin for one)` };
  return { kind: 'create', email, displayName: displayNameOf(identity.name, email) };
}

/** The provider's name for the person, else the email's local part; bounded like a name typed in. */
function displayNameOf(name: string | undefined, email: string): string {
  const trimmed = name?.trim();
  const chosen = trimmed !== undefined && trimmed !== '' ? trimmed : email.split('@')[0]!;
  return chosen.slice(0, DISPLAY_NAME_MAX_LENGTH);
}
