import { readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/pglite';
import type { Db } from '../db/types';
import { createTestApp, truncateAll, type TestApp } from '../testing/app';
import { makeEpub3 } from '../testing/books';
import { createJob, SHORT_TEXT, signIn, waitForJob } from '../testing/jobs';
import { formatBytes } from './quotas';
import { audioBytes, voiceFigures } from './space';

// The storage quota counts every byte a reader keeps, the audio of their conversions included,
// and reserves it before it is written (server/jobs/quotas.ts, server/jobs/space.ts).
let db: Db;
beforeAll(async () => {
  db = await openPglite();
});
afterAll(async () => {
  await db?.close();
});

const MB = 1024 * 1024;

/** Bytes of every file kept under the app's storage root whose key starts with one of `prefixes`. */
function keptBytes(t: TestApp, prefixes: string[]): number {
  const root = t.config.storageDir;
  let total = 0;
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
      const key = path.relative(root, full).split(path.sep).join('/');
      if (e.isDirectory()) walk(full);
      else if (prefixes.some((p) => key.startsWith(p))) total += statSync(full).size;
    }
  };
  walk(root);
  return total;
}

/** Plain prose (no headings: one text, not a book) of `chars` characters. */
function prose(chars: number): string {
  return SHORT_TEXT.repeat(Math.ceil(chars / SHORT_TEXT.length)).slice(0, chars);
}

async function storageOf(t: TestApp, headers: Record<string, string>) {
  const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers });
  expect(me.statusCode).toBe(200);
  return (me.json() as { storage: { used_bytes: number; quota_bytes: number } }).storage;
}

/** POST /files with `text` as a .txt file. */
function uploadText(t: TestApp, headers: Record<string, string>, text: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/files',
    headers: { ...headers, 'content-type': 'multipart/form-data; boundary=quota' },
    payload: Buffer.from(
      `--quota\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--quota--\r\n`,
    ),
  });
}

describe('the audio of conversions counts in the storage quota', () => {
  let t: TestApp;
  beforeAll(async () => {
    await truncateAll(db);
    t = await createTestApp({
      db,
      env: { ENCODER_THREADS: '0', QUOTA_STORAGE_BYTES: String(2 * MB), ALLOW_PRIVATE_FETCH_FOR_TESTS: 'true' },
    });
  });
  afterAll(async () => t?.close());

  it(
    'parallel conversions cannot together keep more than the quota; /auth/me reports what is stored',
    { timeout: 120_000 },
    async () => {
      const ann = await signIn(t, 'ann@example.com');
      // Each text's audio is about 700 KB (two minutes of speech at 48 kbit/s): two fit in 2 MB, six do not.
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_v, i) => createJob(t, ann, { title: `Text ${i}`, content: prose(2048 + i) })),
      );
      const accepted = answers.filter((a) => a.statusCode === 201).map((a) => (a.json() as { id: string }).id);
      const refused = answers.filter((a) => a.statusCode !== 201);
      expect(accepted.length).toBeGreaterThan(0);
      expect(accepted.length).toBeLessThanOrEqual(2);
      for (const answer of refused) {
        expect(answer.statusCode).toBe(413);
        expect(answer.json().detail).toMatch(
          /^This text needs about \d+ KB; you have (\d+ KB|\d\.\d MB|no space) left of your 2\.0 MB storage\. Delete books you no longer need to make room$/,
        );
      }
      // While they convert, their audio is reserved: the reader's use counts it already.
      const converting = await storageOf(t, ann);
      expect(converting.used_bytes).toBeGreaterThan(accepted.length * 600 * 1024);
      expect(converting.used_bytes).toBeLessThanOrEqual(2 * MB);

      for (const id of accepted) {
        const done = await waitForJob(t, ann, id, undefined, 90_000);
        expect(done.status, done.error_message ?? '').toBe('COMPLETED');
      }
      const onDisk = keptBytes(
        t,
        accepted.map((id) => `jobs/${id}/`),
      );
      expect(onDisk).toBeGreaterThan(accepted.length * 500 * 1024);
      expect(onDisk).toBeLessThanOrEqual(2 * MB);
      // Once finished, each reservation is replaced by the true size of what the job keeps.
      expect(await storageOf(t, ann)).toEqual({ used_bytes: onDisk, quota_bytes: 2 * MB });
    },
  );

  it('refuses up front a conversion whose estimate passes the space left, in words, storing nothing', async () => {
    const bea = await signIn(t, 'bea@example.com');
    const upload = await uploadText(t, bea, prose(1200 * 1024));
    expect(upload.statusCode, upload.body).toBe(201);
    // What the upload keeps (its text) is what counts.
    const used = (await storageOf(t, bea)).used_bytes;
    expect(used).toBe(keptBytes(t, ['uploads/']));
    const jobFiles = keptBytes(t, ['jobs/']);

    const text = prose(25 * 1024);
    const refused = await createJob(t, bea, { title: 'Too long', content: text });
    expect(refused.statusCode).toBe(413);
    const needs = text.length + audioBytes(text.length, voiceFigures({}, 'openai'));
    expect(refused.json().detail).toBe(
      `This text needs about ${formatBytes(needs)}; you have ${formatBytes(2 * MB - used)} left of your 2.0 MB storage. Delete books you no longer need to make room`,
    );
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE title = 'Too long'");
    expect(rows[0]?.n).toBe(0);
    expect(keptBytes(t, ['jobs/'])).toBe(jobFiles);
    expect((await storageOf(t, bea)).used_bytes).toBe(used);
  });

  it('fails a web page whose estimate passes the space left once it is read, keeping nothing of it', async () => {
    // An article of 40 000 characters: some 13 MB of audio, far past a 2 MB quota.
    const article = `<!doctype html><html><head><title>The Long Harbour</title></head><body><article>
      <h1>The Long Harbour</h1>${Array.from({ length: 40 }, () => `<p>${prose(1000)}</p>`).join('')}</article></body></html>`;
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(article);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const cal = await signIn(t, 'cal@example.com');
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/long`;
      const created = await createJob(t, cal, { title: 'The Long Harbour', url });
      expect(created.statusCode, created.body).toBe(201);
      const id = (created.json() as { id: string }).id;
      const failed = await waitForJob(t, cal, id);
      expect(failed.status).toBe('FAILED');
      expect(failed.error_message).toMatch(
        /^This text needs about 1\d MB; you have 2\.0 MB left of your 2\.0 MB storage\. Delete books you no longer need to make room$/,
      );
      expect(keptBytes(t, [`jobs/${id}/`])).toBe(0);
      expect((await storageOf(t, cal)).used_bytes).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('uploads, covers and retries (no workers)', () => {
  let t: TestApp;
  beforeAll(async () => {
    await truncateAll(db);
    t = await createTestApp({ db, env: { WORKERS: 'none', QUOTA_STORAGE_BYTES: String(MB) } });
  });
  afterAll(async () => t?.close());

  it('frees the reservation of a failed job, and takes it back on retry only when there is room', async () => {
    const dan = await signIn(t, 'dan@example.com');
    const created = await createJob(t, dan, { title: 'Short', content: SHORT_TEXT });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { id: string }).id;
    const converting = (await storageOf(t, dan)).used_bytes;
    expect(converting).toBeGreaterThan(50 * 1024); // its text and the estimate of its audio
    await db.query("UPDATE jobs SET status = 'FAILED', error_message = 'boom' WHERE id = $1", [id]);
    expect((await storageOf(t, dan)).used_bytes).toBe(SHORT_TEXT.length);

    // The space it held is taken by an upload meanwhile: the retry is refused, and the job stays failed.
    const filler = prose(MB - SHORT_TEXT.length - 10 * 1024);
    const upload = await uploadText(t, dan, filler);
    expect(upload.statusCode, upload.body).toBe(201);
    const retried = await t.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/retry`, headers: dan });
    expect(retried.statusCode).toBe(413);
    expect(retried.json().detail).toBe(
      `This text needs about ${formatBytes(converting - SHORT_TEXT.length)}; you have 10 KB left of your 1.0 MB storage. Delete books you no longer need to make room`,
    );
    const { rows } = await db.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [id]);
    expect(rows[0]?.status).toBe('FAILED');
  });

  it('counts what an upload keeps and what a book made of it keeps, its cover included', async () => {
    const eve = await signIn(t, 'eve@example.com');
    const form = Buffer.concat([
      Buffer.from(
        '--quota\r\nContent-Disposition: form-data; name="file"; filename="lighthouse.epub"\r\nContent-Type: application/epub+zip\r\n\r\n',
      ),
      makeEpub3(),
      Buffer.from('\r\n--quota--\r\n'),
    ]);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...eve, 'content-type': 'multipart/form-data; boundary=quota' },
      payload: form,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const fileKey = (upload.json() as { file_key: string }).file_key;
    const uploadFiles = fileKey.replace(/\.txt$/, '');
    // Its text, its cover and what was read of the book.
    expect((await storageOf(t, eve)).used_bytes).toBe(keptBytes(t, [uploadFiles]));

    const created = await createJob(t, eve, { title: 'The Lighthouse', file_key: fileKey, chapters: [1, 2] });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    expect(keptBytes(t, [`jobs/${id}/cover`])).toBeGreaterThan(0);
    const { rows } = await db.query<{ reserved_bytes: string }>('SELECT reserved_bytes FROM jobs WHERE id = $1', [id]);
    // Its own text and cover as stored, and the space reserved for its audio.
    expect((await storageOf(t, eve)).used_bytes).toBe(
      keptBytes(t, [uploadFiles, `jobs/${id}/`]) + Number(rows[0]!.reserved_bytes),
    );
  });
});
