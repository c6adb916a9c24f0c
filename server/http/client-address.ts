import { isIP } from 'node:net';

/**
 * The key that per-client limits count under. IPv4 addresses (also IPv4-mapped IPv6 ones) count
 * as themselves; an IPv6 address counts as its /64 network, since one subscriber is usually given
 * a whole /64 and could otherwise take a fresh address for every request.
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (isIP(ip) !== 6) return ip;
  const [head = '', tail] = ip.toLowerCase().split('%')[0]!.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
