import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStorage } from '../storage/types';
import { createTestApp, type TestApp } from '../testing/app';
import { appStorage, seedCompletedBook, signedInUser } from '../testing/library-fixtures';
import { chapterParagraphs, writeTranscript } from '../testing/listening-fixtures';
import { epubcheck, ffprobe, id3Version, tagsOf, unzipEntry, unzipList } from '../testing/readers';

// In-process workers: the export queue builds the files these tests download. A short lease lets
// the sweep take over a build whose worker "died" within seconds.
let t: TestApp;
let storage: FileStorage;
let ann: { id: string; token: string };
let bob: { id: string; token: string };
let book: { bookId: string; chapterIds: string[] };
const dir = mkdtempSync(path.join(tmpdir(), 'lectio-exports-'));

const HOSTILE = `"Quoted" ../../etc/passwd\nsecond line 🐋 ${'long '.repeat(60)}end`;

beforeAll(async () => {
  // The ffmpeg of the npm package, what a fresh machine has after `npm install` alone.
  t = await createTestApp({ env: { JOB_LEASE_SECONDS: '3', EXPORT_FFMPEG: 'bundled' } });
  storage = appStorage(t.config);
  ann = await signedInUser(t.app, 'ann.exports@example.com');
  bob = await signedInUser(t.app, 'bob.exports@example.com');
  book = await seedBook('The Lighthouse Keeper');
}, 180_000);
afterAll(async () => {
  await t?.close();
});

/** A finished 3-chapter book whose chapters have texts and timing maps (what the EPUB is made of). */
async function seedBook(title: string) {
  const seeded = await seedCompletedBook(t.db, storage, { userId: ann.id, title, chapters: 3, secondsPerChapter: 2 });
  for (const [i, id] of seeded.chapterIds.entries()) {
    const { rows } = await t.db.query<{ output_file_key: string; duration: number }>(
      'SELECT output_file_key, duration FROM jobs WHERE id = $1',
      [id],
    );
    const row = rows[0]!;
    await writeTranscript(
      t.db,
      storage,
      { jobId: id, fileKey: row.output_file_key, durationSeconds: Number(row.duration) },
      chapterParagraphs(i + 1),
    );
  }
  return seeded;
}

const auth = (user: { token: string }) => ({ authorization: `Bearer ${user.token}` });

/** Asks for the download until it is ready (202 meanwhile); answers the final response. */
async function download(jobId: string, format: string, user = ann) {
  for (;;) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audio/${jobId}/download?format=${format}`,
      headers: auth(user),
    });
    if (res.statusCode !== 202) return res;
    expect(res.headers['retry-after']).toBe('3');
    expect(['queued', 'building']).toContain((res.json() as { status: string }).status);
    await sleep(200);
  }
}

function save(name: string, body: Buffer): string {
  const file = path.join(dir, name);
  writeFileSync(file, body);
  return file;
}

async function chapterStarts(jobId: string): Promise<{ title: string; start: number }[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${jobId}/metadata`, headers: auth(ann) });
  return (res.json() as { chapters: { title: string; start: number }[] }).chapters;
}

// Building and reading files takes seconds each, more on a busy machine: generous limits, no timed assertion.
describe('GET /audio/{jobId}/download', { timeout: 240_000 }, () => {
  it('answers 202 with status, progress and Retry-After until the MP3 is built, then the tagged file with its chapters', async () => {
    const first = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audio/${book.bookId}/download?format=mp3`,
      headers: auth(ann),
    });
    expect(first.statusCode).toBe(202);
    expect(first.json()).toMatchObject({ status: 'queued', progress: 0 });
    const res = await download(book.bookId, 'mp3');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="The Lighthouse Keeper.mp3"; filename*=UTF-8''The%20Lighthouse%20Keeper.mp3`,
    );
    const file = save('book.mp3', res.rawPayload);
    const probe = await ffprobe(file);
    expect(probe.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('mp3');
    const cover = probe.streams.find((s) => s.codec_type === 'video');
    expect(cover).toMatchObject({ codec_name: 'mjpeg', disposition: { attached_pic: 1 } });
    expect(tagsOf(probe)).toMatchObject({
      title: 'The Lighthouse Keeper',
      album: 'The Lighthouse Keeper',
      artist: 'Lectio',
      album_artist: 'Lectio',
      genre: 'Audiobook',
    });
    const starts = await chapterStarts(book.bookId);
    expect(probe.chapters.map((c) => c.tags?.title)).toEqual(['Stave 1', 'Stave 2', 'Stave 3']);
    for (const [i, c] of probe.chapters.entries()) {
      expect(Math.abs(Number(c.start_time) - starts[i]!.start)).toBeLessThan(0.05);
    }
    // An ID3v2.4 tag, whose chapter frames are listed by a table of contents.
    expect(id3Version(res.rawPayload)).toBe('2.4.0');
    expect(res.rawPayload.indexOf('CTOC')).toBeGreaterThan(0);
  });

  it('serves byte ranges of a ready file', async () => {
    const whole = await download(book.bookId, 'mp3');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audio/${book.bookId}/download?format=mp3`,
      headers: { ...auth(ann), range: 'bytes=100-199' },
    });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 100-199/${whole.rawPayload.length}`);
    expect(res.rawPayload.equals(whole.rawPayload.subarray(100, 200))).toBe(true);
  });

  it('builds an M4B: AAC with named chapters at the chapter starts, the cover and the book tags', async () => {
    const res = await download(book.bookId, 'm4b');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mp4');
    const probe = await ffprobe(save('book.m4b', res.rawPayload));
    const aac = probe.streams.find((s) => s.codec_type === 'audio');
    expect(aac?.codec_name).toBe('aac');
    // Encoded at the offline voice's 48 kbit/s, not more: the M4B stays about the size of the book's MP3.
    expect(Number(aac?.bit_rate)).toBeLessThan(56_000);
    expect(probe.streams.find((s) => s.disposition?.attached_pic === 1)?.codec_name).toBe('mjpeg');
    expect(tagsOf(probe).major_brand?.trim()).toBe('M4B');
    expect(tagsOf(probe)).toMatchObject({
      title: 'The Lighthouse Keeper',
      album: 'The Lighthouse Keeper',
      artist: 'Lectio',
      genre: 'Audiobook',
    });
    const starts = await chapterStarts(book.bookId);
    expect(probe.chapters.map((c) => c.tags?.title)).toEqual(['Stave 1', 'Stave 2', 'Stave 3']);
    for (const [i, c] of probe.chapters.entries()) {
      expect(Math.abs(Number(c.start_time) - starts[i]!.start)).toBeLessThan(0.05);
    }
  });

  it('builds a ZIP of tagged chapter MP3s with cover.jpg and an M3U of relative paths', async () => {
    const res = await download(book.bookId, 'zip');
    expect(res.statusCode).toBe(200);
    const file = save('book.zip', res.rawPayload);
    const names = await unzipList(file);
    expect(names).toEqual([
      '01 - Stave 1.mp3',
      '02 - Stave 2.mp3',
      '03 - Stave 3.mp3',
      'cover.jpg',
      'The Lighthouse Keeper.m3u',
    ]);
    const m3u = (await unzipEntry(file, 'The Lighthouse Keeper.m3u')).toString('utf8');
    expect(m3u.split('\n').filter((l) => l !== '' && !l.startsWith('#'))).toEqual(names.slice(0, 3));
    expect((await unzipEntry(file, 'cover.jpg')).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const chapterMp3 = await unzipEntry(file, '02 - Stave 2.mp3');
    expect(id3Version(chapterMp3)).toBe('2.4.0');
    const chapter = await ffprobe(save('02.mp3', chapterMp3));
    expect(tagsOf(chapter)).toMatchObject({
      title: 'Stave 2',
      album: 'The Lighthouse Keeper',
      artist: 'Lectio',
      album_artist: 'Lectio',
      track: '2/3',
      genre: 'Audiobook',
    });
    expect(chapter.streams.find((s) => s.disposition?.attached_pic === 1)?.codec_name).toBe('mjpeg');
  });

  it('builds an EPUB 3 with read-along that epubcheck accepts, each SMIL clip at its sentence in the timing map', async () => {
    const res = await download(book.bookId, 'epub');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/epub+zip');
    const file = save('book.epub', res.rawPayload);
    const check = await epubcheck(file);
    expect(check.output).not.toMatch(/^(ERROR|FATAL)/m);
    expect(check.ok).toBe(true);
    const names = await unzipList(file);
    expect(names[0]).toBe('mimetype');
    for (let order = 1; order <= 3; order += 1) {
      const smil = (await unzipEntry(file, `OEBPS/smil/chapter-00${order}.smil`)).toString('utf8');
      const clips = [
        ...smil.matchAll(
          /<text src="[^"]+#(s\d+)"\/><audio src="([^"]+)" clipBegin="([\d.]+)s" clipEnd="([\d.]+)s"\/>/g,
        ),
      ];
      const transcript = await t.app.inject({
        method: 'GET',
        url: `/api/v1/audio/${book.bookId}/transcript?chapter=${order}`,
        headers: auth(ann),
      });
      const sentences = (
        transcript.json() as { sentences: { index: number; start: number; end: number; text: string }[] }
      ).sentences;
      expect(clips).toHaveLength(sentences.length);
      for (const [i, clip] of clips.entries()) {
        expect(clip[1]).toBe(`s${sentences[i]!.index + 1}`);
        expect(clip[2]).toBe(`../audio/chapter-00${order}.mp3`);
        expect(Number(clip[3])).toBeCloseTo(sentences[i]!.start, 3);
        expect(Number(clip[4])).toBeCloseTo(sentences[i]!.end, 3);
      }
      const xhtml = (await unzipEntry(file, `OEBPS/text/chapter-00${order}.xhtml`)).toString('utf8');
      for (const s of sentences) expect(xhtml).toContain(`<span id="s${s.index + 1}">${s.text}</span>`);
    }
  });

  it('is the owner’s: another user gets 404, no credentials 401, a signed link works without a token', async () => {
    expect((await download(book.bookId, 'mp3', bob)).statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${book.bookId}/download?format=mp3` });
    expect(anonymous.statusCode).toBe(401);
    const list = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${book.bookId}/exports`, headers: auth(ann) });
    const mp3 = (
      list.json() as { exports: { format: string; status: string; download_url: string | null }[] }
    ).exports.find((e) => e.format === 'mp3')!;
    expect(mp3.status).toBe('ready');
    const link = new URL(mp3.download_url!);
    const signed = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(signed.statusCode).toBe(200);
    expect(signed.headers['content-disposition']).toContain('The Lighthouse Keeper.mp3');
    const forged = await t.app.inject({
      method: 'GET',
      url: `${link.pathname}${link.search.replace(/sig=./, 'sig=A')}`,
    });
    expect(forged.statusCode).toBe(403);
  });

  it('gives a hostile title a safe file name and still a valid EPUB', async () => {
    const hostile = await seedBook(HOSTILE);
    const res = await download(hostile.bookId, 'epub');
    expect(res.statusCode).toBe(200);
    const disposition = String(res.headers['content-disposition']);
    const name = /filename="([^"]*)"/.exec(disposition)![1]!;
    expect(name).not.toMatch(/[/\\\n\r"]/);
    expect(name.startsWith('.')).toBe(false);
    expect(name.endsWith('.epub')).toBe(true);
    expect(name.length).toBeLessThanOrEqual(130);
    const exact = decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition)![1]!);
    expect(exact).toContain('🐋');
    expect(exact).not.toMatch(/[/\\\n\r"]/);
    const check = await epubcheck(save('hostile.epub', res.rawPayload));
    expect(check.output).not.toMatch(/^(ERROR|FATAL)/m);
  });

  it('cancels and forgets a format; a book converted again makes its downloads stale', async () => {
    const other = await seedBook('Tides');
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/audio/${other.bookId}/exports`,
      headers: auth(ann),
      payload: { format: 'zip' },
    });
    const cancel = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/audio/${other.bookId}/exports/zip`,
      headers: auth(ann),
    });
    expect(cancel.statusCode).toBe(204);
    const afterCancel = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audio/${other.bookId}/exports`,
      headers: auth(ann),
    });
    expect(
      (afterCancel.json() as { exports: { format: string; status: string }[] }).exports.find((e) => e.format === 'zip')
        ?.status,
    ).toBe('none');

    expect((await download(other.bookId, 'mp3')).statusCode).toBe(200);
    await t.db.query("UPDATE jobs SET completed_at = completed_at + interval '1 minute' WHERE id = $1", [other.bookId]);
    const stale = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audio/${other.bookId}/exports`,
      headers: auth(ann),
    });
    expect(
      (stale.json() as { exports: { format: string; status: string }[] }).exports.find((e) => e.format === 'mp3')
        ?.status,
    ).toBe('none');
    const again = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audio/${other.bookId}/download?format=mp3`,
      headers: auth(ann),
    });
    expect(again.statusCode).toBe(202);
    expect((await download(other.bookId, 'mp3')).statusCode).toBe(200);
  });

  it('takes over a build whose worker died (its lease lapsed)', async () => {
    const other = await seedBook('Dead Worker');
    const { rows } = await t.db.query<{ completed_at: Date }>('SELECT completed_at FROM jobs WHERE id = $1', [
      other.bookId,
    ]);
    await t.db.query(
      `INSERT INTO exports (id, job_id, user_id, format, status, progress, source_version, lease_owner, lease_until)
       VALUES (gen_random_uuid(), $1, $2, 'mp3', 'building', 40, $3, 'a-dead-worker', now() - interval '1 second')`,
      [other.bookId, ann.id, new Date(rows[0]!.completed_at).toISOString()],
    );
    const res = await download(other.bookId, 'mp3');
    expect(res.statusCode).toBe(200);
    expect((await ffprobe(save('taken-over.mp3', res.rawPayload))).chapters).toHaveLength(3);
  });

  it('answers 409 for a book still converting and 422 for an unknown format', async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audio/${book.bookId}/download?format=flac`,
      headers: auth(ann),
    });
    expect(unknown.statusCode).toBe(422);
    await t.db.query("UPDATE jobs SET status = 'PROCESSING' WHERE id = $1", [book.chapterIds[0]]);
    const seeded = await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'Unfinished', chapters: 1 });
    await t.db.query("UPDATE jobs SET status = 'PROCESSING', completed_at = NULL WHERE id = $1", [seeded.bookId]);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audio/${seeded.bookId}/download?format=m4b`,
      headers: auth(ann),
    });
    expect(res.statusCode).toBe(409);
    await t.db.query("UPDATE jobs SET status = 'COMPLETED' WHERE id = $1", [book.chapterIds[0]]);
  });
});
