import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/pglite';
import { createJob, SHORT_TEXT, signIn, waitForJob } from '../testing/jobs';
import { LocalFileStorage } from '../storage/local';
import { createTestApp, type TestApp } from '../testing/app';

const TOKEN = 'metrics-token-0123456789';
let t: TestApp;
let headers: { authorization: string };

beforeAll(async () => {
  t = await createTestApp({ env: { ENCODER_THREADS: '0', METRICS_TOKEN: TOKEN } });
  headers = await signIn(t, 'ops@example.com');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const scrape = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
};

describe('health and readiness', () => {
  it('answers /healthz and /readyz without a token and without details of the parts', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok', queue: 'ok' } });
  });

  it('answers 503 naming storage when the store cannot be written', async () => {
    const notADirectory = path.join(mkdtempSync(path.join(tmpdir(), 'lectio-ops-')), 'file');
    writeFileSync(notADirectory, 'in the way');
    const broken = await createTestApp({ storage: new LocalFileStorage(notADirectory) });
    try {
      const res = await broken.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body).toMatchObject({
        status: 'not_ready',
        failing: ['storage'],
        checks: { database: 'ok', storage: 'unavailable', queue: 'ok' },
        detail: 'Not ready: storage is unavailable',
      });
      // No paths or error texts from the server in the answer.
      expect(res.body).not.toContain(notADirectory);
    } finally {
      await broken.close();
    }
  });

  it('answers 503 naming the database (and the queue on it) when the database is gone', async () => {
    const db = await openPglite();
    const app = await createTestApp({ db, env: { WORKERS: 'none' } });
    await db.close();
    try {
      const res = await app.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        failing: ['database', 'queue'],
        checks: { database: 'unavailable', storage: 'ok', queue: 'unavailable' },
      });
    } finally {
      await app.app.close().catch(() => undefined);
    }
  });
});

describe('metrics', () => {
  it('needs the bearer token when METRICS_TOKEN is set', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer not-the-metrics-token' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().detail).toBe('A valid metrics bearer token is required');
    // The API's own tokens do not open it either.
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers })).statusCode).toBe(401);
  });

  it('reports requests by route, jobs by state, the queue, conversion speed, voice sockets and event-loop lag', async () => {
    const id = ((await createJob(t, headers, { title: 'Metered', content: SHORT_TEXT })).json() as { id: string }).id;
    const job = await waitForJob(t, headers, id, undefined, 60_000);
    expect(job.status).toBe('COMPLETED');
    const text = await scrape();
    expect(text).toMatch(
      /lectio_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/jobs\/:jobId",status="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /lectio_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/jobs",status="201"\} 1/,
    );
    expect(text).toContain('lectio_jobs{state="COMPLETED"} 1');
    expect(text).toContain('lectio_jobs{state="PROCESSING"} 0');
    expect(text).toMatch(/lectio_queue_depth \d+/);
    expect(text).toMatch(/lectio_queue_oldest_wait_seconds \d/);
    expect(text).toMatch(/lectio_conversion_speed_ratio_count\{provider="openai"\} 1/);
    expect(text).toContain('lectio_voice_sessions_active 0');
    expect(text).toMatch(/nodejs_eventloop_lag_seconds \d/);
    expect(text).toContain('# TYPE lectio_synthesis_errors_total counter');
  }, 90_000);

  it('is off (404) without METRICS_TOKEN or METRICS_PUBLIC, and open with METRICS_PUBLIC=true', async () => {
    const db = await openPglite();
    const off = await createTestApp({ db, env: { WORKERS: 'none' } });
    const open = await createTestApp({ db, env: { WORKERS: 'none', METRICS_PUBLIC: 'true' } });
    try {
      expect((await off.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
      const res = await open.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.body).toContain('# TYPE lectio_http_request_duration_seconds histogram');
    } finally {
      await off.close();
      await open.close();
      await db.close();
    }
  });
});

describe('request ids', () => {
  it('puts the request id in every error body, in the x-request-id header, and keeps a proxy-given one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/jobs/not-a-uuid', headers });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    const body = res.json();
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['x-request-id']).toBe(body.request_id);

    const given = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { 'x-request-id': 'proxy-req-12345678' },
    });
    expect(given.statusCode).toBe(401);
    expect(given.json()).toMatchObject({ detail: 'Not authenticated', request_id: 'proxy-req-12345678' });
    expect(given.headers['x-request-id']).toBe('proxy-req-12345678');
  });
});
