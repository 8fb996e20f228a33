import { isIPv4, isIPv6 } from 'node:net';

/**
 * Whom failed authentications are counted against: the peer's IPv4 address (an IPv4-mapped IPv6
 * one unwrapped), or the /64 of an IPv6 address, since one host is routinely given a whole /64
 * and could otherwise take a fresh address per guess. The socket's peer, never X-Forwarded-For:
 * any client can write that header.
 */
export function clientKeyOf(address: string | undefined): string {
  if (!address) return 'unknown';
  const unmapped = address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (isIPv4(unmapped) || !isIPv6(unmapped)) return unmapped;
  const [head = '', tail] = unmapped.split('%')[0]!.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
