/**
 * Downloads a web page for conversion, guarded against server-side request forgery (SSRF).
 *
 * - Only http: and https: URLs without credentials.
 * - Every host name is resolved once per hop (all addresses); if ANY address is not a public
 *   unicast address (see isForbiddenAddress) the request is refused.
 * - The connection goes to the vetted address: a custom `lookup` is passed to http(s).request
 *   that only ever answers with that address, so DNS cannot be re-bound between check and
 *   connect. The Host header and TLS SNI/certificate check still use the name.
 * - Redirects are followed by hand and every hop goes through the same checks.
 * - One deadline covers the whole download (all hops), and the body is capped while it streams.
 */
import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns';
import net from 'node:net';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import { IngestError, formatMegabytes } from './errors';

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type FetchPageOptions = {
  /** Only tests set it: allows 127.0.0.0/8 and ::1 (nothing else). */
  allowLoopback?: boolean;
  /** Deadline for the whole download, all redirects included. Default 15000. */
  timeoutMs?: number;
  /** Cap on the (decompressed) body. Default 10 MiB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  signal?: AbortSignal;
  /** Name resolution; defaults to node:dns lookup with all addresses. Tests inject one. */
  resolve?: Resolver;
};

export type FetchedPage = {
  finalUrl: string;
  contentType: 'text/html' | 'text/plain';
  body: string;
};

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;

const USER_AGENT = 'LectioBot/1.0 (+audiobook conversion; fetches one page on a user request)';

// ---------------------------------------------------------------------------------------------
// Address policy
// ---------------------------------------------------------------------------------------------

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

const defaultResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err) reject(err);
      else resolve(addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })));
    });
  });

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

const refused = () =>
  new IngestError('invalid', 'That address points to a private or internal network and cannot be converted');

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  const text = Number.isInteger(s) ? String(s) : s.toFixed(1).replace(/\.0$/, '');
  return `${text} ${text === '1' ? 'second' : 'seconds'}`;
}

const errorCode = (err: unknown): string =>
  typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';

const NAME_NOT_FOUND = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_NONAME']);
const NO_ROUTE = new Set(['ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN']);

/** The name every working resolver knows (reserved for examples by IANA), asked when a site's name was not found. */
const WELL_KNOWN_NAME = 'example.com';
const PROBE_TIMEOUT_MS = 3_000;

const offline = (host: string, cause: unknown) =>
  new IngestError(
    'upstream_failed',
    `This server cannot reach the internet right now, so the page at ${host} could not be fetched. ` +
      'Paste the text or upload the file instead, or try again later',
    { cause },
  );

/**
 * A site's name was not found: is it that name, or is this server offline (no name resolves at
 * all)? One lookup of a well-known name tells them apart.
 */
async function nameNotFound(resolve: Resolver, host: string, cause: unknown): Promise<IngestError> {
  const online = await Promise.race([
    resolve(WELL_KNOWN_NAME).then(
      (addresses) => addresses.length > 0,
      () => false,
    ),
    new Promise<boolean>((done) => setTimeout(() => done(false), PROBE_TIMEOUT_MS).unref()),
  ]);
  return online
    ? new IngestError('upstream_failed', `The site ${host} could not be found`, { cause })
    : offline(host, cause);
}

function describeNetworkError(err: unknown, host: string): IngestError {
  const code = errorCode(err);
  if (NAME_NOT_FOUND.has(code)) {
    return new IngestError('upstream_failed', `The site ${host} could not be found`, { cause: err });
  }
  if (NO_ROUTE.has(code)) return offline(host, err);
  if (code === 'ECONNREFUSED')
    return new IngestError('upstream_failed', `The site ${host} refused the connection`, { cause: err });
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
    return new IngestError('upstream_failed', `The site ${host} closed the connection before the page was complete`, {
      cause: err,
    });
  }
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT') {
    return new IngestError('upstream_failed', `The secure connection to ${host} could not be verified`, { cause: err });
  }
  if (code.startsWith('Z_') || code === 'ERR_HTTP_INVALID_HEADER_VALUE' || code.startsWith('HPE_')) {
    return new IngestError('upstream_failed', `The site ${host} sent a response that could not be read`, {
      cause: err,
    });
  }
  return new IngestError('upstream_failed', `The page at ${host} could not be downloaded`, { cause: err });
}

// ---------------------------------------------------------------------------------------------
// Fetch
// ---------------------------------------------------------------------------------------------

type Vetted = { url: URL; hostname: string; address: ResolvedAddress | null };

function checkUrl(raw: string | URL): URL {
  let url: URL;
  try {
    url = typeof raw === 'string' ? new URL(raw.trim()) : raw;
  } catch {
    throw new IngestError('malformed', 'That is not a valid web address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new IngestError('invalid', 'Only http and https addresses can be converted');
  }
  if (url.username !== '' || url.password !== '') {
    throw new IngestError('invalid', 'Addresses that contain a user name or password cannot be converted');
  }
  if (url.hostname === '') throw new IngestError('malformed', 'That is not a valid web address');
  return url;
}

async function vet(url: URL, opts: Required<Pick<FetchPageOptions, 'resolve'>> & FetchPageOptions): Promise<Vetted> {
  const allowLoopback = opts.allowLoopback === true;
  let hostname = url.hostname;
  if (hostname.startsWith('[') && hostname.endsWith(']')) hostname = hostname.slice(1, -1);

  if (net.isIP(hostname) !== 0) {
    if (isForbiddenAddress(hostname, { allowLoopback })) throw refused();
    return { url, hostname, address: null };
  }
  if (isForbiddenHostname(hostname, { allowLoopback })) throw refused();

  let addresses: ResolvedAddress[];
  try {
    addresses = await opts.resolve(hostname);
  } catch (err) {
    if (NAME_NOT_FOUND.has(errorCode(err))) throw await nameNotFound(opts.resolve, hostname, err);
    throw describeNetworkError(err, hostname);
  }
  if (addresses.length === 0) throw await nameNotFound(opts.resolve, hostname, undefined);
  if (addresses.some((a) => isForbiddenAddress(a.address, { allowLoopback }))) throw refused();
  const first = addresses[0] as ResolvedAddress;
  return { url, hostname, address: first };
}

type RawResponse = { res: http.IncomingMessage; req: http.ClientRequest };

function send(target: Vetted, signal: AbortSignal): Promise<RawResponse> {
  const { url, hostname, address } = target;
  const isHttps = url.protocol === 'https:';
  const mod = isHttps ? https : http;

  // The pinned lookup: whatever name the socket layer asks for, it gets the vetted address.
  const pinnedLookup = (
    _host: string,
    options: { all?: boolean } | number | undefined,
    cb: (err: NodeJS.ErrnoException | null, address: string | ResolvedAddress[], family?: number) => void,
  ) => {
    const a = address as ResolvedAddress;
    if (typeof options === 'object' && options?.all) cb(null, [{ address: a.address, family: a.family }]);
    else cb(null, a.address, a.family);
  };

  const options: https.RequestOptions = {
    protocol: url.protocol,
    hostname,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: 'GET',
    headers: {
      'User-Agent': USER_AGENT,
      Accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1',
      'Accept-Encoding': 'gzip, deflate, br',
      'Accept-Language': 'en;q=1, *;q=0.5',
    },
    signal,
    agent: false,
  };
  if (address !== null) {
    (options as { lookup?: unknown }).lookup = pinnedLookup;
    if (isHttps) options.servername = hostname;
  }

  return new Promise((resolve, reject) => {
    const req = mod.request(options, (res) => resolve({ res, req }));
    req.on('error', reject);
    req.end();
  });
}

function parseContentType(header: string | undefined): { mime: string; charset: string | null } {
  if (header === undefined || header.trim() === '') return { mime: '', charset: null };
  const [type = '', ...params] = header.split(';');
  let charset: string | null = null;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p);
    if (m?.[1]) charset = m[1].toLowerCase();
  }
  return { mime: type.trim().toLowerCase(), charset };
}

// 0x80-0x9F of windows-1252 (Node 20's TextDecoder treats windows-1252 as ISO-8859-1 there).
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d, 0x017d,
  0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x9d,
  0x017e, 0x0178,
];

export function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const codes = Array.from(bytes.subarray(i, i + 8192), (b) =>
      b >= 0x80 && b <= 0x9f ? (CP1252_HIGH[b - 0x80] ?? b) : b,
    );
    out += String.fromCharCode(...codes);
  }
  return out;
}

function decoderFor(label: string | null): { decode(input: Uint8Array): string } {
  // WHATWG: latin1/ISO-8859-1/ASCII labels mean windows-1252 (Node's fast path would not map 0x80-0x9F).
  const name =
    label !== null &&
    /^(?:latin1|l1|iso-?8859-1|iso_8859-1(?::1987)?|us-ascii|ascii|cp1252|cp819|ibm819|x-cp1252)$/i.test(label)
      ? 'windows-1252'
      : label;
  if (name === 'windows-1252') return { decode: decodeWindows1252 };
  try {
    return new TextDecoder(name ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

function readBody(res: http.IncomingMessage, maxBytes: number, tooLarge: () => IngestError): Promise<Buffer> {
  const encoding = String(res.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  let stream: Readable = res;
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(zlib.createGunzip());
  else if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
  else if (encoding === 'br') stream = res.pipe(zlib.createBrotliDecompress());

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const fail = (err: unknown) => {
      if (done) return;
      done = true;
      res.destroy();
      if (stream !== res) stream.destroy();
      reject(err);
    };
    stream.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        fail(tooLarge()); // stop downloading as soon as the cap is passed
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks, total));
    });
    stream.on('error', fail);
    res.on('error', fail);
    res.on('aborted', () => fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function looksLikeHtml(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || /<(head|body|title|p|div)[\s>]/.test(head);
}

export async function fetchPage(url: string, opts: FetchPageOptions = {}): Promise<FetchedPage> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const resolve = opts.resolve ?? defaultResolver;
  const tooLarge = () => new IngestError('too_large', `The page is larger than ${formatMegabytes(maxBytes)}`);
  const timedOut = () =>
    new IngestError('upstream_timeout', `The page did not answer within ${formatSeconds(timeoutMs)}`);

  opts.signal?.throwIfAborted();
  const controller = new AbortController();
  let timerFired = false;
  const timer = setTimeout(() => {
    timerFired = true;
    controller.abort();
  }, timeoutMs);
  const onOuterAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });

  // Every await races the deadline, including DNS, which has no signal of its own.
  const deadline = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(timerFired ? timedOut() : opts.signal?.reason), {
      once: true,
    });
  });
  deadline.catch(() => undefined);
  const race = <T>(p: Promise<T>): Promise<T> => Promise.race([p, deadline]);

  try {
    let current = checkUrl(url);
    for (let hop = 0; ; hop++) {
      const target = await race(vet(current, { ...opts, resolve }));
      let raw: RawResponse;
      try {
        raw = await race(send(target, controller.signal));
      } catch (err) {
        if (err instanceof IngestError || controller.signal.aborted) throw err;
        throw describeNetworkError(err, target.hostname);
      }
      const { res } = raw;
      const status = res.statusCode ?? 0;

      if (REDIRECTS.has(status)) {
        res.resume();
        const location = res.headers.location;
        if (location === undefined || location === '') {
          throw new IngestError(
            'upstream_failed',
            `The page answered ${status} ${res.statusMessage ?? ''} without saying where to go`.replace(/\s+/g, ' '),
          );
        }
        if (hop >= maxRedirects) throw new IngestError('invalid', 'Too many redirects');
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          throw new IngestError('upstream_failed', 'The page redirected to an address that is not valid');
        }
        current = checkUrl(next);
        continue;
      }

      if (status < 200 || status > 299) {
        res.resume();
        const reason = res.statusMessage || http.STATUS_CODES[status] || '';
        throw new IngestError('upstream_failed', `The page answered ${status}${reason ? ` ${reason}` : ''}`);
      }

      const { mime, charset } = parseContentType(res.headers['content-type']);
      const isHtml = mime === 'text/html' || mime === 'application/xhtml+xml';
      if (mime !== '' && !isHtml && mime !== 'text/plain') {
        res.resume();
        res.destroy();
        throw new IngestError('unsupported', `Only web pages (HTML) and plain text can be converted (got ${mime})`);
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        res.destroy();
        throw tooLarge();
      }

      let bytes: Buffer;
      try {
        bytes = await race(readBody(res, maxBytes, tooLarge));
      } catch (err) {
        if (err instanceof IngestError || controller.signal.aborted) throw err;
        throw describeNetworkError(err, target.hostname);
      }

      let kind: FetchedPage['contentType'];
      if (mime === '') {
        if (bytes.includes(0)) {
          throw new IngestError(
            'unsupported',
            'Only web pages (HTML) and plain text can be converted (got an unknown type)',
          );
        }
        kind = looksLikeHtml(bytes) ? 'text/html' : 'text/plain';
      } else {
        kind = isHtml ? 'text/html' : 'text/plain';
      }

      let label = charset;
      if (label === null && kind === 'text/html') {
        const m = /<meta[^>]+charset\s*=\s*["']?([\w:.-]+)/i.exec(bytes.subarray(0, 4096).toString('latin1'));
        label = m?.[1]?.toLowerCase() ?? null;
      }
      const body = decoderFor(label).decode(bytes);
      return { finalUrl: current.toString(), contentType: kind, body };
    }
  } catch (err) {
    if (timerFired && !(err instanceof IngestError && err.kind !== 'upstream_failed')) throw timedOut();
    throw err;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
}
