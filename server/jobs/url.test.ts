import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing';
import { createJob, signIn, waitForJob } from './test-helpers';

const ARTICLE = `<!doctype html><html><head><title>The Quiet Harbour</title></head><body>
<nav>Home | About</nav><article><h1>The Quiet Harbour</h1>
<p>The harbour was quiet in the early morning, and the fishing boats rocked gently at their moorings.</p>
<p>Gulls circled above the water while the harbour master walked along the stone pier with his dog.</p>
</article><footer>Copyright</footer></body></html>`;

let server: http.Server;
let base: string;
let t: TestApp;
let strict: TestApp;
let headers: { authorization: string };
let strictHeaders: { authorization: string };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/article') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    else if (req.url === '/empty') res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p>Hi.</p></body></html>');
    else if (req.url === '/hang') return; // never answers
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const conversion = { fetchTimeoutMs: 1000, stepRetryDelayMs: 10 };
  t = await createTestApp({ env: { ENCODER_THREADS: '0', ALLOW_PRIVATE_FETCH_FOR_TESTS: 'true' }, conversion });
  strict = await createTestApp({ env: { WORKERS: 'in-process' }, conversion });
  headers = await signIn(t, 'web@example.com');
  strictHeaders = await signIn(strict, 'web@example.com');
});
afterAll(async () => {
  await t?.close();
  await strict?.close();
  server?.closeAllConnections();
  server?.close();
});

async function failure(app: TestApp, h: Record<string, string>, url: string) {
  const res = await createJob(app, h, { title: 'Page', url });
  expect(res.statusCode).toBe(201);
  const job = await waitForJob(app, h, (res.json() as { id: string }).id);
  expect(job.status).toBe('FAILED');
  const step = job.steps.find((s) => s.step_name === 'acquire_content')!;
  expect(step.status).toBe('FAILED');
  expect(step.error_message).toBe(job.error_message);
  return job.error_message;
}

describe('web page jobs', () => {
  it('converts an article; the page title replaces a title that was the address', { timeout: 60_000 }, async () => {
    const url = `${base}/article`;
    const res = await createJob(t, headers, { title: url, url });
    const job = await waitForJob(t, headers, (res.json() as { id: string }).id);
    expect(job.status, job.error_message ?? '').toBe('COMPLETED');
    expect(job.title).toBe('The Quiet Harbour');
    expect(job.config).toMatchObject({ source: 'url', source_url: url });
    expect(job.input_file_key).toMatch(/source\.txt$/);
    expect(job.result_data.duration_seconds).toBeGreaterThan(0);
  });

  it('fails the acquire step with a readable message for 404, silence, no article and private addresses', { timeout: 60_000 }, async () => {
    expect(await failure(t, headers, `${base}/missing`)).toBe('The page answered 404 Not Found');
    expect(await failure(t, headers, `${base}/hang`)).toMatch(/did not answer within/);
    expect(await failure(t, headers, `${base}/empty`)).toBe('No readable article was found on that page');
    const ssrf = 'That address points to a private or internal network and cannot be converted';
    expect(await failure(t, headers, 'http://10.1.2.3/page')).toBe(ssrf);
    expect(await failure(t, headers, 'http://169.254.169.254/latest/meta-data')).toBe(ssrf);
    // Without the test-only switch, loopback is refused too.
    expect(await failure(strict, strictHeaders, `${base}/article`)).toBe(ssrf);
  });
});
