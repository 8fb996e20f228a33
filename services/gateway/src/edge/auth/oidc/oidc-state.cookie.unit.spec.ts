import { parse } from 'cookie';
import { generateSecretKey, parseSecretKeys, secretKeyring } from '@switchyard/persistence';
import { OIDC_STATE_COOKIE, clearedStateCookie, newPendingSignIn, openStateCookie, stateCookie } from './oidc-state.cookie';

const keyring = secretKeyring(parseSecretKeys(generateSecretKey()));
const startedAt = new Date('2026-03-01T10:00:00.000Z');
const later = (minutes: number): Date => new Date(startedAt.getTime() + minutes * 60_000);
const pending = newPendingSignIn('https://switchyard.example.com/api/auth/oidc/callback');

/** The cookie's value as the browser sends it back. */
const valueOf = (setCookie: string): string | undefined => parse(setCookie.split(';')[0]!)[OIDC_STATE_COOKIE];

describe('the sealed OIDC sign-in state cookie', () => {
  it('given a fresh sign-in, makes a state, a nonce and a PKCE verifier of 43 url-safe characters each, all different', () => {
    expect(pending.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pending.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pending.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([pending.state, pending.nonce, pending.codeVerifier, newPendingSignIn(pending.redirectUri).state]).size).toBe(4);
  });

  it('seals the sign-in so that it opens within 10 minutes, and shows nothing of it to the browser', () => {
    const setCookie = stateCookie({ keyring, pending, now: startedAt, secure: true });

    expect(setCookie).not.toContain(pending.state);
    expect(setCookie).not.toContain(pending.codeVerifier);
    expect(setCookie).toMatch(/; Max-Age=600; Path=\/api\/auth\/oidc; HttpOnly; Secure; SameSite=Lax$/);
    expect(openStateCookie({ keyring, value: valueOf(setCookie), now: later(9) })).toEqual({ pending });
  });

  it('refuses it after 10 minutes whatever the browser kept', () => {
    const value = valueOf(stateCookie({ keyring, pending, now: startedAt, secure: false }));

    expect(openStateCookie({ keyring, value, now: later(10) })).toEqual({ refusal: 'the sign-in took longer than 10 minutes; start again' });
  });

  it('refuses an altered value, one sealed under another key, one sealed for another purpose, and none at all', () => {
    const value = valueOf(stateCookie({ keyring, pending, now: startedAt, secure: false }))!;
    const altered = `${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`;
    const otherKeys = valueOf(stateCookie({ keyring: secretKeyring(parseSecretKeys(generateSecretKey())), pending, now: startedAt, secure: false }));
    const otherPurpose = keyring.seal('agent env', JSON.stringify({ ...pending, expiresAt: later(5).getTime() }));

    for (const forged of [altered, otherKeys, otherPurpose, 'sealed:v2:nothing:here']) {
      expect(openStateCookie({ keyring, value: forged, now: later(1) })).toEqual({ refusal: 'the sign-in state cookie is altered or sealed under another key; start again' });
    }
    expect(openStateCookie({ keyring, value: undefined, now: later(1) })).toMatchObject({ refusal: expect.stringContaining('cookie is missing') });
  });

  it('scopes the cookie to the callback folder under the public URL’s path, and clears it there', () => {
    const underPath = newPendingSignIn('https://example.com/switchyard/api/auth/oidc/callback');

    expect(stateCookie({ keyring, pending: underPath, now: startedAt, secure: true })).toContain('; Path=/switchyard/api/auth/oidc;');
    expect(clearedStateCookie({ redirectUri: underPath.redirectUri, secure: true })).toBe(
      'switchyard_oidc=; Path=/switchyard/api/auth/oidc; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    );
  });
});
