import { clientKeyOf } from './client-address';

describe('the client key failed authentications count against', () => {
  it('is the IPv4 address, unwrapped from its IPv6-mapped form', () => {
    expect(clientKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    expect(clientKeyOf('2001:db8:0:12::1')).toBe('2001:db8:0:12::/64');
    expect(clientKeyOf('2001:DB8:0000:0012:ffff:1:2:3')).toBe('2001:db8:0:12::/64');
    expect(clientKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKeyOf('::1')).toBe('0:0:0:0::/64');
  });

  it('keeps anything else as it is, and names a missing address', () => {
    expect(clientKeyOf('not-an-address')).toBe('not-an-address');
    expect(clientKeyOf(undefined)).toBe('unknown');
  });
});
