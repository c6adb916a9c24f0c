import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, getJob, SHORT_TEXT, signIn, waitForJob } from '../testing/jobs';

const ARTICLE = `<!doctype html><html><head><title>The Quiet Harbour</title></head><body>
<nav>Home | About</nav><article><h1>The Quiet Harbour</h1>
<p>The harbour was quiet in the early morning, and the fishing boats rocked gently at their moorings.</p>
<p>Gulls circled above the water while the harbour master walked along the stone pier with his dog.</p>
</article><footer>Copyright</footer></body></html>`;

/** A page with three chapters: it becomes a book once it is read. */
const SERIAL = `<!doctype html><html><head><title>Harbour Stories</title></head><body><article>
<h1>Harbour Stories</h1>
<h2>Chapter 1</h2><p>The harbour was quiet in the early morning, and the fishing boats rocked gently at their moorings.</p>
<h2>Chapter 2</h2><p>Gulls circled above the water while the harbour master walked along the stone pier with his dog.</p>
<h2>Chapter 3</h2><p>By noon the boats came home, heavy with fish, and the whole town gathered on the quay to greet them.</p>
</article></body></html>`;

let server: http.Server;
/** Requests to /slow wait here until the test answers them. */
const held: http.ServerResponse[] = [];
let base: string;
let t: TestApp;
let strict: TestApp;
let headers: { authorization: string };
let strictHeaders: { authorization: string };
let slots: TestApp | undefined;
/** Requests seen by /flaky (the first one is never answered) and by /gone (always 404). */
const seen = { flaky: 0, gone: 0 };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/article') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    else if (req.url === '/serial') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SERIAL);
    else if (req.url === '/empty')
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p>Hi.</p></body></html>');
    else if (req.url === '/hang')
      return; // never answers
    else if (req.url === '/flaky') {
      seen.flaky += 1;
      if (seen.flaky > 1) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    } else if (req.url === '/gone') {
      seen.gone += 1;
      res.writeHead(404, { 'content-type': 'text/plain' }).end('gone');
    } else if (req.url?.startsWith('/slow')) held.push(res);
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
  await slots?.close();
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

  it('plans a page once it is read: a page with chapters becomes a book of them', { timeout: 90_000 }, async () => {
    const res = await createJob(t, headers, { title: 'Harbour Stories', url: `${base}/serial` });
    const created = res.json() as { id: string; job_type: string; steps: { step_name: string }[] };
    // Until the page is read nothing is known of it: the job starts as one text.
    expect(created.job_type).toBe('text_to_audio');
    const job = await waitForJob(t, headers, created.id, undefined, 60_000);
    expect(job.status, job.error_message ?? '').toBe('COMPLETED');
    expect(job.job_type).toBe('book_processing');
    expect(job.steps.map((s) => s.step_name)).toEqual([
      'acquire_content',
      'split_chapters',
      'synthesize_chapters',
      'analyze',
      'combine_audio',
      'finalize',
    ]);
    expect(job.result_data.chapters?.map((c) => c.title)).toEqual(['Chapter 1', 'Chapter 2', 'Chapter 3']);
    expect(job.children.map((c) => c.title)).toEqual([
      'Harbour Stories - Chapter 1',
      'Harbour Stories - Chapter 2',
      'Harbour Stories - Chapter 3',
    ]);
  });

  it(
    'fails the acquire step with a readable message for 404, silence, no article and private addresses',
    { timeout: 60_000 },
    async () => {
      expect(await failure(t, headers, `${base}/missing`)).toBe('The page answered 404 Not Found');
      expect(await failure(t, headers, `${base}/hang`)).toMatch(/did not answer within/);
      expect(await failure(t, headers, `${base}/empty`)).toBe('No readable article was found on that page');
      const ssrf = 'That address points to a private or internal network and cannot be converted';
      expect(await failure(t, headers, 'http://10.1.2.3/page')).toBe(ssrf);
      expect(await failure(t, headers, 'http://169.254.169.254/latest/meta-data')).toBe(ssrf);
      // Without the test-only switch, loopback is refused too.
      expect(await failure(strict, strictHeaders, `${base}/article`)).toBe(ssrf);
    },
  );
});

describe('retrying a page: the runner follows each error as retryable or not', () => {
  it(
    'fetches a page that did not answer in time again, and a page that answered 404 only once',
    { timeout: 60_000 },
    async () => {
      const res = await createJob(t, headers, { title: 'Flaky', url: `${base}/flaky` });
      const job = await waitForJob(t, headers, (res.json() as { id: string }).id);
      expect(job.status, job.error_message ?? '').toBe('COMPLETED');
      expect(seen.flaky).toBe(2);
      const step = job.steps.find((s) => s.step_name === 'acquire_content')!;
      expect(step.step_metadata.last_error).toMatch(/^The page did not answer within/);

      expect(await failure(t, headers, `${base}/gone`)).toBe('The page answered 404 Not Found');
      expect(seen.gone).toBe(1);
    },
  );
});

describe('web page downloads have their own slots (URL_FETCH_CONCURRENCY) and deadline (URL_FETCH_TIMEOUT_SECONDS)', () => {
  it(
    'a slow site never holds every worker: a text job completes while two page jobs wait on it',
    { timeout: 180_000 },
    async () => {
      slots = await createTestApp({
        env: {
          ENCODER_THREADS: '0',
          ALLOW_PRIVATE_FETCH_FOR_TESTS: 'true',
          WORKER_CONCURRENCY: '2',
          URL_FETCH_CONCURRENCY: '1',
          URL_FETCH_TIMEOUT_SECONDS: '60',
        },
        conversion: { stepRetryDelayMs: 10 },
      });
      const h = await signIn(slots, 'slots@example.com');
      const pages = [];
      for (const n of [1, 2]) {
        const res = await createJob(slots, h, { title: `Slow ${n}`, url: `${base}/slow/${n}` });
        expect(res.statusCode).toBe(201);
        pages.push((res.json() as { id: string }).id);
      }
      // Both worker slots could now be waiting on the slow site; another reader's text job must
      // still run (this reader's third job would wait its turn: QUOTA_RUNNING_JOBS is 2).
      await new Promise((r) => setTimeout(r, 1500));
      const other = await signIn(slots, 'meanwhile@example.com');
      const text = await createJob(slots, other, { title: 'Meanwhile', content: SHORT_TEXT });
      const done = await waitForJob(slots, other, (text.json() as { id: string }).id);
      expect(done.status, done.error_message ?? '').toBe('COMPLETED');
      // One download at a time: the second page job has not even asked the site yet.
      expect(held).toHaveLength(1);
      for (const id of pages) expect((await getJob(slots, h, id)).status).toBe('PROCESSING');

      // The site answers: each page job gets its turn and completes.
      const answer = () => held.shift()?.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
      answer();
      const deadline = Date.now() + 30_000;
      while (held.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      answer();
      for (const id of pages) {
        const job = await waitForJob(slots, h, id);
        expect(job.status, job.error_message ?? '').toBe('COMPLETED');
      }
    },
  );

  it('stops a download at URL_FETCH_TIMEOUT_SECONDS with a message saying so', { timeout: 60_000 }, async () => {
    const app = await createTestApp({
      env: { ENCODER_THREADS: '0', ALLOW_PRIVATE_FETCH_FOR_TESTS: 'true', URL_FETCH_TIMEOUT_SECONDS: '1' },
      conversion: { stepRetryDelayMs: 10, stepAttempts: 1 },
    });
    try {
      const h = await signIn(app, 'timeout@example.com');
      const started = Date.now();
      expect(await failure(app, h, `${base}/hang`)).toMatch(/^The page did not answer within 1/);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await app.close();
    }
  });
});
