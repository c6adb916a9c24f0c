import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPglite } from '../db/pglite';
import type { Db } from '../db/types';
import { createTestApp, type TestApp } from '../testing/app';

let db: Db;
beforeAll(async () => {
  db = await openPglite();
});
afterAll(async () => {
  await db.close();
});

describe('GET /api/v1/environment', () => {
  it('reports dev with sign-up and debug on, without a token', async () => {
    const t = await createTestApp({ db });
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/environment' });
    await t.close();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      environment: 'dev',
      features: { signup_enabled: true, debug_mode: true, demo_mode: true, password_reset_email: false },
    });
  });

  it('reports production with sign-up and debug off', async () => {
    const t = await createTestApp({ db, env: { APP_ENV: 'production' } });
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/environment' });
    await t.close();
    expect(res.json()).toEqual({
      environment: 'production',
      features: { signup_enabled: false, debug_mode: false, demo_mode: true, password_reset_email: false },
    });
  });

  it('leaves demo mode only when every provider has a key (tts/select isDemoMode)', async () => {
    const one = await createTestApp({ db, env: { OPENAI_API_KEY: 'sk-test' } });
    const partly = await one.app.inject({ method: 'GET', url: '/api/v1/environment' });
    await one.close();
    expect(partly.json().features.demo_mode).toBe(true);
    const both = await createTestApp({ db, env: { OPENAI_API_KEY: 'sk-test', ELEVENLABS_API_KEY: 'el-test' } });
    const res = await both.app.inject({ method: 'GET', url: '/api/v1/environment' });
    await both.close();
    expect(res.json().features.demo_mode).toBe(false);
  });
});

describe('error answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db });
  });
  afterAll(() => t.close());

  it('answers an unknown API path with a JSON 404 naming it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      detail: 'No API endpoint GET /api/v1/no-such-thing',
      message: 'No API endpoint GET /api/v1/no-such-thing',
      request_id: expect.any(String),
    });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@example.com",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: 'Request body is not valid JSON',
      message: 'Request body is not valid JSON',
      request_id: expect.any(String),
    });
  });

  it('answers a body that is not JSON with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a@example.com',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('Unsupported content type "text/plain"; send application/json');
  });

  it('answers an oversized body with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { email: 'big@example.com', password: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Request body is too large (the limit is 1 MB)');
  });

  it('asks for a token before looking at the request on protected routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization: '' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      detail: 'Not authenticated',
      message: 'Not authenticated',
      request_id: expect.any(String),
    });
  });
});

describe('serving the built SPA', () => {
  let t: TestApp;
  beforeAll(async () => {
    const staticDir = mkdtempSync(path.join(tmpdir(), 'lectio-dist-'));
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Lectio</title><div id="root"></div>');
    mkdirSync(path.join(staticDir, 'assets'));
    writeFileSync(path.join(staticDir, 'assets', 'app-1234.js'), 'console.log("lectio")');
    t = await createTestApp({ db, env: { STATIC_DIR: staticDir } });
  });
  afterAll(() => t.close());

  const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

  it('serves index.html at /', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Lectio</title>');
  });

  it('serves index.html for a client-side route such as /dashboard, uncached', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root"></div>');
    const nested = await t.app.inject({ method: 'GET', url: '/jobs/123?tab=steps', headers: html });
    expect(nested.body).toContain('<title>Lectio</title>');
  });

  it('serves hashed assets with a long cache lifetime', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("lectio")');
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('still answers unknown API paths and missing files with JSON 404', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/v1/nope', headers: html });
    expect(api.statusCode).toBe(404);
    expect(api.json().message).toBe('No API endpoint GET /api/v1/nope');
    const file = await t.app.inject({ method: 'GET', url: '/assets/missing.js', headers: { accept: '*/*' } });
    expect(file.statusCode).toBe(404);
    expect(file.json()).toHaveProperty('detail');
  });

  it('keeps the API working next to the SPA', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/environment' });
    expect(res.statusCode).toBe(200);
    expect(res.json().environment).toBe('dev');
  });
});
