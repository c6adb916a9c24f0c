import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/pglite';
import type { Db } from '../db/types';
import { seedCompletedAudiobook, seedCompletedBook, appStorage } from '../testing/library-fixtures';
import { createTestApp, manualClock, testConfig, truncateAll, type TestApp } from '../testing/app';
import { createJob, SHORT_TEXT, signIn, waitForJob } from '../testing/jobs';

// One database for the whole file; each describe starts an app with the limits it tests.
let db: Db;
beforeAll(async () => {
  db = await openPglite();
});
afterAll(async () => {
  await db?.close();
});

function multipart(filename: string, content: Buffer | string) {
  const boundary = '----lectio-quota-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(t: TestApp, headers: Record<string, string>, content: Buffer | string, filename = 'story.txt') {
  const form = multipart(filename, content);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/files',
    headers: { ...headers, ...form.headers },
    payload: form.payload,
  });
}

/** Every stored file's key under the app's storage root (temporary writes aside). */
function storedKeys(t: TestApp): string[] {
  const root = t.config.storageDir;
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name === '.tmp-writes') continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else out.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  walk(root);
  return out.sort();
}

/** A text of `bytes` bytes that the upload check accepts as prose. */
function prose(bytes: number): string {
  return SHORT_TEXT.repeat(Math.ceil(bytes / SHORT_TEXT.length)).slice(0, bytes);
}

describe('queued jobs limit (QUOTA_QUEUED_JOBS)', () => {
  let t: TestApp;
  beforeAll(async () => {
    await truncateAll(db);
    t = await createTestApp({ db, env: { WORKERS: 'none', QUOTA_QUEUED_JOBS: '2' } });
  });
  afterAll(async () => t?.close());

  it('answers 429 naming the limit once a user has that many unfinished jobs; other users are untouched', async () => {
    const alice = await signIn(t, 'alice@example.com');
    const bob = await signIn(t, 'bob@example.com');
    const first = await createJob(t, alice, { title: 'One', content: SHORT_TEXT });
    expect(first.statusCode).toBe(201);
    expect((await createJob(t, alice, { title: 'Two', content: SHORT_TEXT })).statusCode).toBe(201);

    const third = await createJob(t, alice, { title: 'Three', content: SHORT_TEXT });
    expect(third.statusCode).toBe(429);
    expect(third.json().detail).toBe(
      'Queue limit reached: you may have 2 jobs waiting or converting at once. Wait for one to finish or cancel one',
    );
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE title = 'Three'");
    expect(rows[0]?.n).toBe(0);

    // Bob has his own allowance.
    expect((await createJob(t, bob, { title: 'Bob one', content: SHORT_TEXT })).statusCode).toBe(201);

    // Once one of Alice's jobs is cancelled she may start another.
    const id = (first.json() as { id: string }).id;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${id}`, headers: alice })).statusCode).toBe(200);
    expect((await createJob(t, alice, { title: 'Three again', content: SHORT_TEXT })).statusCode).toBe(201);
  });

  it('counts a retried job too', async () => {
    const carol = await signIn(t, 'carol@example.com');
    const failed = (await createJob(t, carol, { title: 'Failed', content: SHORT_TEXT })).json() as { id: string };
    await db.query("UPDATE jobs SET status = 'FAILED', error_message = 'boom' WHERE id = $1", [failed.id]);
    expect((await createJob(t, carol, { title: 'A', content: SHORT_TEXT })).statusCode).toBe(201);
    expect((await createJob(t, carol, { title: 'B', content: SHORT_TEXT })).statusCode).toBe(201);
    const retry = await t.app.inject({ method: 'POST', url: `/api/v1/jobs/${failed.id}/retry`, headers: carol });
    expect(retry.statusCode).toBe(429);
    expect(retry.json().detail).toMatch(/^Queue limit reached: you may have 2 jobs/);
    const { rows } = await db.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [failed.id]);
    expect(rows[0]?.status).toBe('FAILED');
  });

  it('keeps QUOTA_ACTIVE_JOBS working for existing deployments: it sets the queued-jobs limit', () => {
    expect(testConfig({ QUOTA_ACTIVE_JOBS: '7' })).toMatchObject({
      quotaQueuedJobs: 7,
      quotaActiveJobsDeprecated: true,
    });
    expect(testConfig({ QUOTA_ACTIVE_JOBS: '7', QUOTA_QUEUED_JOBS: '9' })).toMatchObject({
      quotaQueuedJobs: 9,
      quotaActiveJobsDeprecated: false,
    });
    expect(testConfig()).toMatchObject({ quotaQueuedJobs: 100, quotaRunningJobs: 2, quotaActiveJobsDeprecated: false });
  });
});

describe('uploads per hour (QUOTA_UPLOADS_PER_HOUR)', () => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    await truncateAll(db);
    t = await createTestApp({ db, now: clock.now, env: { WORKERS: 'none', QUOTA_UPLOADS_PER_HOUR: '2' } });
  });
  afterAll(async () => t?.close());

  it('answers 429 with Retry-After past the limit, for that user only, and again accepts an hour later', async () => {
    const alice = await signIn(t, 'alice@example.com');
    const bob = await signIn(t, 'bob@example.com');
    expect((await upload(t, alice, SHORT_TEXT)).statusCode).toBe(201);
    clock.advance(600);
    expect((await upload(t, alice, SHORT_TEXT)).statusCode).toBe(201);
    const refused = await upload(t, alice, SHORT_TEXT);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toBe('Upload limit reached: at most 2 uploads per hour. Try again in 50 minutes');
    expect(refused.headers['retry-after']).toBe('3000');
    expect((await upload(t, bob, SHORT_TEXT)).statusCode).toBe(201);
    // Deleting an upload does not give the hourly allowance back.
    const key = ((await upload(t, bob, SHORT_TEXT)).json() as { file_key: string }).file_key;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/files/${key}`, headers: bob })).statusCode).toBe(204);
    expect((await upload(t, bob, SHORT_TEXT)).statusCode).toBe(429);
    clock.advance(3001);
    expect((await upload(t, alice, SHORT_TEXT)).statusCode).toBe(201);
  });
});

describe('storage quota (QUOTA_STORAGE_BYTES) and DELETE /files/{fileKey}', () => {
  let t: TestApp;
  beforeAll(async () => {
    await truncateAll(db);
    t = await createTestApp({ db, env: { WORKERS: 'none', QUOTA_STORAGE_BYTES: String(1024 * 1024) } });
  });
  afterAll(async () => t?.close());

  it('answers 413 naming the limit; deleting a file frees its space; other users are untouched', async () => {
    const alice = await signIn(t, 'alice@example.com');
    const bob = await signIn(t, 'bob@example.com');
    const first = await upload(t, alice, prose(600 * 1024));
    expect(first.statusCode, first.body).toBe(201);
    const key = (first.json() as { file_key: string }).file_key;

    const second = await upload(t, alice, prose(600 * 1024));
    expect(second.statusCode).toBe(413);
    expect(second.json().detail).toBe(
      'Storage limit reached: you use 600 KB of your 1.0 MB storage limit and this needs 600 KB more. Delete books or uploaded files to free space',
    );
    const text = await createJob(t, alice, { title: 'Long', content: prose(600 * 1024) });
    expect(text.statusCode).toBe(413);
    // A conversion is told what its text and audio need (server/jobs/storage-quota.test.ts).
    expect(text.json().detail).toMatch(/^This book needs about \d+ MB; you have 424 KB left of your 1\.0 MB storage\./);
    expect(storedKeys(t).filter((k) => k.startsWith('jobs/'))).toEqual([]);

    expect((await upload(t, bob, prose(600 * 1024))).statusCode).toBe(201);

    // Only the owner can delete; then the file is gone from storage and the space is free again.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/files/${key}`, headers: bob })).statusCode).toBe(404);
    expect(storedKeys(t)).toContain(key);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/files/${key}`, headers: alice });
    expect(deleted.statusCode).toBe(204);
    expect(storedKeys(t)).not.toContain(key);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/files/${key}`, headers: alice })).statusCode).toBe(
      404,
    );
    expect((await upload(t, alice, prose(600 * 1024))).statusCode).toBe(201);
  });

  it('reserves space atomically: parallel uploads and jobs never take a user past the quota', async () => {
    const dave = await signIn(t, 'dave@example.com');
    // 20 uploads of 300 KB and 10 texts of 450 KB at once against 1 MB: at most 3 fit, whatever the order.
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, (_v, i) => upload(t, dave, prose(300 * 1024 + i))),
      ...Array.from({ length: 10 }, (_v, i) =>
        createJob(t, dave, { title: `Text ${i}`, content: prose(450 * 1024 + i) }),
      ),
    ]);
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s !== 201 && s !== 413 && s !== 429)).toEqual([]);
    const accepted = statuses.filter((s) => s === 201).length;
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThanOrEqual(3);
    const { rows } = await db.query<{ used: string }>(
      `SELECT (SELECT COALESCE(sum(size_bytes), 0) FROM uploaded_files u JOIN users ON users.id = u.user_id WHERE users.email = $1)
            + (SELECT COALESCE(sum((config->>'source_bytes')::bigint), 0) FROM jobs j JOIN users ON users.id = j.user_id WHERE users.email = $1) AS used`,
      ['dave@example.com'],
    );
    expect(Number(rows[0]!.used)).toBeLessThanOrEqual(1024 * 1024);
  });

  it('refuses to delete the file a job was made from (409), and malformed keys (422)', async () => {
    const carol = await signIn(t, 'carol@example.com');
    const key = ((await upload(t, carol, SHORT_TEXT)).json() as { file_key: string }).file_key;
    expect((await createJob(t, carol, { title: 'From file', file_key: key })).statusCode).toBe(201);
    const inUse = await t.app.inject({ method: 'DELETE', url: `/api/v1/files/${key}`, headers: carol });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().detail).toBe('This file is the text of the job "From file"; delete that job to remove it');
    const bad = await t.app.inject({ method: 'DELETE', url: '/api/v1/files/uploads/a%20b.txt', headers: carol });
    expect(bad.statusCode).toBe(422);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/files/${key}` })).statusCode).toBe(401);
  });
});

describe('deleting a finished job (DELETE /jobs/{id} on COMPLETED, FAILED or CANCELLED)', () => {
  let t: TestApp;
  beforeAll(async () => {
    await truncateAll(db);
    t = await createTestApp({ db, env: { WORKERS: 'none' } });
  });
  afterAll(async () => t?.close());

  async function userId(headers: Record<string, string>): Promise<string> {
    return ((await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers })).json() as { id: string }).id;
  }

  it('deletes a book with its chapters, audio, timing maps and listening progress, and nothing of another user', async () => {
    const alice = await signIn(t, 'alice@example.com');
    const bob = await signIn(t, 'bob@example.com');
    const storage = appStorage(t.config);
    const book = await seedCompletedBook(db, storage, { userId: await userId(alice), chapters: 2 });
    const single = await seedCompletedAudiobook(db, storage, { userId: await userId(alice), title: 'Kept' });
    const bobs = await seedCompletedBook(db, storage, { userId: await userId(bob), chapters: 2 });
    for (const [h, id] of [
      [alice, book.bookId],
      [alice, single.jobId],
      [bob, bobs.bookId],
    ] as const) {
      const saved = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/progress/${id}`,
        headers: h,
        payload: { position_seconds: 1 },
      });
      expect(saved.statusCode).toBe(200);
    }
    const before = storedKeys(t);
    expect(before).toContain(book.fileKey);
    expect(before).toContain(`audio/${book.chapterIds[0]}.mp3.timing.json`);

    // Bob cannot delete Alice's book; a chapter cannot be deleted on its own.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${book.bookId}?delete=true`, headers: bob }))
        .statusCode,
    ).toBe(404);
    const chapter = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/jobs/${book.chapterIds[0]}?delete=true`,
      headers: alice,
    });
    expect(chapter.statusCode).toBe(409);
    expect(chapter.json().detail).toBe('This job is a chapter of a book: delete the book to remove it');

    // A plain DELETE (a cancel, perhaps sent just after the book finished) never removes it.
    const lateCancel = await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${book.bookId}`, headers: alice });
    expect(lateCancel.statusCode).toBe(409);
    expect(lateCancel.json().detail).toBe('Cannot cancel a job that is COMPLETED');
    expect(storedKeys(t)).toEqual(before);

    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/jobs/${book.bookId}?delete=true`,
      headers: alice,
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    for (const id of [book.bookId, ...book.chapterIds]) {
      expect((await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers: alice })).statusCode).toBe(404);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/progress/${book.bookId}`, headers: alice })).statusCode,
    ).toBe(404);
    const { rows } = await db.query<{ job_id: string }>('SELECT job_id FROM playback_progress ORDER BY job_id');
    expect(rows.map((r) => r.job_id).sort()).toEqual([single.jobId, bobs.bookId].sort());

    // Storage freed: the book's and its chapters' audio and timing maps are gone, the rest is there.
    const after = storedKeys(t);
    const bookFiles = before.filter((k) => [book.bookId, ...book.chapterIds].some((id) => k.includes(id)));
    expect(bookFiles.length).toBe(5); // the joined MP3, and each chapter's MP3 and timing map
    expect(after).toEqual(before.filter((k) => !bookFiles.includes(k)));
    expect(after).toContain(single.fileKey);
    expect(after).toContain(bobs.fileKey);

    const list = await t.app.inject({ method: 'GET', url: '/api/v1/jobs?top_level=true', headers: alice });
    expect((list.json() as { jobs: { title: string }[] }).jobs.map((j) => j.title)).toEqual(['Kept']);
    const bobList = await t.app.inject({ method: 'GET', url: '/api/v1/jobs', headers: bob });
    expect((bobList.json() as { total: number }).total).toBe(3);
  });

  it('deletes a failed job made from an upload together with that upload, freeing its storage', async () => {
    const dave = await signIn(t, 'dave@example.com');
    const key = ((await upload(t, dave, SHORT_TEXT)).json() as { file_key: string }).file_key;
    const job = (await createJob(t, dave, { title: 'From file', file_key: key })).json() as { id: string };
    await db.query("UPDATE jobs SET status = 'FAILED', error_message = 'boom' WHERE id = $1", [job.id]);
    expect(storedKeys(t)).toContain(key);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${job.id}?delete=true`, headers: dave })).statusCode,
    ).toBe(204);
    expect(storedKeys(t)).not.toContain(key);
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM uploaded_files WHERE file_key = $1',
      [key],
    );
    expect(rows[0]?.n).toBe(0);
  });
});

describe('deleting a job the pipeline converted', () => {
  let t: TestApp;
  beforeAll(async () => {
    await truncateAll(db);
    t = await createTestApp({ db, env: { ENCODER_THREADS: '0' } });
  });
  afterAll(async () => t?.close());

  it('leaves no file of the job in storage', { timeout: 60_000 }, async () => {
    const erin = await signIn(t, 'erin@example.com');
    const id = ((await createJob(t, erin, { title: 'Short', content: SHORT_TEXT })).json() as { id: string }).id;
    const done = await waitForJob(t, erin, id);
    expect(done.status, done.error_message ?? '').toBe('COMPLETED');
    expect(storedKeys(t).filter((k) => k.includes(id)).length).toBeGreaterThanOrEqual(3);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${id}?delete=true`, headers: erin })).statusCode,
    ).toBe(204);
    expect(storedKeys(t).filter((k) => k.includes(id))).toEqual([]);
  });
});
