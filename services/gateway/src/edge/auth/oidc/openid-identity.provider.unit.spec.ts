import { AuthorizationResponseError, ClientError, ResponseBodyError } from 'openid-client';
import { IdentityProviderError } from './identity-provider';
import { safeReasonOf } from './openid-identity.provider';

/** An error as oauth4webapi makes it for a failed check: a fixed message, the values in its cause. */
function failedCheck(message: string, values: unknown): Error {
  const error = new Error(message, { cause: values });
  error.name = 'OperationProcessingError';
  return error;
}

describe('the reason an OIDC step failed, as it is answered and logged', () => {
  it('names the check that failed, never the values it compared', () => {
    const wrapped = new ClientError('unexpected JWT claim value encountered', { cause: failedCheck('unexpected JWT "nonce" (nonce) claim value', { claims: { nonce: 'n-secret', email: 'ada@example.com' } }) });

    expect(safeReasonOf(wrapped)).toBe('unexpected JWT claim value encountered: unexpected JWT "nonce" (nonce) claim value');
  });

  it('leaves out a cause that is not one of the library’s checks (a parser quoting a body, a response)', () => {
    const parsed = new ClientError('something went wrong', { cause: new SyntaxError('Unexpected token in JSON: {"access_token":"at-secret"') });

    expect(safeReasonOf(parsed)).toBe('something went wrong');
  });

  it('gives the OAuth error code of a refusal, and nothing the callback URL made up', () => {
    const tokenRefusal = new ResponseBodyError('server responded with an error in the response body', {
      cause: { error: 'invalid_grant', error_description: 'grant request is invalid' },
      response: new Response(null, { status: 400 }),
    });
    const cancelled = new AuthorizationResponseError('authorization response from the server is an error', { cause: new URLSearchParams({ error: 'access_denied' }) });
    const forged = new AuthorizationResponseError('authorization response from the server is an error', { cause: new URLSearchParams({ error: '<script>alert(1)</script>' }) });

    expect([tokenRefusal, cancelled, forged].map(safeReasonOf)).toEqual(['the provider refused the request: invalid_grant', 'the provider answered access_denied', 'the provider answered an error']);
  });

  it('says when the provider could not be reached or did not answer in time, wrapped or not', () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });
    const timedOut = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });

    expect(safeReasonOf(new ClientError('something went wrong', { cause: refused }))).toBe('the identity provider could not be reached (ECONNREFUSED)');
    expect(safeReasonOf(timedOut)).toBe('the identity provider did not answer in time');
  });

  it('repeats the gateway’s own refusals, and only the name of anything else', () => {
    expect(safeReasonOf(new IdentityProviderError('the provider sent no ID token'))).toBe('the provider sent no ID token');
    expect(safeReasonOf(new RangeError('token at-secret out of range'))).toBe('unexpected RangeError');
  });
});
