import type { GatewayConfig } from '../../gateway.config';
import type { OpenedSession } from '../../workspace/people/sessions.repository';
import { clearedSessionCookies, sessionCookies } from './session.cookies';

/** What a response that sets cookies needs of Express's. */
export interface CookieResponse {
  setHeader(name: string, value: string[]): unknown;
}

export interface CookieRequest {
  readonly protocol?: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** Secure when the setting says so, or (`auto`) when the request came over HTTPS, directly or through the proxy in front. */
export function cookiesAreSecure(config: Pick<GatewayConfig, 'GATEWAY_COOKIE_SECURE'>, request: CookieRequest): boolean {
  if (config.GATEWAY_COOKIE_SECURE !== 'auto') return config.GATEWAY_COOKIE_SECURE === 'true';
  const forwarded = request.headers['x-forwarded-proto'];
  return request.protocol === 'https' || (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() === 'https';
}

export function setSessionCookies(options: { readonly response: CookieResponse; readonly request: CookieRequest; readonly config: Pick<GatewayConfig, 'GATEWAY_COOKIE_SECURE'>; readonly session: OpenedSession }): void {
  const { session } = options;
  options.response.setHeader('Set-Cookie', sessionCookies({ token: session.token, csrfToken: session.csrfToken, expiresAt: session.expiresAt, secure: cookiesAreSecure(options.config, options.request) }));
}

export function clearSessionCookies(options: { readonly response: CookieResponse; readonly request: CookieRequest; readonly config: Pick<GatewayConfig, 'GATEWAY_COOKIE_SECURE'> }): void {
  options.response.setHeader('Set-Cookie', clearedSessionCookies(cookiesAreSecure(options.config, options.request)));
}
