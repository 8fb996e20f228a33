import { parse, serialize } from 'cookie';

/** The session's secret: HttpOnly, so no script of the page can read it. */
export const SESSION_COOKIE = 'switchyard_session';
/** The session's CSRF token: readable by the page, which sends it back as `X-CSRF-Token`. */
export const CSRF_COOKIE = 'switchyard_csrf';
export const CSRF_HEADER = 'x-csrf-token';
/** A signed-in user names the workspace a request acts in (when they belong to more than one). */
export const WORKSPACE_HEADER = 'x-switchyard-workspace';

export function cookiesOf(header: string | undefined): Record<string, string | undefined> {
  return header ? parse(header) : {};
}

/**
 * `Set-Cookie` values opening a session: SameSite=Lax (a link from elsewhere may open a page, no
 * other site may post with it), Path=/, Secure when the request came over HTTPS (or always, by
 * setting), expiring with the session.
 */
export function sessionCookies(options: { readonly token: string; readonly csrfToken: string; readonly expiresAt: Date; readonly secure: boolean }): string[] {
  const common = { path: '/', sameSite: 'lax' as const, secure: options.secure, expires: options.expiresAt };
  return [serialize(SESSION_COOKIE, options.token, { ...common, httpOnly: true }), serialize(CSRF_COOKIE, options.csrfToken, common)];
}

export function clearedSessionCookies(secure: boolean): string[] {
  const common = { path: '/', sameSite: 'lax' as const, secure, expires: new Date(0) };
  return [serialize(SESSION_COOKIE, '', { ...common, httpOnly: true }), serialize(CSRF_COOKIE, '', common)];
}
