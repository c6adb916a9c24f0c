import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { appStorage, seedCompletedAudiobook, signedInUser } from '../testing/library-fixtures';
import { createTestApp, type TestApp } from '../testing/app';

// Security headers on the SPA and on the API, with a built-SPA-like STATIC_DIR.

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Lectio</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

let t: TestApp;
beforeAll(async () => {
  const staticDir = mkdtempSync(path.join(tmpdir(), 'lectio-dist-'));
  writeFileSync(path.join(staticDir, 'index.html'), INDEX);
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'assets', 'index-abc123.js'), 'console.log("lectio")');
  t = await createTestApp({ env: { STATIC_DIR: staticDir, TRUST_PROXY: '10.77.0.1' } });
});
afterAll(() => t.close());

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

function csp(res: LightMyRequestResponse): Map<string, string> {
  const header = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((directive) => directive.trim())
      .filter((directive) => directive !== '')
      .map((directive) => {
        const [name = '', ...values] = directive.split(/\s+/);
        return [name, values.join(' ')];
      }),
  );
}

function expectCommonHeaders(res: LightMyRequestResponse) {
  const policy = csp(res);
  expect(policy.get('default-src')).toBe("'self'");
  expect(policy.get('frame-ancestors')).toBe("'none'");
  expect(policy.get('object-src')).toBe("'none'");
  expect(policy.get('script-src-attr')).toBe("'none'");
  expect(policy.get('manifest-src')).toBe("'self'");
  expect(policy.get('worker-src')).toBe("'self'");
  // No inline script, and no eval.
  expect(policy.get('script-src')).toBe("'self' blob:");
  expect(policy.get('style-src')).toMatch(/^'self' 'nonce-[A-Za-z0-9+/]{22}==' *$/);
  expect([...policy.values()].join(' ')).not.toContain('unsafe-inline');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-frame-options']).toBe('DENY');
  // Plain http: browsers must not be told to insist on https.
  expect(res.headers['strict-transport-security']).toBeUndefined();
}

describe('the SPA', () => {
  it('serves index.html with the CSP and hands styled-components the style nonce of that response', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: html });
    expect(res.statusCode).toBe(200);
    expectCommonHeaders(res);
    const nonce = /'nonce-([^']+)'/.exec(csp(res).get('style-src') ?? '')?.[1];
    const head = res.body.slice(res.body.indexOf('<head>'), res.body.indexOf('</head>'));
    expect(head).toContain(`<meta property="csp-nonce" content="${nonce}" />`);
    // The page itself keeps to the policy: its only script is an external module from 'self'.
    expect(res.body).toMatch(/<script type="module" crossorigin src="\/assets\/index-abc123\.js"><\/script>/);
    expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it('uses a fresh nonce for every response, also for client-side routes and /index.html', async () => {
    const nonces = new Set<string>();
    for (const url of ['/', '/dashboard', '/jobs/123?tab=steps', '/index.html']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expectCommonHeaders(res);
      const nonce = /'nonce-([^']+)'/.exec(csp(res).get('style-src') ?? '')?.[1] ?? '';
      expect(res.body).toContain(`content="${nonce}"`);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(4);
  });

  it('puts the headers on static assets too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expectCommonHeaders(res);
  });
});

describe('the API', () => {
  it('sends the headers on answers and on errors', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/api/v1/environment' });
    expect(ok.statusCode).toBe(200);
    expectCommonHeaders(ok);
    const unauthenticated = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me' });
    expect(unauthenticated.statusCode).toBe(401);
    expectCommonHeaders(unauthenticated);
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(missing.statusCode).toBe(404);
    expectCommonHeaders(missing);
  });

  it('sends HSTS only for requests that came over https', async () => {
    const viaTrustedProxy = await t.app.inject({
      method: 'GET',
      url: '/api/v1/environment',
      remoteAddress: '10.77.0.1',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.5' },
    });
    expect(viaTrustedProxy.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const spoofed = await t.app.inject({
      method: 'GET',
      url: '/api/v1/environment',
      remoteAddress: '198.51.100.5',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });

  it('still streams audio by byte range under these headers', async () => {
    const user = await signedInUser(t.app, 'listener@example.com');
    const book = await seedCompletedAudiobook(t.db, appStorage(t.config), {
      userId: user.id,
      title: 'Headers',
      seconds: 2,
    });
    const stream = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audio/${book.jobId}/stream`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    const url = (stream.json() as { streaming_url: string }).streaming_url;
    // The whole file as served (a finished book's MP3 carries its ID3 tag in front of the audio).
    const whole = await t.app.inject({ method: 'GET', url });
    expect(whole.rawPayload.length).toBeGreaterThan(book.bytes);
    const res = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=10-19' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers['content-range']).toBe(`bytes 10-19/${whole.rawPayload.length}`);
    expect(res.rawPayload.equals(whole.rawPayload.subarray(10, 20))).toBe(true);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-site');
  });
});
