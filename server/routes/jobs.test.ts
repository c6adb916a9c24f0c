import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, SHORT_TEXT, signIn } from '../testing/jobs';

// WORKERS=none: jobs are only queued, so these tests see exactly the rows they create.
let t: TestApp;
let headers: { authorization: string };
let other: { authorization: string };

beforeAll(async () => {
  // A high active-jobs quota: these tests keep many jobs PENDING on purpose (quotas.test.ts tests the limit).
  // Every job is handed to the (absent) workers at once: none waits in the fair queue here.
  t = await createTestApp({ env: { WORKERS: 'none', QUOTA_ACTIVE_JOBS: '100', QUOTA_RUNNING_JOBS: '100' } });
  headers = await signIn(t, 'lister@example.com');
  other = await signIn(t, 'someone@example.com');
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.exec('DELETE FROM jobs; DELETE FROM uploaded_files;');
});

function multipart(filename: string, content: Buffer | string, field = 'file') {
  const boundary = '----lectio-test-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('POST /jobs validation', () => {
  it('answers 201 with the job PENDING and its planned steps', async () => {
    const res = await createJob(t, headers, {
      title: 'One',
      content: SHORT_TEXT,
      voice_config: { provider: 'elevenlabs' },
    });
    expect(res.statusCode).toBe(201);
    const job = res.json() as {
      status: string;
      config: { voice_config: { provider: string; voice_id: string }; provider: string };
      input_file_key: string;
    };
    expect(job.status).toBe('PENDING');
    expect(job.config.voice_config).toEqual({ provider: 'elevenlabs', voice_id: 'adam' });
    expect(job.config.provider).toBe('elevenlabs');
    expect(job.input_file_key).toMatch(/^jobs\/.+\/source\.txt$/);
    const defaults = (await createJob(t, headers, { title: 'Two', content: SHORT_TEXT })).json() as typeof job;
    expect(defaults.config.voice_config).toEqual({ provider: 'openai', voice_id: 'alloy' });
  });

  it('refuses too-short text, blank text, two sources, no source and an unknown provider with 422', async () => {
    const short = await createJob(t, headers, { title: 'x', content: 'Too short.' });
    expect(short.statusCode).toBe(422);
    expect(short.json().detail).toBe('Content must be at least 100 characters');
    const blank = await createJob(t, headers, { title: 'x', content: ' '.repeat(150) });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().detail).toMatch(/at least 100 characters/);
    const both = await createJob(t, headers, { title: 'x', content: SHORT_TEXT, url: 'https://example.com/a' });
    expect(both.statusCode).toBe(422);
    expect(both.json().detail).toBe('Exactly one of content, file_key, or url must be provided');
    const none = await createJob(t, headers, { title: 'x' });
    expect(none.json().detail).toBe('Exactly one of content, file_key, or url must be provided');
    const provider = await createJob(t, headers, {
      title: 'x',
      content: SHORT_TEXT,
      voice_config: { provider: 'acme' },
    });
    expect(provider.statusCode).toBe(422);
    expect(provider.json().detail).toMatch(/Provider must be one of "openai", "elevenlabs"/);
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs');
    expect(rows[0]?.n).toBe(0);
  });

  it('answers 413 for a body over 12 MB', async () => {
    const res = await createJob(t, headers, { title: 'Huge', content: 'a'.repeat(13 * 1024 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json().detail).toBe('The text is larger than 10 MB');
  });
});

describe('POST /files', () => {
  it('stores a .txt upload under a server key, and a job can use it; another user cannot (404)', async () => {
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...headers, ...multipart('story.txt', SHORT_TEXT).headers },
      payload: multipart('story.txt', SHORT_TEXT).payload,
    });
    expect(up.statusCode).toBe(201);
    const body = up.json() as { file_key: string; filename: string; size_bytes: number };
    expect(body.file_key).toMatch(/^uploads\/[0-9a-f-]{36}\.txt$/);
    expect(body).toMatchObject({ filename: 'story.txt', size_bytes: Buffer.byteLength(SHORT_TEXT) });
    const job = await createJob(t, headers, { title: 'From file', file_key: body.file_key });
    expect(job.statusCode).toBe(201);
    expect(job.json()).toMatchObject({ input_file_key: body.file_key, config: { source: 'file' } });
    const stolen = await createJob(t, other, { title: 'Not mine', file_key: body.file_key });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().detail).toBe('File not found');
  });

  it('refuses a non-.txt file and a binary file with 415, and an 11 MB file with 413', async () => {
    const pdf = multipart('story.docx', SHORT_TEXT);
    const r1 = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...headers, ...pdf.headers },
      payload: pdf.payload,
    });
    expect(r1.statusCode).toBe(415);
    expect(r1.json().detail).toBe('Only .txt, .epub, .pdf, .md and .html files can be uploaded');
    const bin = multipart('story.txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3, 0xff, 0xfe, 0]));
    const r2 = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...headers, ...bin.headers },
      payload: bin.payload,
    });
    expect(r2.statusCode).toBe(415);
    const big = multipart('big.txt', Buffer.alloc(11 * 1024 * 1024, 'a'));
    const r3 = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...headers, ...big.headers },
      payload: big.payload,
    });
    expect(r3.statusCode).toBe(413);
    expect(r3.json().detail).toBe('The file is larger than 10 MB');
    const json = await t.app.inject({ method: 'POST', url: '/api/v1/files', headers, payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM uploaded_files');
    expect(rows[0]?.n).toBe(0);
  });
});

describe('GET /jobs', () => {
  async function seed() {
    const ids: string[] = [];
    for (const [i, title] of ['Alpha story', 'beta tale', 'Gamma story', 'Delta notes', 'Epsilon story'].entries()) {
      const res = await createJob(t, headers, { title, content: SHORT_TEXT });
      const id = (res.json() as { id: string }).id;
      ids.push(id);
      await t.db.query(
        `UPDATE jobs SET created_at = now() - make_interval(mins => $2), updated_at = now() + make_interval(mins => $2) WHERE id = $1`,
        [id, 10 - i],
      );
    }
    await t.db.query(`UPDATE jobs SET status = 'COMPLETED' WHERE id = $1`, [ids[0]]);
    await t.db.query(`UPDATE jobs SET status = 'FAILED' WHERE id = $1`, [ids[1]]);
    await t.db.query(`UPDATE jobs SET status = 'PROCESSING' WHERE id = $1`, [ids[2]]);
    // A chapter of Alpha: top_level leaves it out.
    await t.db.query(
      `INSERT INTO jobs (id, user_id, parent_job_id, chapter_order, job_type, title, status)
       SELECT gen_random_uuid(), user_id, id, 1, 'text_to_audio', 'Alpha story - Chapter 1', 'PENDING' FROM jobs WHERE id = $1`,
      [ids[0]],
    );
    await createJob(t, other, { title: 'Other story', content: SHORT_TEXT });
    return ids;
  }
  const list = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/jobs?${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      jobs: {
        id: string;
        title: string;
        status: string;
        parent_job_id: string | null;
        chapter_count: number;
        steps?: unknown;
        children?: unknown;
        parent?: unknown;
      }[];
      total: number;
      page: number;
      page_size: number;
      total_pages: number;
    };
  };

  it('pages newest first and filters, searches and sorts', async () => {
    const ids = await seed();
    const first = await list('page=1&page_size=2');
    expect(first).toMatchObject({ total: 6, page: 1, page_size: 2, total_pages: 3 });
    expect(first.jobs[0]?.title).toBe('Alpha story - Chapter 1');
    expect(first.jobs[0]?.parent_job_id).toBe(ids[0]);
    // Summaries: the list leaves steps, children and parent to GET /jobs/{id}.
    expect(first.jobs[0]).not.toHaveProperty('steps');
    expect(first.jobs[0]).not.toHaveProperty('children');
    expect(first.jobs[0]).not.toHaveProperty('parent');
    const third = await list('page=3&page_size=2');
    expect(third.jobs.map((j) => j.title)).toEqual(['beta tale', 'Alpha story']);
    const top = await list('top_level=true');
    expect(top.total).toBe(5);
    expect(top.jobs.find((j) => j.title === 'Alpha story')?.chapter_count).toBe(1);
    expect(top.jobs.find((j) => j.title === 'beta tale')?.chapter_count).toBe(0);
    expect((await list('status=running')).jobs.map((j) => j.title).sort()).toEqual([
      'Alpha story - Chapter 1',
      'Delta notes',
      'Epsilon story',
      'Gamma story',
    ]);
    // The job status values work as well as the lowercase aliases, in any case.
    expect((await list('status=RUNNING')).jobs.map((j) => j.title).sort()).toEqual([
      'Alpha story - Chapter 1',
      'Delta notes',
      'Epsilon story',
      'Gamma story',
    ]);
    expect((await list('status=Pending')).total).toBe((await list('status=PENDING')).total);
    expect((await list('status=completed')).jobs.map((j) => j.title)).toEqual(['Alpha story']);
    expect((await list('status=failed')).total).toBe(1);
    expect((await list('q=STORY&top_level=true')).jobs.map((j) => j.title)).toEqual([
      'Epsilon story',
      'Gamma story',
      'Alpha story',
    ]);
    expect((await list(`q=${ids[3]!.slice(0, 8)}`)).jobs.map((j) => j.title)).toEqual(['Delta notes']);
    expect((await list('q=50%25')).total).toBe(0);
    expect((await list('sort=title&order=asc&top_level=true')).jobs.map((j) => j.title)).toEqual([
      'Alpha story',
      'beta tale',
      'Delta notes',
      'Epsilon story',
      'Gamma story',
    ]);
    expect((await list('sort=updated_at&order=desc&top_level=true')).jobs[0]?.title).toBe('Alpha story');
    expect((await list('sort=status&order=asc&top_level=true')).jobs[0]?.status).toBe('COMPLETED');
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/jobs?status=DONE', headers });
    expect(bad.statusCode).toBe(422);
    const noAuth = await t.app.inject({ method: 'GET', url: '/api/v1/jobs' });
    expect(noAuth.statusCode).toBe(401);
  });

  it('reads a page of 20 with one query, whatever the number of books and chapters on it', async () => {
    const ids = await seed();
    // Two more chapters, on another book: the page holds two books with chapters.
    for (const order of [1, 2]) {
      await t.db.query(
        `INSERT INTO jobs (id, user_id, parent_job_id, chapter_order, job_type, title, status)
         SELECT gen_random_uuid(), user_id, id, $2, 'text_to_audio', 'Gamma chapter', 'PENDING' FROM jobs WHERE id = $1`,
        [ids[2], order],
      );
    }
    const spy = vi.spyOn(t.db, 'query');
    try {
      const page = await list('page=1&page_size=20');
      expect(page.jobs).toHaveLength(8);
      expect(page.jobs.find((j) => j.title === 'Gamma story')?.chapter_count).toBe(2);
      const jobQueries = () => spy.mock.calls.map(([sql]) => String(sql)).filter((sql) => /\bjobs\b/.test(sql));
      expect(jobQueries()).toHaveLength(1);
      // The same page again, nothing changed: answered from the cache, no query at all.
      spy.mockClear();
      expect((await list('page=1&page_size=20')).jobs).toHaveLength(8);
      expect(jobQueries()).toHaveLength(0);
    } finally {
      spy.mockRestore();
    }
  });

  it("a cached page goes stale the moment its owner's jobs change, whoever changes them", async () => {
    const ids = await seed();
    const before = await list('page=1&page_size=20&top_level=true');
    expect(before.jobs.find((j) => j.id === ids[2])?.status).toBe('PROCESSING');
    await list('page=1&page_size=20&top_level=true'); // cached now
    // A worker (any process) writes straight to the database; the trigger announces it.
    await t.db.query(`UPDATE jobs SET status = 'COMPLETED', progress = 100 WHERE id = $1`, [ids[2]]);
    const after = await list('page=1&page_size=20&top_level=true');
    expect(after.jobs.find((j) => j.id === ids[2])).toMatchObject({ status: 'COMPLETED', progress: 100 });
    // A new job, a deleted one: the total follows at once.
    await t.db.query(`DELETE FROM jobs WHERE id = $1`, [ids[4]]);
    expect((await list('page=1&page_size=20&top_level=true')).total).toBe(4);
    await createJob(t, headers, { title: 'Zeta story', content: SHORT_TEXT });
    expect((await list('page=1&page_size=20&top_level=true')).total).toBe(5);
    // Another user's change leaves this user's cached page alone, and theirs is their own.
    await createJob(t, other, { title: 'Other again', content: SHORT_TEXT });
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/v1/jobs?page=1&page_size=20&top_level=true',
      headers: other,
    });
    expect((theirs.json() as { total: number }).total).toBe(2);
  });

  it('a page with jobs waiting their turn costs one more query, whatever their number, and is not cached', async () => {
    const fair = await createTestApp({ db: t.db, env: { WORKERS: 'none', QUOTA_RUNNING_JOBS: '1' } });
    try {
      const reader = await signIn(fair, 'waiting@example.com');
      for (const title of ['First', 'Second', 'Third', 'Fourth'])
        await createJob(fair, reader, { title, content: SHORT_TEXT });
      const spy = vi.spyOn(t.db, 'query');
      try {
        for (let i = 0; i < 2; i += 1) {
          const res = await fair.app.inject({
            method: 'GET',
            url: '/api/v1/jobs?page_size=20&sort=created_at&order=asc',
            headers: reader,
          });
          const jobs = (res.json() as { jobs: { title: string; queue_position?: number }[] }).jobs;
          expect(jobs.map((j) => [j.title, j.queue_position ?? null])).toEqual([
            ['First', null],
            ['Second', 1],
            ['Third', 2],
            ['Fourth', 3],
          ]);
        }
        // Each read: the page, then the positions of its waiting jobs (other readers' jobs move them).
        expect(spy.mock.calls.filter(([sql]) => /\bjobs\b/.test(String(sql)))).toHaveLength(4);
      } finally {
        spy.mockRestore();
      }
    } finally {
      await fair.close();
    }
  });

  it('JOB_LIST_CACHE=off reads every page from the database', async () => {
    await seed();
    const uncached = await createTestApp({ db: t.db, env: { WORKERS: 'none', JOB_LIST_CACHE: 'off' } });
    const spy = vi.spyOn(t.db, 'query');
    try {
      for (let i = 0; i < 2; i += 1) {
        const res = await uncached.app.inject({ method: 'GET', url: '/api/v1/jobs?page_size=20', headers });
        expect(res.statusCode).toBe(200);
      }
      expect(spy.mock.calls.filter(([sql]) => /\bjobs\b/.test(String(sql)))).toHaveLength(2);
    } finally {
      spy.mockRestore();
      await uncached.close();
    }
  });

  it('sends an ETag; an unchanged page answers 304 with no body, a changed one 200 with a new ETag', async () => {
    const ids = await seed();
    const url = '/api/v1/jobs?page=1&page_size=20&top_level=true';
    const first = await t.app.inject({ method: 'GET', url, headers });
    expect(first.statusCode).toBe(200);
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^"[^"]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.headers.vary).toMatch(/Authorization/);

    const again = await t.app.inject({ method: 'GET', url, headers: { ...headers, 'if-none-match': tag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    // Another user's identical query is another answer (their own jobs), never a 304 of this one.
    const theirs = await t.app.inject({ method: 'GET', url, headers: { ...other, 'if-none-match': tag } });
    expect(theirs.statusCode).toBe(200);

    await t.db.query(`UPDATE jobs SET progress = 42, updated_at = now() WHERE id = $1`, [ids[2]]);
    const changed = await t.app.inject({ method: 'GET', url, headers: { ...headers, 'if-none-match': tag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(tag);
    expect(
      (changed.json() as { jobs: { id: string; progress: number }[] }).jobs.find((j) => j.id === ids[2])?.progress,
    ).toBe(42);
  });

  it('answers 404 for an unknown id, 422 for a malformed one, and 409 when retrying a job that did not fail', async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/v1/jobs/00000000-0000-4000-8000-000000000000',
      headers,
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await t.app.inject({ method: 'GET', url: '/api/v1/jobs/not-a-uuid', headers });
    expect(malformed.statusCode).toBe(422);
    const id = ((await createJob(t, headers, { title: 'Pending', content: SHORT_TEXT })).json() as { id: string }).id;
    const retry = await t.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/retry`, headers });
    expect(retry.statusCode).toBe(409);
    const cancel = await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${id}`, headers });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().status).toBe('CANCELLED');
    // Cancelling it again is refused; deleting the now finished (CANCELLED) job needs delete=true.
    const again = await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${id}`, headers });
    expect(again.statusCode).toBe(409);
    const activeDelete = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/jobs/${(await createJob(t, headers, { title: 'Running', content: SHORT_TEXT })).json().id}?delete=true`,
      headers,
    });
    expect(activeDelete.statusCode).toBe(409);
    expect(activeDelete.json().detail).toMatch(/cancel it first/);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${id}?delete=true`, headers });
    expect(removed.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers })).statusCode).toBe(404);
  });
});
