/**
 * Which addresses and host names a fetched page may come from: public unicast addresses only, so a
 * page URL can never reach this server's own network (SSRF). Private, loopback (unless a test
 * allows it), link-local, metadata and reserved ranges are refused, for IPv4, IPv6 and IPv4
 * inside IPv6 alike, and so are names that only mean something inside a network.
 */
import net from 'node:net';

function parseIPv4(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

/** Parses an IPv6 address (with optional zone id and embedded IPv4 tail) into 8 hextets. */
function parseIPv6(input: string): number[] | null {
  let ip = input;
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  if (!net.isIPv6(ip)) return null;

  const lastColon = ip.lastIndexOf(':');
  const last = ip.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseIPv4(last);
    if (v4 === null) return null;
    ip = `${ip.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }

  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const headParts = halves[0] === undefined || halves[0] === '' ? [] : halves[0].split(':');
  const restParts = halves[1] === undefined || halves[1] === '' ? [] : halves[1].split(':');
  const groups =
    halves.length === 2
      ? [...headParts, ...Array<string>(Math.max(0, 8 - headParts.length - restParts.length)).fill('0'), ...restParts]
      : headParts;
  const hextets = groups.map((g) => parseInt(g, 16));
  if (hextets.length !== 8 || hextets.some((h) => Number.isNaN(h))) return null;
  return hextets;
}

function inV4(ip: number, base: string, bits: number): boolean {
  const b = parseIPv4(base);
  if (b === null) return false;
  const size = 2 ** (32 - bits);
  return Math.floor(ip / size) === Math.floor(b / size);
}

function isForbiddenV4(ip: number, allowLoopback: boolean): boolean {
  if (inV4(ip, '127.0.0.0', 8)) return !allowLoopback; // loopback
  return (
    inV4(ip, '0.0.0.0', 8) || // "this network", incl. unspecified 0.0.0.0
    inV4(ip, '10.0.0.0', 8) || // private
    inV4(ip, '100.64.0.0', 10) || // carrier-grade NAT
    inV4(ip, '169.254.0.0', 16) || // link-local, incl. cloud metadata 169.254.169.254
    inV4(ip, '172.16.0.0', 12) || // private
    inV4(ip, '192.0.0.0', 24) || // IETF protocol assignments
    inV4(ip, '192.0.2.0', 24) || // documentation
    inV4(ip, '192.88.99.0', 24) || // 6to4 relay anycast
    inV4(ip, '192.168.0.0', 16) || // private
    inV4(ip, '198.18.0.0', 15) || // benchmarking
    inV4(ip, '198.51.100.0', 24) || // documentation
    inV4(ip, '203.0.113.0', 24) || // documentation
    inV4(ip, '224.0.0.0', 4) || // multicast
    inV4(ip, '240.0.0.0', 4) // reserved, incl. broadcast 255.255.255.255
  );
}

/**
 * True when a request must not be sent to `ip`: loopback, private, link-local, CGNAT,
 * unspecified, multicast, broadcast, reserved/documentation ranges, and IPv6 forms that embed
 * such an IPv4 address (mapped, compatible, NAT64, 6to4). Anything that is not an IP is forbidden.
 * `allowLoopback` (tests only) lets 127.0.0.0/8 and ::1 through.
 */
export function isForbiddenAddress(ip: string, opts: { allowLoopback?: boolean } = {}): boolean {
  const allowLoopback = opts.allowLoopback === true;
  const v4 = parseIPv4(ip);
  if (v4 !== null) return isForbiddenV4(v4, allowLoopback);

  const h = parseIPv6(ip);
  if (h === null) return true;
  const [h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0] = h;
  const embedded = h6 * 65536 + h7;

  if (h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0 && h4 === 0) {
    if (h5 === 0xffff) return isForbiddenV4(embedded, allowLoopback); // ::ffff:a.b.c.d
    if (h5 === 0) {
      if (h6 === 0 && h7 === 0) return true; // :: unspecified
      if (h6 === 0 && h7 === 1) return !allowLoopback; // ::1 loopback
      return true; // deprecated IPv4-compatible ::a.b.c.d
    }
  }
  if (h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0 && h4 === 0xffff && h5 === 0) {
    return isForbiddenV4(embedded, allowLoopback); // ::ffff:0:a.b.c.d (SIIT)
  }
  if (h0 === 0x64 && h1 === 0xff9b) {
    return isForbiddenV4(embedded, false); // NAT64 64:ff9b::/96 and 64:ff9b:1::/48
  }
  if (h0 === 0x2002) return isForbiddenV4(h1 * 65536 + h2, false); // 6to4 embeds the IPv4
  if (h0 === 0x2001 && h1 === 0) return true; // Teredo (obfuscated IPv4 inside)
  if (h0 === 0x2001 && h1 === 0xdb8) return true; // documentation
  if (h0 === 0x0100 && h1 === 0 && h2 === 0 && h3 === 0) return true; // discard-only 100::/64
  if ((h0 & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((h0 & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((h0 & 0xffc0) === 0xfec0) return true; // deprecated site-local fec0::/10
  if ((h0 & 0xff00) === 0xff00) return true; // multicast ff00::/8
  if (h0 < 0x2000 || h0 > 0x3fff) return true; // outside global unicast 2000::/3
  return false;
}

const FORBIDDEN_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** Host names refused before any lookup (cloud metadata services, internal-only zones). */
export function isForbiddenHostname(hostname: string, opts: { allowLoopback?: boolean } = {}): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  if (FORBIDDEN_NAMES.has(name)) return true;
  if (name.endsWith('.internal')) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return opts.allowLoopback !== true;
  return false;
}
