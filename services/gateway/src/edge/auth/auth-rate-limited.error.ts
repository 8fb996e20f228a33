import { ApiError } from '../../workspace/common/api-error';

/** 429 for a client address that failed authentication too often; `Retry-After` says when to try again. */
export class AuthRateLimitedError extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super('auth_rate_limited', `too many failed authentications from this address; retry in ${retryAfterSeconds} s`, { retryAfterSeconds });
  }

  override responseHeaders(): Readonly<Record<string, string>> {
    return { 'Retry-After': String(this.retryAfterSeconds) };
  }
}
