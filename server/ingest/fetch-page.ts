/**
 * Downloads a web page for conversion, guarded against server-side request forgery (SSRF).
 *
 * - Only http: and https: URLs without credentials.
 * - Every host name is resolved once per hop (all addresses); if ANY address is not a public
 *   unicast address (address-policy.ts) the request is refused.
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
import { isForbiddenAddress, isForbiddenHostname } from './address-policy';
import { IngestError, formatMegabytes } from './errors';
import { decoderFor, looksLikeHtml, parseContentType, readBody } from './page-body';

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

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

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
