import { createHash } from 'node:crypto';
import { holdsLease, mintLeaseToken, openLeaseToken, sealLeaseToken, type AttemptLease } from './lease-token';

describe('lease tokens', () => {
  const token = mintLeaseToken();
  const lease: AttemptLease = { attempt: 2, daemonId: 'daemon-a', leaseTokenHash: createHash('sha256').update(token).digest('hex') };

  it('are 32 random bytes, base64url, fresh each time', () => {
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(mintLeaseToken()).not.toBe(token);
  });

  it('are held only by the attempt’s daemon presenting the token of that attempt', () => {
    expect(holdsLease(lease, { attempt: 2, daemonId: 'daemon-a', leaseToken: token })).toBe(true);
    expect(holdsLease(lease, { attempt: 2, daemonId: 'daemon-a', leaseToken: mintLeaseToken() })).toBe(false);
    expect(holdsLease(lease, { attempt: 2, daemonId: 'daemon-b', leaseToken: token })).toBe(false);
    expect(holdsLease(lease, { attempt: 1, daemonId: 'daemon-a', leaseToken: token })).toBe(false);
    expect(holdsLease({ ...lease, leaseTokenHash: null }, { attempt: 2, daemonId: 'daemon-a', leaseToken: token })).toBe(false);
  });

  it('are sealed for a stored claim reply: not in clear, opened only with the queue’s secret', () => {
    const sealed = sealLeaseToken('secret-1', token);
    expect(sealed).toMatch(/^sealed:v1:[\w-]+$/);
    expect(sealed).not.toContain(token);
    expect(sealLeaseToken('secret-1', token)).not.toBe(sealed);
    expect(openLeaseToken('secret-1', sealed)).toBe(token);
    expect(() => openLeaseToken('secret-2', sealed)).toThrow();
    expect(() => openLeaseToken('secret-1', token)).toThrow('not a sealed lease token');
  });
});
