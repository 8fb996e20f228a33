import { randomBytes } from 'node:crypto';
import { serialize } from 'cookie';
import { z } from 'zod';
import type { SecretKeyring } from '@switchyard/persistence';
import type { PendingSignIn } from './identity-provider';

/** The sealed secrets of one sign-in, from its start to its callback. */
export const OIDC_STATE_COOKIE = 'switchyard_oidc';
/** Long enough to sign in at the provider (and maybe register a second factor), short enough to be worth little if lifted. */
export const OIDC_STATE_TTL_MS = 10 * 60_000;
/** Authenticated with the sealed value: a value sealed for anything else (an agent's secret) does not open here. */
const SEALING_PURPOSE = 'oidc sign-in state';
const CALLBACK_SUFFIX = '/callback';

const sealedStateSchema = z.strictObject({
  state: z.string().min(1),
  nonce: z.string().min(1),
  codeVerifier: z.string().min(43).max(128),
  redirectUri: z.url(),
  expiresAt: z.number().int(),
});

/** 32 random bytes as base64url: 43 characters, which is also a valid PKCE verifier (43 to 128). */
const randomSecret = (): string => randomBytes(32).toString('base64url');

/** A fresh state, nonce and PKCE verifier for one sign-in returning to `redirectUri`. */
export function newPendingSignIn(redirectUri: string): PendingSignIn {
  return { state: randomSecret(), nonce: randomSecret(), codeVerifier: randomSecret(), redirectUri };
}

/**
 * Only the start and the callback need the cookie: it goes to the folder of the callback (under
 * the public URL's path, if it has one), not to every request.
 */
function cookiePathOf(redirectUri: string): string {
  const path = new URL(redirectUri).pathname;
  return path.endsWith(CALLBACK_SUFFIX) ? path.slice(0, -CALLBACK_SUFFIX.length) || '/' : '/';
}

/**
 * `Set-Cookie` keeping a sign-in's secrets in the browser, sealed (AES-256-GCM) with the gateway's
 * keyring (`GATEWAY_SECRET_KEYS`): unreadable and unforgeable by the browser, and opened by any
 * replica sharing the keys, so no server-side state is needed. HttpOnly; SameSite=Lax, since the
 * provider sends the browser back with a top-level GET; expiring with the sign-in, which the sealed
 * `expiresAt` enforces whatever the browser does with Max-Age.
 */
export function stateCookie(options: { readonly keyring: SecretKeyring; readonly pending: PendingSignIn; readonly now: Date; readonly secure: boolean }): string {
  const sealed = options.keyring.seal(SEALING_PURPOSE, JSON.stringify({ ...options.pending, expiresAt: options.now.getTime() + OIDC_STATE_TTL_MS }));
  return serialize(OIDC_STATE_COOKIE, sealed, {
    httpOnly: true,
    sameSite: 'lax',
    secure: options.secure,
    path: cookiePathOf(options.pending.redirectUri),
    maxAge: OIDC_STATE_TTL_MS / 1000,
  });
}

/** `Set-Cookie` removing the state: a callback spends it, whatever its outcome. */
export function clearedStateCookie(options: { readonly redirectUri: string; readonly secure: boolean }): string {
  return serialize(OIDC_STATE_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: options.secure, path: cookiePathOf(options.redirectUri), expires: new Date(0) });
}

/** The sign-in the cookie carries, or why it cannot be used (missing, altered, sealed under a key not configured, expired). */
export function openStateCookie(options: { readonly keyring: SecretKeyring; readonly value: string | undefined; readonly now: Date }): { readonly pending: PendingSignIn } | { readonly refusal: string } {
  if (options.value === undefined || options.value === '') return { refusal: 'no sign-in was started in this browser (the switchyard_oidc cookie is missing); start again' };
  let opened: z.infer<typeof sealedStateSchema>;
  try {
    opened = sealedStateSchema.parse(JSON.parse(options.keyring.open(SEALING_PURPOSE, options.value)));
  } catch {
    return { refusal: 'the sign-in state cookie is altered or sealed under another key; start again' };
  }
  if (opened.expiresAt <= options.now.getTime()) return { refusal: 'the sign-in took longer than 10 minutes; start again' };
  const { expiresAt: _expiresAt, ...pending } = opened;
  return { pending };
}
