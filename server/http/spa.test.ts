import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { installNotFound, installSpa } from './spa';

// The installable app's files beside the SPA: the service worker and the web manifest must reach
// the browser with their own types, and the worker fresh on each check for a new version.
let app: FastifyInstance;
let staticDir: string;

beforeAll(async () => {
  staticDir = mkdtempSync(path.join(tmpdir(), 'lectio-dist-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><head><title>Lectio</title></head>');
  writeFileSync(path.join(staticDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(path.join(staticDir, 'manifest.webmanifest'), JSON.stringify({ name: 'Lectio' }));
  writeFileSync(path.join(staticDir, 'pwa-192x192.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'assets', 'index-abc123.js'), 'console.log("lectio")');
  app = Fastify();
  await installSpa(app, staticDir);
  installNotFound(app, staticDir);
});

afterAll(async () => {
  await app.close();
  rmSync(staticDir, { recursive: true, force: true });
});

describe('the installable app’s files', () => {
  it('serves the service worker as JavaScript, revalidated on every request', async () => {
    const res = await app.inject({ method: 'GET', url: '/sw.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('addEventListener');
  });

  it('serves the web manifest with its own type, revalidated', async () => {
    const res = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json()).toEqual({ name: 'Lectio' });
  });

  it('serves the icons as images, and keeps hashed assets cached for good', async () => {
    const icon = await app.inject({ method: 'GET', url: '/pwa-192x192.png' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
  });
});
