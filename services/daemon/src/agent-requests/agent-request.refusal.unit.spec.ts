import { AGENT_REQUEST_REFUSAL_CODES, checkoutErrorCode, checkoutFailureStatus, refusalStatus, type AgentRequestRefusalCode } from './agent-request.refusal';

describe('checkout errors at the agent edge', () => {
  it('takes the code of a typed error, snake_case only', () => {
    expect(checkoutErrorCode(Object.assign(new Error('no'), { code: 'repo_auth_failed' }))).toBe('repo_auth_failed');
    expect(checkoutErrorCode({ code: 'repo_unavailable', message: 'plain object' })).toBe('repo_unavailable');
    expect(checkoutErrorCode(Object.assign(new Error('system'), { code: 'ENOENT' }))).toBeUndefined();
    expect(checkoutErrorCode(Object.assign(new Error('numeric'), { code: 128 }))).toBeUndefined();
    expect(checkoutErrorCode(new Error('untyped'))).toBeUndefined();
    expect(checkoutErrorCode('a string')).toBeUndefined();
  });

  it('answers a remote’s failure 502, a conflict in the work dir 409, unusable settings 422, a full disk 507, an unlisted code 502', () => {
    expect(['repo_unavailable', 'repo_auth_failed'].map(checkoutFailureStatus)).toEqual([502, 502]);
    expect(checkoutFailureStatus('repo_branch_conflict')).toBe(409);
    expect(['repo_branch_invalid', 'local_directory_unavailable'].map(checkoutFailureStatus)).toEqual([422, 422]);
    expect(checkoutFailureStatus('disk_full')).toBe(507);
    expect(['repo_something_new', 'toString', '__proto__'].map(checkoutFailureStatus)).toEqual([502, 502, 502]);
  });

  it('gives every refusal code a client or server error status', () => {
    for (const code of Object.keys(AGENT_REQUEST_REFUSAL_CODES) as AgentRequestRefusalCode[]) expect(refusalStatus(code)).toBeGreaterThanOrEqual(400);
    expect(refusalStatus('task_token_inactive')).toBe(401);
  });
});
