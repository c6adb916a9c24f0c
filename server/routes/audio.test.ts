import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readAll } from '../testing/audio';
import { ffprobe, id3Length, id3Version, tagsOf } from '../testing/readers';
import { parseMp3 } from '../audio/mp3-frames';
import {
  appStorage,
  insertJob,
  seedCompletedAudiobook,
  seedCompletedBook,
  signedInUser,
} from '../testing/library-fixtures';
import type { FileStorage } from '../storage/types';
import { createTestApp, manualClock, type TestApp } from '../testing/app';

const clock = manualClock();
let t: TestApp;
let storage: FileStorage;
let ann: { id: string; token: string };
let bob: { id: string; token: string };
let single: Awaited<ReturnType<typeof seedCompletedAudiobook>>;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  storage = appStorage(t.config);
  ann = await signedInUser(t.app, 'ann@example.com');
  bob = await signedInUser(t.app, 'bob@example.com');
  single = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, title: 'The Tell-Tale Heart', seconds: 3 });
});
afterAll(() => t.close());
const dir = mkdtempSync(path.join(tmpdir(), 'lectio-audio-'));

const auth = (user: { token: string }) => ({ authorization: `Bearer ${user.token}` });

/** GETs a path of ours, or one of the absolute URLs the API answers (the streaming URL, playlist entries). */
async function get(url: string, user: { token: string } | null = ann, headers: Record<string, string> = {}) {
  const path = url.startsWith('http://localhost/') ? url.slice('http://localhost'.length) : url;
  return t.app.inject({ method: 'GET', url: path, headers: { ...(user ? auth(user) : {}), ...headers } });
}

async function streamingUrl(jobId: string): Promise<string> {
  const res = await get(`/api/v1/audio/${jobId}/stream`);
  expect(res.statusCode).toBe(200);
  return (res.json() as { streaming_url: string }).streaming_url;
}

describe('GET /audio/{jobId}/stream', () => {
  it('answers a signed media URL that expires after MEDIA_URL_TTL_SECONDS, with empty resume info', async () => {
    const res = await get(`/api/v1/audio/${single.jobId}/stream`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      file_key: single.fileKey,
      content_type: 'audio/mpeg',
      source_job_id: null,
      expires_at: new Date(clock.now().getTime() + 3600_000).toISOString(),
      resume_info: {
        has_progress: false,
        resume_position: 0,
        percentage_complete: 0,
        last_played_at: null,
        current_chapter_id: null,
        current_chapter_position: 0,
      },
    });
    // Absolute (from the request's own scheme and Host without PUBLIC_URL), so it plays from any origin.
    expect(body.streaming_url).toMatch(
      new RegExp(`^http://localhost/api/v1/media/audio/${single.jobId}\\.mp3\\?expires=\\d+&sig=[\\w-]+$`),
    );
  });

  it('carries the saved position in resume_info', async () => {
    const job = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, seconds: 2 });
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/progress/${job.jobId}`,
      headers: auth(ann),
      payload: { position_seconds: 1, current_chapter_id: job.jobId },
    });
    expect(put.statusCode).toBe(200);
    const body = (await get(`/api/v1/audio/${job.jobId}/stream`)).json();
    expect(body.resume_info).toMatchObject({ has_progress: true, resume_position: 1, current_chapter_id: job.jobId });
    expect(body.resume_info.percentage_complete).toBeCloseTo((1 / job.durationSeconds) * 100, 1);
    expect(body.resume_info.last_played_at).toBe(clock.now().toISOString());
  });

  it('points a book without a combined file at its first chapter', async () => {
    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, chapters: 2, combined: false });
    const body = (await get(`/api/v1/audio/${book.bookId}/stream`)).json();
    expect(body.source_job_id).toBe(book.chapterIds[0]);
    expect(body.file_key).toBe(`audio/${book.chapterIds[0]}.mp3`);
  });

  it('refuses a job that is still processing with 409 and the reason', async () => {
    const id = await insertJob(t.db, { userId: ann.id, title: 'Busy', status: 'PROCESSING' });
    const res = await get(`/api/v1/audio/${id}/stream`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'The audiobook is not ready yet (status PROCESSING)',
      message: 'The audiobook is not ready yet (status PROCESSING)',
      request_id: expect.any(String),
    });
  });

  it('needs a bearer token', async () => {
    expect((await get(`/api/v1/audio/${single.jobId}/stream`, null)).statusCode).toBe(401);
  });
});

describe('GET /media/{fileKey}', () => {
  it('serves the whole file with Accept-Ranges to a genuine link, without a bearer token: the stored MP3 with its ID3v2.4 tag in front', async () => {
    const url = await streamingUrl(single.jobId);
    const res = await get(url, null);
    expect(res.statusCode).toBe(200);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-type']).toBe('audio/mpeg');
    const tag = id3Length(res.rawPayload);
    expect(id3Version(res.rawPayload)).toBe('2.4.0');
    expect(Number(res.headers['content-length'])).toBe(tag + single.bytes);
    const stored = await readAll(storage.read(single.fileKey));
    expect(res.rawPayload.subarray(tag).equals(stored)).toBe(true);
    // A real MP3 (whole frames, so up to one frame longer than the PCM).
    expect(Math.abs(parseMp3(stored).durationSeconds - single.durationSeconds)).toBeLessThan(0.1);
    // ffprobe reads the tag: the text's title as title and album, the default artist, the genre, the cover.
    const file = path.join(dir, 'streamed.mp3');
    writeFileSync(file, res.rawPayload);
    const probe = await ffprobe(file);
    expect(tagsOf(probe)).toMatchObject({
      title: 'The Tell-Tale Heart',
      album: 'The Tell-Tale Heart',
      artist: 'Lectio',
      genre: 'Audiobook',
    });
    expect(probe.streams.find((s) => s.disposition?.attached_pic === 1)?.codec_name).toBe('mjpeg');
    expect(Math.abs(Number(probe.format.duration) - single.durationSeconds)).toBeLessThan(0.1);
  });

  it("tags a finished book's chapter as a download's chapter: its title, the book as album, track n/N", async () => {
    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, title: 'Harbour Lights', chapters: 3 });
    const playlist = (await get(`/api/v1/audio/${book.bookId}/playlist`)).body.split('\n');
    const second = await get(playlist[4]!, null);
    expect(second.statusCode).toBe(200);
    expect(id3Version(second.rawPayload)).toBe('2.4.0');
    const file = path.join(dir, 'chapter.mp3');
    writeFileSync(file, second.rawPayload);
    expect(tagsOf(await ffprobe(file))).toMatchObject({ album: 'Harbour Lights', track: '2/3', genre: 'Audiobook' });
  });

  it('answers 206 with exactly the requested bytes of the tagged file', async () => {
    const url = await streamingUrl(single.jobId);
    const whole = (await get(url, null)).rawPayload;
    const res = await get(url, null, { range: 'bytes=100-199' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 100-199/${whole.length}`);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-length']).toBe('100');
    expect(Buffer.compare(res.rawPayload, whole.subarray(100, 200))).toBe(0);
    // A range across the tag's end: its last bytes, then the stored audio's first.
    const tag = id3Length(whole);
    const across = await get(url, null, { range: `bytes=${tag - 5}-${tag + 4}` });
    expect(across.statusCode).toBe(206);
    expect(Buffer.compare(across.rawPayload, whole.subarray(tag - 5, tag + 5))).toBe(0);
  });

  it('answers a suffix range with the last bytes', async () => {
    const url = await streamingUrl(single.jobId);
    const stored = await readAll(storage.read(single.fileKey));
    const total = (await get(url, null)).rawPayload.length;
    const res = await get(url, null, { range: 'bytes=-50' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${total - 50}-${total - 1}/${total}`);
    expect(Buffer.compare(res.rawPayload, stored.subarray(single.bytes - 50))).toBe(0);
  });

  it('answers 416 with the size for a start past the end', async () => {
    const url = await streamingUrl(single.jobId);
    const total = (await get(url, null)).rawPayload.length;
    const res = await get(url, null, { range: `bytes=${total + 10}-` });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${total}`);
  });

  it('refuses a tampered signature with 403 Invalid link', async () => {
    const url = await streamingUrl(single.jobId);
    const tampered = url.replace(/sig=([\w-])/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    const res = await get(tampered, null);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe('Invalid link');
    const otherKey = url.replace(`${single.jobId}.mp3`, `${single.jobId}.mp3.timing.json`);
    expect((await get(otherKey, null)).statusCode).toBe(403);
    expect((await get(url.replace(/&sig=.*$/, ''), null)).statusCode).toBe(403);
    expect(
      (
        await get(
          url.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 1}`),
          null,
        )
      ).json().detail,
    ).toBe('Invalid link');
  });

  it('refuses an expired link with 403 This link has expired', async () => {
    const url = await streamingUrl(single.jobId);
    clock.advance(3601);
    try {
      const res = await get(url, null);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ detail: 'This link has expired', message: 'This link has expired' });
    } finally {
      clock.advance(-3601);
    }
  });

  it('refuses keys that could escape the storage root', async () => {
    expect((await get('/api/v1/media/../../etc/passwd?expires=1&sig=x', null)).statusCode).not.toBe(200);
    expect((await get('/api/v1/media/audio/%2e%2e/x.mp3?expires=1&sig=x', null)).statusCode).toBe(403);
  });
});

describe('GET /audio/{jobId}/metadata', () => {
  it('fills duration, size, the single chapter, engine details and resume fields', async () => {
    const res = await get(`/api/v1/audio/${single.jobId}/metadata`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      job_id: single.jobId,
      title: 'The Tell-Tale Heart',
      status: 'COMPLETED',
      format: 'mp3',
      file_size: single.bytes,
      provider: 'openai',
      tts_engine: 'espeak-ng',
      sample_rate: 22050,
      bitrate_kbps: 48,
      resume_position: 0,
      percentage_complete: 0,
      last_played_at: null,
      current_chapter_id: null,
      current_chapter_position: 0,
      chapters: [
        { id: single.jobId, title: 'The Tell-Tale Heart', order: 1, start: 0, duration: single.durationSeconds },
      ],
    });
    expect(body.duration).toBeCloseTo(single.durationSeconds, 3);
    expect(body.completed_at).toMatch(/Z$/);
  });

  it('lists a book’s chapters with cumulative start times', async () => {
    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, chapters: 3, secondsPerChapter: 2 });
    const body = (await get(`/api/v1/audio/${book.bookId}/metadata`)).json();
    expect(body.chapters).toHaveLength(3);
    const [first, second, third] = body.chapters as {
      id: string;
      title: string;
      order: number;
      start: number;
      duration: number;
    }[];
    expect(first).toMatchObject({ id: book.chapterIds[0], title: 'Stave 1', order: 1, start: 0 });
    expect(second!.start).toBeCloseTo(first!.duration, 6);
    expect(third!.start).toBeCloseTo(first!.duration + second!.duration, 6);
    expect(body.duration).toBeCloseTo(book.durationSeconds, 6);
  });
});

describe('GET /audio/{jobId}/playlist', () => {
  it('answers an M3U of the single file with a signed URL', async () => {
    const res = await get(`/api/v1/audio/${single.jobId}/playlist`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^audio\/x-mpegurl/);
    const lines = res.body.trimEnd().split('\n');
    expect(lines[0]).toBe('#EXTM3U');
    expect(lines[1]).toBe(`#EXTINF:${Math.round(single.durationSeconds)},The Tell-Tale Heart`);
    expect(lines[2]).toMatch(
      new RegExp(`^http://localhost/api/v1/media/audio/${single.jobId}\\.mp3\\?expires=\\d+&sig=`),
    );
    expect((await get(lines[2]!, null)).statusCode).toBe(200);
  });

  it('lists each chapter of a book in order', async () => {
    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, chapters: 3 });
    const lines = (await get(`/api/v1/audio/${book.bookId}/playlist`)).body.trimEnd().split('\n');
    expect(lines).toHaveLength(7);
    expect(lines.filter((l) => l.startsWith('#EXTINF')).map((l) => l.split(',')[1])).toEqual([
      'Stave 1',
      'Stave 2',
      'Stave 3',
    ]);
    expect(lines[2]).toContain(`/api/v1/media/audio/${book.chapterIds[0]}.mp3?`);
  });
});

describe('ownership', () => {
  it('answers 404 Job not found for another user’s job and for a missing one, on every audio route', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const route of ['stream', 'metadata', 'playlist']) {
      for (const [jobId, user] of [
        [single.jobId, bob],
        [missing, ann],
      ] as const) {
        const res = await get(`/api/v1/audio/${jobId}/${route}`, user);
        expect(res.statusCode, `${route} ${jobId}`).toBe(404);
        expect(res.json().detail).toBe('Job not found');
      }
    }
  });
});
