import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage, isForbiddenAddress, type Resolver } from './fetch-page';
import { IngestError } from './errors';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const routes = new Map<string, Handler>();
let server: http.Server;
let base = '';
const seenHosts: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seenHosts.push(req.headers.host ?? '');
    const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (handler) handler(req, res);
    else {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<h1>Not here</h1>');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function failure(p: Promise<unknown>): Promise<IngestError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(IngestError);
    return err as IngestError;
  }
  throw new Error('expected the fetch to fail');
}

const page =
  (body: string, type = 'text/html; charset=utf-8'): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'Content-Type': type });
    res.end(body);
  };

describe('fetchPage: the SSRF guard', () => {
  it.each([
    'http://127.0.0.1/',
    'http://localhost/',
    'http://10.1.2.3/',
    'http://192.168.0.1/',
    'http://172.16.5.4/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[fd00::1]/',
    'http://0.0.0.0/',
    'http://2130706433/', // 127.0.0.1 written as a number
    'http://metadata.google.internal/computeMetadata/v1/',
  ])('refuses %s without sending a request', async (url) => {
    const before = seenHosts.length;
    const err = await failure(fetchPage(url));
    expect(err.kind).toBe('invalid');
    expect(err.message).toMatch(/private or internal network/);
    expect(seenHosts.length).toBe(before);
  });

  it('refuses a name that resolves to any private address, even if another address is public', async () => {
    const resolve: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    const err = await failure(fetchPage('http://mixed.example/', { resolve }));
    expect(err.kind).toBe('invalid');
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/book.txt', 'javascript:alert(1)', 'gopher://example.com/'])(
    'refuses the non-web address %s',
    async (url) => {
      const err = await failure(fetchPage(url));
      expect(err.kind).toBe('invalid');
      expect(err.message).toBe('Only http and https addresses can be converted');
    },
  );

  it('refuses addresses with credentials and text that is not an address', async () => {
    expect((await failure(fetchPage('http://user:secret@example.com/'))).kind).toBe('invalid');
    expect((await failure(fetchPage('not a url'))).kind).toBe('malformed');
  });

  it.each(['http://10.0.0.1/secret', 'http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/'])(
    're-checks every redirect hop: a redirect to %s is refused even when the first hop was allowed',
    async (target) => {
      routes.set('/hop', (_req, res) => {
        res.writeHead(302, { Location: target });
        res.end();
      });
      const err = await failure(fetchPage(`${base}/hop`, { allowLoopback: true }));
      expect(err.kind).toBe('invalid');
      expect(err.message).toMatch(/private or internal network/);
    },
  );

  it('says the server cannot reach the internet when no name resolves, and that a site is not found when only its name fails', async () => {
    const notFound = (name: string) => Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    const offlineResolver: Resolver = async (name) => {
      throw notFound(name);
    };
    const offline = await failure(fetchPage('https://books.example/story', { resolve: offlineResolver }));
    expect(offline.kind).toBe('upstream_failed');
    expect(offline.message).toBe(
      'This server cannot reach the internet right now, so the page at books.example could not be fetched. ' +
        'Paste the text or upload the file instead, or try again later',
    );
    const onlineResolver: Resolver = async (name) => {
      if (name === 'books.example') throw notFound(name);
      return [{ address: '93.184.215.14', family: 4 }];
    };
    const missing = await failure(fetchPage('https://books.example/story', { resolve: onlineResolver }));
    expect(missing.message).toBe('The site books.example could not be found');
  });

  it('re-resolves redirect targets by name and refuses one that resolves to a private address', async () => {
    routes.set('/to-name', (_req, res) => {
      res.writeHead(301, { Location: 'http://intranet.example/' });
      res.end();
    });
    const resolve: Resolver = async (name) =>
      name === 'intranet.example' ? [{ address: '192.168.1.20', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    const err = await failure(fetchPage(`${base}/to-name`, { allowLoopback: true, resolve }));
    expect(err.kind).toBe('invalid');
  });

  it('connects to the vetted address (resolved once) while keeping the name in the Host header', async () => {
    routes.set('/pinned', (req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(`host=${req.headers.host}`);
    });
    const port = (server.address() as AddressInfo).port;
    let lookups = 0;
    const resolve: Resolver = async () => {
      lookups++;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const result = await fetchPage(`http://books.example:${port}/pinned`, { allowLoopback: true, resolve });
    expect(result.body).toBe(`host=books.example:${port}`);
    expect(result.finalUrl).toBe(`http://books.example:${port}/pinned`);
    expect(lookups).toBe(1);
  });

  it('classifies addresses', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isForbiddenAddress(ip)).toBe(false);
    for (const ip of [
      '127.0.0.1',
      '::1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::',
      '224.0.0.1',
      '255.255.255.255',
      'fc00::1',
      'fe80::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      'not-an-ip',
    ]) {
      expect(isForbiddenAddress(ip)).toBe(true);
    }
    expect(isForbiddenAddress('127.0.0.1', { allowLoopback: true })).toBe(false);
    expect(isForbiddenAddress('10.0.0.1', { allowLoopback: true })).toBe(true);
  });
});

describe('fetchPage: the page server answers', () => {
  it('downloads an HTML page and follows a relative redirect', async () => {
    routes.set('/article', page('<html><title>Hi</title><p>Hello ünïcode</p></html>'));
    routes.set('/moved', (_req, res) => {
      res.writeHead(301, { Location: '/article' });
      res.end();
    });
    const result = await fetchPage(`${base}/moved`, { allowLoopback: true });
    expect(result).toEqual({
      finalUrl: `${base}/article`,
      contentType: 'text/html',
      body: '<html><title>Hi</title><p>Hello ünïcode</p></html>',
    });
  });

  it('decodes windows-1252 / latin1 pages using the charset', async () => {
    routes.set('/latin1', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=ISO-8859-1' });
      res.end(Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94])); // Café “q”
    });
    const result = await fetchPage(`${base}/latin1`, { allowLoopback: true });
    expect(result.contentType).toBe('text/plain');
    expect(result.body).toBe('Café “q”');
  });

  it('accepts application/xhtml+xml as HTML', async () => {
    routes.set('/xhtml', page('<html><p>x</p></html>', 'application/xhtml+xml'));
    expect((await fetchPage(`${base}/xhtml`, { allowLoopback: true })).contentType).toBe('text/html');
  });

  it('reports a 404 in words', async () => {
    const err = await failure(fetchPage(`${base}/missing`, { allowLoopback: true }));
    expect(err.kind).toBe('upstream_failed');
    expect(err.message).toBe('The page answered 404 Not Found');
  });

  it('gives up on a server that never answers', async () => {
    routes.set('/silent', () => undefined);
    const t0 = Date.now();
    const err = await failure(fetchPage(`${base}/silent`, { allowLoopback: true, timeoutMs: 300 }));
    expect(err.kind).toBe('upstream_timeout');
    expect(err.message).toBe('The page did not answer within 0.3 seconds');
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('refuses a body announced larger than the cap', async () => {
    routes.set('/big-declared', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': String(11 * 1024 * 1024) });
      res.write('<p>');
    });
    const err = await failure(fetchPage(`${base}/big-declared`, { allowLoopback: true }));
    expect(err.kind).toBe('too_large');
    expect(err.message).toBe('The page is larger than 10 MB');
  });

  it('stops downloading a streamed body as soon as it passes the cap', async () => {
    let sent = 0;
    let closed = false;
    routes.set('/big-stream', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' }); // chunked, no length
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const timer = setInterval(() => {
        if (closed || sent > 50 * 1024 * 1024) return clearInterval(timer);
        sent += chunk.length;
        res.write(chunk);
      }, 1);
      res.on('close', () => {
        closed = true;
        clearInterval(timer);
      });
    });
    const err = await failure(fetchPage(`${base}/big-stream`, { allowLoopback: true, maxBytes: 1024 * 1024 }));
    expect(err.kind).toBe('too_large');
    expect(err.message).toBe('The page is larger than 1 MB');
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(true);
    expect(sent).toBeLessThan(10 * 1024 * 1024);
  });

  it('refuses a PDF', async () => {
    routes.set('/doc.pdf', page('%PDF-1.7', 'application/pdf'));
    const err = await failure(fetchPage(`${base}/doc.pdf`, { allowLoopback: true }));
    expect(err.kind).toBe('unsupported');
    expect(err.message).toBe('Only web pages (HTML) and plain text can be converted (got application/pdf)');
  });

  it('stops after too many redirects', async () => {
    routes.set('/loop', (req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? '0');
      res.writeHead(302, { Location: `/loop?n=${n + 1}` });
      res.end();
    });
    const err = await failure(fetchPage(`${base}/loop`, { allowLoopback: true }));
    expect(err.kind).toBe('invalid');
    expect(err.message).toBe('Too many redirects');
  });

  it('follows exactly five redirects', async () => {
    routes.set('/five', (req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? '0');
      if (n < 5) {
        res.writeHead(307, { Location: `/five?n=${n + 1}` });
        res.end();
      } else page('done', 'text/plain')(req, res);
    });
    expect((await fetchPage(`${base}/five`, { allowLoopback: true })).body).toBe('done');
  });

  it('reports a refused connection in words', async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const err = await failure(fetchPage(`http://127.0.0.1:${port}/`, { allowLoopback: true }));
    expect(err.kind).toBe('upstream_failed');
    expect(err.message).toMatch(/refused the connection/);
  });
});
