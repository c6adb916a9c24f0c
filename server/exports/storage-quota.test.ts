import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/pglite';
import type { Db } from '../db/types';
import { createQuotas } from '../jobs/quotas';
import { createJobRepository } from '../jobs/repository';
import { createTestApp, type TestApp } from '../testing/app';
import { appStorage, seedCompletedBook, signedInUser } from '../testing/library-fixtures';
import type { ExportBook } from '../books/source';
import { estimateExportBytes, reserveExport } from './space';

// Downloads count in their reader's storage quota, but are never refused while older downloads
// can make room: those are evicted and built again when asked for (server/exports/space.ts).
let db: Db;
beforeAll(async () => {
  db = await openPglite();
});
afterAll(async () => {
  await db?.close();
});

type User = { id: string; token: string };
const auth = (user: User) => ({ authorization: `Bearer ${user.token}` });

/** Asks for the download until it is ready (202 meanwhile); answers the final response. */
async function download(t: TestApp, user: User, jobId: string, format: string) {
  for (;;) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audio/${jobId}/download?format=${format}`,
      headers: auth(user),
    });
    if (res.statusCode !== 202) return res;
    await sleep(200);
  }
}

async function exportRow(jobId: string, format: string) {
  const { rows } = await db.query<{ file_key: string; size_bytes: string }>(
    'SELECT file_key, size_bytes FROM exports WHERE job_id = $1 AND format = $2',
    [jobId, format],
  );
  return rows[0] === undefined ? null : { fileKey: rows[0].file_key, sizeBytes: Number(rows[0].size_bytes) };
}

async function usedBytes(t: TestApp, user: User): Promise<number> {
  const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: auth(user) });
  return (me.json() as { storage: { used_bytes: number } }).storage.used_bytes;
}

describe('a download that would pass the storage quota', { timeout: 240_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lectio-export-quota-'));
  const env = { DATA_DIR: dataDir, JOB_LEASE_SECONDS: '3', EXPORT_FFMPEG: 'bundled' };
  let t: TestApp | undefined;
  afterAll(async () => t?.close());

  it('evicts older downloads instead of failing; an evicted one is built again when asked for', async () => {
    // Under the default quota: a two-chapter book and its MP3 download.
    t = await createTestApp({ db, env });
    const ann = await signedInUser(t.app, 'ann.quota@example.com');
    const storage = appStorage(t.config);
    const book = await seedCompletedBook(db, storage, { userId: ann.id, chapters: 2, secondsPerChapter: 60 });
    expect((await download(t, ann, book.bookId, 'mp3')).statusCode).toBe(200);
    const mp3 = (await exportRow(book.bookId, 'mp3'))!;
    // The covers made for it count too: the JPEG its tags carry and the drawn SVG the app shows.
    const cover = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${book.bookId}/cover`, headers: auth(ann) });
    expect(cover.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const { rows } = await db.query<{ jpeg: string; svg: string }>(
      "SELECT config->>'cover_jpeg_bytes' AS jpeg, config->>'cover_svg_bytes' AS svg FROM jobs WHERE id = $1",
      [book.bookId],
    );
    const kept = (name: string) => statSync(path.join(t!.config.storageDir, 'jobs', book.bookId, name)).size;
    expect(rows[0]).toEqual({ jpeg: String(kept('cover.jpg')), svg: String(kept('cover.svg')) });
    expect(existsSync(path.join(t.config.storageDir, mp3.fileKey))).toBe(true);
    const used = await usedBytes(t, ann);
    await t.close();

    // The same reader and files, with a quota that holds the ZIP only once the MP3 is gone.
    const zipEstimate = await estimateExportBytes(
      storage,
      { id: book.bookId, audioKey: book.fileKey!, chapters: [{}, {}] } as unknown as ExportBook,
      'zip',
    );
    const quota = used + zipEstimate - Math.round(mp3.sizeBytes / 2);
    t = await createTestApp({ db, env: { ...env, QUOTA_STORAGE_BYTES: String(quota) } });
    const asked = await t.app.inject({
      method: 'POST',
      url: `/api/v1/audio/${book.bookId}/exports`,
      headers: auth(ann),
      payload: { format: 'zip' },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect((await download(t, ann, book.bookId, 'zip')).statusCode).toBe(200);
    expect(await exportRow(book.bookId, 'mp3')).toBeNull();
    expect(existsSync(path.join(t.config.storageDir, mp3.fileKey))).toBe(false);
    expect(await usedBytes(t, ann)).toBeLessThanOrEqual(quota);
    const list = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${book.bookId}/exports`, headers: auth(ann) });
    const states = (list.json() as { exports: { format: string; status: string }[] }).exports;
    expect(Object.fromEntries(states.map((e) => [e.format, e.status]))).toMatchObject({ mp3: 'none', zip: 'ready' });

    // Asked for again, the MP3 is built again, and the ZIP makes room for it in turn.
    const again = await download(t, ann, book.bookId, 'mp3');
    expect(again.statusCode).toBe(200);
    expect(await exportRow(book.bookId, 'zip')).toBeNull();
    expect(await usedBytes(t, ann)).toBeLessThanOrEqual(quota);
  });
});

describe('room for a download (reserveExport)', () => {
  it('evicts the oldest kept downloads first, and when evicting them all is not enough refuses in words, evicting nothing', async () => {
    const t = await createTestApp({ db, env: { WORKERS: 'none' } });
    try {
      const bob = await signedInUser(t.app, 'bob.quota@example.com');
      const storage = appStorage(t.config);
      const old = await seedCompletedBook(db, storage, { userId: bob.id, chapters: 1 });
      const recent = await seedCompletedBook(db, storage, { userId: bob.id, chapters: 1 });
      // Two kept downloads of 300 KB, the older finished an hour before the other.
      for (const [jobId, hoursAgo] of [
        [old.bookId, 2],
        [recent.bookId, 1],
      ] as const) {
        await db.query(
          `INSERT INTO exports (id, job_id, user_id, format, status, progress, source_version, file_key, size_bytes, completed_at)
           VALUES (gen_random_uuid(), $1, $2, 'mp3', 'ready', 100, 'v1', $3, 307200, now() - make_interval(hours => $4))`,
          [jobId, bob.id, `jobs/${jobId}/exports/mp3-kept.mp3`, hoursAgo],
        );
      }
      const used = await usedBytes(t, bob);
      const quotas = createQuotas(
        createJobRepository(db),
        { storageBytes: used + 100 * 1024, queuedJobs: 9, uploadsPerHour: 9 },
        () => new Date(),
      );
      const ask = (reservedBytes: number) =>
        reserveExport(quotas, {
          jobId: recent.bookId,
          userId: bob.id,
          format: 'zip',
          sourceVersion: 'v1',
          reservedBytes,
        });

      // 3 MB: evicting both (600 KB) leaves 700 KB; refused, and both downloads are still kept.
      const refused = await ask(3 * 1024 * 1024).catch((error: unknown) => error);
      expect(refused).toMatchObject({
        kind: 'quota_exceeded',
        message:
          'This download needs about 3.0 MB; you have 700 KB left even without your other downloads. Delete books you no longer need to make room',
      });
      expect(await exportRow(old.bookId, 'mp3')).not.toBeNull();
      expect(await exportRow(recent.bookId, 'mp3')).not.toBeNull();
      expect(await exportRow(recent.bookId, 'zip')).toBeNull();

      // 300 KB: the older download goes (200 KB were missing), the newer stays.
      const room = await ask(300 * 1024);
      expect(room).toMatchObject({ queued: true, freedKeys: [`jobs/${old.bookId}/exports/mp3-kept.mp3`] });
      expect(await exportRow(old.bookId, 'mp3')).toBeNull();
      expect(await exportRow(recent.bookId, 'mp3')).not.toBeNull();
      expect(await usedBytes(t, bob)).toBeLessThanOrEqual(used + 100 * 1024);
    } finally {
      await t.close();
    }
  });
});
