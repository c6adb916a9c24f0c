import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStorage } from '../storage/types';
import { createTestApp, type TestApp } from '../testing/app';
import {
  appStorage,
  insertJob,
  seedCompletedAudiobook,
  seedCompletedBook,
  signedInUser,
} from '../testing/library-fixtures';
import { seedConvertingBook } from '../testing/listening-fixtures';

// Listening to a book while it converts. WORKERS=none: the rows these tests write are what the routes read.
let t: TestApp;
let storage: FileStorage;
let ann: { id: string; token: string };

beforeAll(async () => {
  t = await createTestApp({ env: { WORKERS: 'none' } });
  storage = appStorage(t.config);
  ann = await signedInUser(t.app, 'early.listener@example.com');
});
afterAll(async () => {
  await t?.close();
});

const auth = () => ({ authorization: `Bearer ${ann.token}` });
/** GETs a path of ours, or one of the absolute URLs the API answers. */
const get = (url: string) =>
  t.app.inject({
    method: 'GET',
    url: url.startsWith('http://localhost/') ? url.slice('http://localhost'.length) : url,
    headers: auth(),
  });

interface Meta {
  status: string;
  duration: number;
  chapters: { id: string; title: string; order: number; start: number; duration: number; ready: boolean }[];
  chapters_ready: number;
  estimated_duration: number;
  tts_engine?: string;
}

describe('a book still converting, with chapters 1 and 3 of 4 ready', () => {
  let book: { bookId: string; chapterIds: string[] };
  beforeAll(async () => {
    book = await seedConvertingBook(t.db, storage, {
      userId: ann.id,
      title: 'The Long Voyage',
      chapters: 4,
      ready: [1, 3],
      notReadyStatus: 'PROCESSING',
    });
  });

  it('has metadata that marks each chapter ready or not and counts what can be played', async () => {
    const res = await get(`/api/v1/audio/${book.bookId}/metadata`);
    expect(res.statusCode).toBe(200);
    const meta = res.json() as Meta;
    expect(meta.status).toBe('PROCESSING');
    expect(meta.chapters_ready).toBe(2);
    expect(meta.chapters.map((c) => [c.id, c.title, c.order, c.ready])).toEqual([
      [book.chapterIds[0], 'Chapter 1', 1, true],
      [book.chapterIds[1], 'Chapter 2', 2, false],
      [book.chapterIds[2], 'Chapter 3', 3, true],
      [book.chapterIds[3], 'Chapter 4', 4, false],
    ]);
    expect(meta.chapters[1]!.duration).toBe(0);
    expect(meta.chapters[0]!.duration).toBeGreaterThan(1);
    expect(meta.duration).toBeCloseTo(meta.chapters[0]!.duration + meta.chapters[2]!.duration, 6);
  });

  it('estimates the whole book from the pace of its ready chapters, and says what speaks it', async () => {
    // Four chapters of the same length: the two still converting will take as long as the two ready.
    await t.db.query(`UPDATE jobs SET config = config || '{"source_bytes": 1200}'::jsonb WHERE parent_job_id = $1`, [
      book.bookId,
    ]);
    const meta = (await get(`/api/v1/audio/${book.bookId}/metadata`)).json() as Meta;
    expect(meta.estimated_duration).toBeCloseTo(meta.duration * 2, 0);
    expect(meta.estimated_duration).toBeGreaterThan(meta.duration);
    // The book has not spoken as a whole yet: its converted chapters say which voice does.
    expect(meta.tts_engine).toBe('espeak-ng');
  });

  it('streams its first ready chapter, whose signed link plays', async () => {
    const res = await get(`/api/v1/audio/${book.bookId}/stream`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { source_job_id: string; streaming_url: string; file_key: string };
    expect(body.source_job_id).toBe(book.chapterIds[0]);
    expect(body.file_key).toBe(`audio/${book.chapterIds[0]}.mp3`);
    const media = await get(body.streaming_url);
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-type']).toBe('audio/mpeg');
    // Sent as stored while the book converts (a tag would change its length once the book is finished).
    expect(media.rawPayload.subarray(0, 3).toString('latin1')).not.toBe('ID3');
    expect(Number(media.headers['content-length'])).toBe((await storage.stat(body.file_key))?.size);
    // A ready chapter streams by its own id; one still converting is refused with the reason.
    expect((await get(`/api/v1/audio/${book.chapterIds[2]}/stream`)).statusCode).toBe(200);
    const later = await get(`/api/v1/audio/${book.chapterIds[1]}/stream`);
    expect(later.statusCode).toBe(409);
    expect(later.json().detail).toBe('The audiobook is not ready yet (status PROCESSING)');
  });

  it('has a playlist of the ready chapters only, in order', async () => {
    const res = await get(`/api/v1/audio/${book.bookId}/playlist`);
    expect(res.statusCode).toBe(200);
    const lines = res.body.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('#EXTINF')).map((l) => l.split(',')[1])).toEqual([
      'Chapter 1',
      'Chapter 3',
    ]);
    expect(lines[2]).toContain(`/api/v1/media/audio/${book.chapterIds[0]}.mp3?`);
    expect(lines[4]).toContain(`/api/v1/media/audio/${book.chapterIds[2]}.mp3?`);
  });

  it('keeps the listening position', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/progress/${book.bookId}`,
      headers: auth(),
      payload: { position_seconds: 1, duration_seconds: 8, current_chapter_id: book.chapterIds[0] },
    });
    expect(put.statusCode).toBe(200);
    const stream = (await get(`/api/v1/audio/${book.bookId}/stream`)).json() as {
      resume_info: { resume_position: number; current_chapter_id: string };
    };
    expect(stream.resume_info).toMatchObject({ resume_position: 1, current_chapter_id: book.chapterIds[0] });
  });
});

describe('a place an older client reports for a chapter job of a book still converting', () => {
  let book: { bookId: string; chapterIds: string[] };
  beforeAll(async () => {
    book = await seedConvertingBook(t.db, storage, {
      userId: ann.id,
      title: 'The Second Voyage',
      chapters: 3,
      ready: [1, 2],
      notReadyStatus: 'PROCESSING',
    });
  });

  it("is the book's place (the chapter's start plus the offset), and no chapter is listed as a book", async () => {
    const meta = (await get(`/api/v1/audio/${book.bookId}/metadata`)).json() as Meta;
    const chapter2 = meta.chapters[1]!;
    expect(chapter2.start).toBeGreaterThan(0);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/progress/${book.chapterIds[1]}`,
      headers: auth(),
      payload: { position_seconds: 1.5 },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ job_id: book.bookId, job_title: 'The Second Voyage' });

    const saved = (await get(`/api/v1/progress/${book.bookId}`)).json() as {
      position_seconds: number;
      current_chapter_id: string;
      current_chapter_position: number;
    };
    expect(saved.position_seconds).toBeCloseTo(chapter2.start + 1.5, 3);
    expect(saved.current_chapter_id).toBe(book.chapterIds[1]);
    expect(saved.current_chapter_position).toBeCloseTo(1.5, 3);

    const recent = (await get('/api/v1/progress/user/recent')).json() as { job_id: string }[];
    expect(recent.map((r) => r.job_id)).toContain(book.bookId);
    expect(recent.map((r) => r.job_id)).not.toContain(book.chapterIds[1]);
  });

  it('an old place saved on a chapter job itself is not listed among the recent books', async () => {
    await t.db.query(
      `INSERT INTO playback_progress (id, user_id, job_id, position_seconds, duration_seconds, percentage_complete,
         current_chapter_id, current_chapter_position, is_completed, last_played_at, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, 3, 4, 75, NULL, 0, false, now(), now(), now())`,
      [ann.id, book.chapterIds[0]],
    );
    const recent = (await get('/api/v1/progress/user/recent')).json() as { job_id: string }[];
    expect(recent.map((r) => r.job_id)).not.toContain(book.chapterIds[0]);
  });
});

describe('a book with nothing ready yet', () => {
  it('refuses stream, metadata, playlist and progress with 409 and the book’s status', async () => {
    const book = await seedConvertingBook(t.db, storage, { userId: ann.id, chapters: 2, ready: [] });
    for (const route of ['stream', 'metadata', 'playlist']) {
      const res = await get(`/api/v1/audio/${book.bookId}/${route}`);
      expect(res.statusCode, route).toBe(409);
      expect(res.json().detail, route).toBe('The audiobook is not ready yet (status PROCESSING)');
    }
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/progress/${book.bookId}`,
      headers: auth(),
      payload: { position_seconds: 1 },
    });
    expect(put.statusCode).toBe(409);
  });

  it('stays refused once it failed, even with a chapter converted', async () => {
    const book = await seedConvertingBook(t.db, storage, {
      userId: ann.id,
      chapters: 2,
      ready: [1],
      notReadyStatus: 'FAILED',
      bookStatus: 'FAILED',
    });
    expect((await get(`/api/v1/audio/${book.bookId}/metadata`)).statusCode).toBe(409);
  });
});

describe('a finished book', () => {
  it('has every chapter ready', async () => {
    const book = await seedCompletedBook(t.db, storage, { userId: ann.id, chapters: 3 });
    const meta = (await get(`/api/v1/audio/${book.bookId}/metadata`)).json() as Meta;
    expect(meta.status).toBe('COMPLETED');
    expect(meta.chapters_ready).toBe(3);
    expect(meta.chapters.every((c) => c.ready)).toBe(true);
    // Its length is known: no estimate.
    expect(meta.estimated_duration).toBe(meta.duration);
  });
});

interface ListedJob {
  id: string;
  title: string;
  status: string;
  chapter_count: number;
  chapters_ready: number;
  listenable: boolean;
}

describe('GET /jobs?status=listenable (the library)', () => {
  it('lists finished jobs and books converting with a chapter ready, each with chapters_ready and listenable', async () => {
    const bob = await signedInUser(t.app, 'library.reader@example.com');
    const single = await seedCompletedAudiobook(t.db, storage, { userId: bob.id, title: 'Finished Tale', seconds: 1 });
    const finished = await seedCompletedBook(t.db, storage, { userId: bob.id, title: 'Finished Book', chapters: 2 });
    const converting = await seedConvertingBook(t.db, storage, {
      userId: bob.id,
      title: 'Converting Book',
      chapters: 12,
      ready: [1, 2, 3],
    });
    await seedConvertingBook(t.db, storage, { userId: bob.id, title: 'Nothing Ready Yet', chapters: 2, ready: [] });
    await seedConvertingBook(t.db, storage, {
      userId: bob.id,
      title: 'Failed Book',
      chapters: 2,
      ready: [1],
      notReadyStatus: 'FAILED',
      bookStatus: 'FAILED',
    });
    await insertJob(t.db, { userId: bob.id, title: 'Queued Text', status: 'PENDING' });

    for (const status of ['listenable', 'LISTENABLE']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/jobs?status=${status}&top_level=true&sort=title&order=asc`,
        headers: { authorization: `Bearer ${bob.token}` },
      });
      expect(res.statusCode).toBe(200);
      const list = res.json() as {
        total: number;
        jobs: ListedJob[];
      };
      expect(list.jobs.map((j) => [j.title, j.status, j.chapter_count, j.chapters_ready, j.listenable])).toEqual([
        ['Converting Book', 'PROCESSING', 12, 3, true],
        ['Finished Book', 'COMPLETED', 2, 2, true],
        ['Finished Tale', 'COMPLETED', 0, 0, true],
      ]);
      expect(list.total).toBe(3);
      expect(list.jobs.map((j) => j.id)).toEqual([converting.bookId, finished.bookId, single.jobId]);
    }
  });
});

describe("a book before any chapter is ready, its first chapter's opening written", () => {
  let book: { bookId: string; chapterIds: string[] };
  beforeAll(async () => {
    book = await seedConvertingBook(t.db, storage, {
      userId: ann.id,
      title: 'The Early Tide',
      chapters: 3,
      ready: [],
      openingSeconds: 2,
    });
  });

  it("answers the opening as chapter 1's playable part, to its owner only", async () => {
    const res = await get(`/api/v1/audio/${book.bookId}/metadata`);
    expect(res.statusCode).toBe(200);
    const meta = res.json() as Meta & { chapters: { playable_seconds: number }[] };
    expect(meta.status).toBe('PROCESSING');
    expect(meta.chapters_ready).toBe(0);
    const [first, ...rest] = meta.chapters;
    expect(first).toMatchObject({ id: book.chapterIds[0], ready: false });
    expect(first!.playable_seconds).toBeGreaterThan(1.9);
    expect(first!.duration).toBe(first!.playable_seconds);
    expect(meta.duration).toBe(first!.playable_seconds);
    expect(rest.map((c) => [c.ready, c.playable_seconds, c.start])).toEqual([
      [false, 0, first!.playable_seconds],
      [false, 0, first!.playable_seconds],
    ]);

    for (const id of [book.bookId, book.chapterIds[0]!]) {
      const stream = await get(`/api/v1/audio/${id}/stream`);
      expect(stream.statusCode, id).toBe(200);
      const info = stream.json() as { streaming_url: string; file_key: string; source_job_id: string | null };
      expect(info.file_key).toBe(`jobs/${book.chapterIds[0]}/opening.mp3`);
      expect(info.source_job_id).toBe(id === book.bookId ? book.chapterIds[0] : null);
      const audio = await get(info.streaming_url);
      expect(audio.statusCode).toBe(200);
      expect(audio.headers['content-type']).toBe('audio/mpeg');
    }
    // A chapter with nothing converted yet still answers 409; another reader gets 404.
    expect((await get(`/api/v1/audio/${book.chapterIds[1]}/stream`)).statusCode).toBe(409);
    const bob = await signedInUser(t.app, 'someone.else@example.com');
    for (const id of [book.bookId, book.chapterIds[0]!]) {
      for (const what of ['metadata', 'stream']) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/v1/audio/${id}/${what}`,
          headers: { authorization: `Bearer ${bob.token}` },
        });
        expect(res.statusCode, `${what} of ${id}`).toBe(404);
      }
    }
  });

  it('keeps the place of a listener in the opening', async () => {
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/progress/${book.bookId}`,
      headers: auth(),
      payload: { position_seconds: 1.5, current_chapter_id: book.chapterIds[0], current_chapter_position: 1.5 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const meta = (await get(`/api/v1/audio/${book.bookId}/metadata`)).json() as { resume_position: number };
    expect(meta.resume_position).toBe(1.5);
  });

  it('is in the library (status=listenable) as listenable while only its opening plays, to its owner only', async () => {
    const cleo = await signedInUser(t.app, 'opening.reader@example.com');
    const opening = await seedConvertingBook(t.db, storage, {
      userId: cleo.id,
      title: 'Opening Only',
      chapters: 2,
      ready: [],
      openingSeconds: 1,
    });
    const failed = await seedConvertingBook(t.db, storage, {
      userId: cleo.id,
      title: 'Failed With Opening',
      chapters: 2,
      ready: [],
      openingSeconds: 1,
      bookStatus: 'FAILED',
    });
    const waiting = await seedConvertingBook(t.db, storage, {
      userId: cleo.id,
      title: 'Nothing Yet',
      chapters: 2,
      ready: [],
    });
    const list = async (query: string, token = cleo.token) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/jobs?${query}&sort=title&order=asc`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { total: number; jobs: ListedJob[] };
    };

    const library = await list('status=LISTENABLE&top_level=true');
    expect(library.jobs.map((j) => [j.id, j.title, j.status, j.chapters_ready, j.listenable])).toEqual([
      [opening.bookId, 'Opening Only', 'PROCESSING', 0, true],
    ]);
    expect(library.total).toBe(1);
    // Every row of an unfiltered list says it too: the failed book's opening and a book with nothing yet do not play.
    const all = await list('top_level=true');
    expect(all.jobs.map((j) => [j.id, j.listenable])).toEqual([
      [failed.bookId, false],
      [waiting.bookId, false],
      [opening.bookId, true],
    ]);
    // With chapters: a first chapter still converting plays its own opening, as its stream does (the
    // failed book's too: the book is not listed, its chapter answers for itself); the others have nothing yet.
    const chapters = await list('status=listenable&top_level=false');
    expect(chapters.jobs.map((j) => [j.id, j.listenable])).toEqual([
      [failed.chapterIds[0], true],
      [opening.bookId, true],
      [opening.chapterIds[0], true],
    ]);
    const stream = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audio/${failed.chapterIds[0]}/stream`,
      headers: { authorization: `Bearer ${cleo.token}` },
    });
    expect(stream.statusCode).toBe(200);
    // Another reader's library never has it ('The Early Tide' above is ann's: not in cleo's lists either).
    const dan = await signedInUser(t.app, 'other.library@example.com');
    expect((await list('status=listenable&top_level=false', dan.token)).jobs).toEqual([]);
    expect((await list('status=listenable&top_level=false')).jobs.map((j) => j.id)).not.toContain(book.bookId);
  });

  it('plays nothing once the book failed, its opening included', async () => {
    const failed = await seedConvertingBook(t.db, storage, {
      userId: ann.id,
      title: 'The Lost Tide',
      chapters: 2,
      ready: [],
      openingSeconds: 2,
      bookStatus: 'FAILED',
    });
    expect((await get(`/api/v1/audio/${failed.bookId}/metadata`)).statusCode).toBe(409);
  });
});
