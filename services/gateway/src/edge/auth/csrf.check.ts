import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../workspace/common/api-error';
import type { LiveSession } from '../../workspace/people/sessions.repository';
import { hashSecretToken } from '../../workspace/people/secret-token';
import { CSRF_HEADER } from './session.cookies';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface CsrfRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * Why a cookie-authenticated request may not go on, or undefined: its unsafe methods must carry the
 * session's CSRF token in `X-CSRF-Token` (a page of another site can make the browser send the
 * cookie, never read the token), and a request that names its `Origin` must come from this
 * gateway's own (its Host, or `GATEWAY_PUBLIC_URL`). Pure, so every rule is tested without HTTP.
 */
export function csrfRefusal(options: { readonly request: CsrfRequest; readonly session: Pick<LiveSession, 'csrfHash'>; readonly publicUrl: string | undefined }): ApiError | undefined {
  const { request } = options;
  const origin = first(request.headers['origin']);
  if (origin !== undefined && !isOwnOrigin(origin, first(request.headers['host']), options.publicUrl)) {
    return new ApiError('csrf_failed', `requests with a session cookie must come from this gateway’s origin, not ${origin}`);
  }
  if (SAFE_METHODS.has(request.method.toUpperCase())) return undefined;
  const token = first(request.headers[CSRF_HEADER]);
  if (!token) return new ApiError('csrf_failed', 'a signed-in session must send its CSRF token as the X-CSRF-Token header');
  const presented = Buffer.from(hashSecretToken(token), 'hex');
  const expected = Buffer.from(options.session.csrfHash, 'hex');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return new ApiError('csrf_failed', 'the X-CSRF-Token header is not this session’s');
  return undefined;
}

function isOwnOrigin(origin: string, host: string | undefined, publicUrl: string | undefined): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (publicUrl !== undefined && new URL(publicUrl).origin === parsed.origin) return true;
  return host !== undefined && parsed.host === host;
}
