import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { loadConfig } from '../config';
import { appStorage, seedCompletedAudiobook, signedInUser } from '../testing/library-fixtures';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../testing/app';

// A client deployed on its own origin (as the earlier product's client is, with its API base URL
// pointing here): its fetches need CORS answers, its <audio> and websocket need absolute URLs, and
// its websocket's Origin must be one we allow.
const CLIENT = 'https://reader.example.org';

describe('CORS_ORIGINS and PUBLIC_URL settings', () => {
  const base = { DATA_DIR: '/tmp/lectio-unused', JWT_SECRET: TEST_JWT_SECRET };

  it('default to same origin only and the request’s own address', () => {
    const config = loadConfig(base);
    expect(config.corsOrigins).toEqual([]);
    expect(config.publicUrl).toBeUndefined();
  });

  it('take exact origins and normalise a trailing slash', () => {
    const config = loadConfig({
      ...base,
      CORS_ORIGINS: `${CLIENT}/, http://localhost:5173`,
      PUBLIC_URL: 'https://api.example.org/',
    });
    expect(config.corsOrigins).toEqual([CLIENT, 'http://localhost:5173']);
    expect(config.publicUrl).toBe('https://api.example.org');
  });

  it('refuse paths, other schemes, and * in production, naming the variable', () => {
    expect(() => loadConfig({ ...base, CORS_ORIGINS: 'https://reader.example.org/app' })).toThrow(
      /CORS_ORIGINS must list exact origins/,
    );
    expect(() => loadConfig({ ...base, CORS_ORIGINS: 'reader.example.org' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ ...base, PUBLIC_URL: 'ftp://api.example.org' })).toThrow(/PUBLIC_URL must be an http/);
    expect(() => loadConfig({ ...base, PUBLIC_URL: 'https://api.example.org/v1' })).toThrow(/PUBLIC_URL/);
    expect(loadConfig({ ...base, CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(() => loadConfig({ ...base, APP_ENV: 'production', CORS_ORIGINS: '*' })).toThrow(
      /CORS_ORIGINS may not be '\*' when APP_ENV=production/,
    );
  });
});

describe('a client on another origin', () => {
  let t: TestApp;
  let reader: { id: string; token: string };
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { CORS_ORIGINS: CLIENT, WORKERS: 'none' } });
    reader = await signedInUser(t.app, 'reader@example.com');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(() => t.close());

  const preflight = (origin: string, method = 'GET', headers = 'authorization') =>
    t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/jobs',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
    });

  it('gets its preflight answered with the methods and the Authorization header allowed', async () => {
    const res = await preflight(CLIENT, 'DELETE', 'authorization,content-type');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(CLIENT);
    expect(String(res.headers['access-control-allow-methods'])).toMatch(/DELETE/);
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
  });

  it('reads answers with its bearer token, and sees errors as the API words them', async () => {
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/v1/jobs',
      headers: { origin: CLIENT, authorization: `Bearer ${reader.token}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(CLIENT);
    const denied = await t.app.inject({ method: 'GET', url: '/api/v1/jobs', headers: { origin: CLIENT } });
    expect(denied.statusCode).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe(CLIENT);
  });

  it('may load our media: resources are not limited to our own site when other origins are listed', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/environment', headers: { origin: CLIENT } });
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('is told nothing when its origin is not listed', async () => {
    const res = await preflight('https://elsewhere.example.net');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const get = await t.app.inject({
      method: 'GET',
      url: '/api/v1/environment',
      headers: { origin: 'https://elsewhere.example.net' },
    });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('gets absolute streaming and websocket URLs built from the address it used', async () => {
    const book = await seedCompletedAudiobook(t.db, appStorage(t.config), { userId: reader.id, seconds: 1 });
    const headers = { authorization: `Bearer ${reader.token}`, host: 'api.example.org' };
    const stream = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${book.jobId}/stream`, headers });
    expect((stream.json() as { streaming_url: string }).streaming_url).toMatch(
      /^http:\/\/api\.example\.org\/api\/v1\/media\/audio\//,
    );
    const start = await t.app.inject({ method: 'POST', url: '/api/v1/voice-assistant/start', headers, payload: {} });
    expect((start.json() as { websocket_url: string }).websocket_url).toBe(
      'ws://api.example.org/api/v1/voice-assistant/ws',
    );
  });

  async function openSocket(origin: string | undefined): Promise<{ code: number; reason: string } | 'open'> {
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/voice-assistant/start',
      headers: { authorization: `Bearer ${reader.token}` },
      payload: {},
    });
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/voice-assistant/ws?token=${reader.token}`, {
      ...(origin !== undefined && { origin }),
    });
    return new Promise((resolve) => {
      ws.on('error', () => undefined);
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
      // A refused origin is closed right after the upgrade; an accepted one stays open.
      ws.on('open', () =>
        setTimeout(() => (ws.readyState === WebSocket.OPEN ? (ws.close(), resolve('open')) : undefined), 300),
      );
    });
  }

  it('opens the voice websocket from a listed origin, from our own, and without Origin (no browser)', async () => {
    expect(await openSocket(CLIENT)).toBe('open');
    expect(await openSocket(`http://127.0.0.1:${port}`)).toBe('open');
    expect(await openSocket(undefined)).toBe('open');
  });

  it('closes the voice websocket of a page from an origin it does not know with 4003', async () => {
    expect(await openSocket('https://evil.example.net')).toEqual({
      code: 4003,
      reason: "Forbidden: this page's origin may not use the voice assistant",
    });
  });
});

describe('PUBLIC_URL', () => {
  it('builds the URLs in answers, whatever Host the request carried', async () => {
    const t = await createTestApp({ env: { PUBLIC_URL: 'https://listen.example.org', WORKERS: 'none' } });
    try {
      const reader = await signedInUser(t.app, 'public@example.com');
      const headers = { authorization: `Bearer ${reader.token}`, host: 'internal-host:8080' };
      const book = await seedCompletedAudiobook(t.db, appStorage(t.config), { userId: reader.id, seconds: 1 });
      const stream = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${book.jobId}/stream`, headers });
      expect((stream.json() as { streaming_url: string }).streaming_url).toMatch(
        /^https:\/\/listen\.example\.org\/api\/v1\/media\//,
      );
      await t.app.inject({ method: 'POST', url: '/api/v1/voice-assistant/start', headers, payload: {} });
      const connect = await t.app.inject({ method: 'POST', url: '/api/v1/voice-assistant/connect', headers });
      expect(connect.json()).toEqual({ connectionUrl: 'wss://listen.example.org/api/v1/voice-assistant/ws' });
      const playlist = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${book.jobId}/playlist`, headers });
      expect(playlist.body.split('\n')[2]).toMatch(/^https:\/\/listen\.example\.org\/api\/v1\/media\//);
    } finally {
      await t.close();
    }
  });
});

describe('POSTs that take no body', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp({ env: { WORKERS: 'none' } });
    const reader = await signedInUser(t.app, 'json@example.com');
    headers = { authorization: `Bearer ${reader.token}`, 'content-type': 'application/json' };
  });
  afterAll(() => t.close());

  it('accept Content-Type: application/json with an empty body, as many clients send it', async () => {
    for (const path of ['start', 'connect', 'stop']) {
      const res = await t.app.inject({ method: 'POST', url: `/api/v1/voice-assistant/${path}`, headers, payload: '' });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
  });

  it('still name the missing fields where a body is required, and refuse broken JSON with 400', async () => {
    const empty = await t.app.inject({ method: 'POST', url: '/api/v1/jobs', headers, payload: '' });
    expect(empty.statusCode).toBe(422);
    expect((empty.json() as { detail: string }).detail).toBeTruthy();
    const broken = await t.app.inject({ method: 'POST', url: '/api/v1/jobs', headers, payload: '{"title":' });
    expect(broken.statusCode).toBe(400);
    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs',
      headers,
      payload: '{"__proto__":{"x":1},"title":"t"}',
    });
    expect(poisoned.statusCode).toBe(400);
  });
});
