import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStorage } from '../storage/types';
import { createTestApp, type TestApp } from '../testing/app';
import { appStorage, insertJob, seedCompletedAudiobook, signedInUser } from '../testing/library-fixtures';
import { chapterParagraphs, seedConvertingBook, writeTranscript } from '../testing/listening-fixtures';

// WORKERS=none: the rows these tests write are exactly what the routes read.
let t: TestApp;
let storage: FileStorage;
let ann: { id: string; token: string };
let bob: { id: string; token: string };

beforeAll(async () => {
  t = await createTestApp({ env: { WORKERS: 'none' } });
  storage = appStorage(t.config);
  ann = await signedInUser(t.app, 'ann.reads@example.com');
  bob = await signedInUser(t.app, 'bob.reads@example.com');
});
afterAll(async () => {
  await t?.close();
});

async function transcript(jobId: string, query = '', user = ann) {
  return t.app.inject({
    method: 'GET',
    url: `/api/v1/audio/${jobId}/transcript${query}`,
    headers: { authorization: `Bearer ${user.token}` },
  });
}

interface Body {
  job_id: string;
  chapter: { id: string; order: number; title: string; start: number; duration: number };
  chapter_count: number;
  sentences: {
    index: number;
    start: number;
    end: number;
    text: string;
    char_start: number;
    char_end: number;
    paragraph_start: boolean;
  }[];
}

describe('GET /audio/{jobId}/transcript of a single text', () => {
  it('answers its sentences in order with their times, text, offsets and paragraph starts', async () => {
    const job = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, title: 'Harbour Lights', seconds: 3 });
    const written = await writeTranscript(t.db, storage, job, [
      ['The lamp was lit at dusk.', 'Ships came home.'],
      ['Morning <b>broke</b> & the keeper slept.'],
    ]);
    const res = await transcript(job.jobId);
    expect(res.statusCode).toBe(200);
    const body = res.json() as Body;
    expect(body).toMatchObject({
      job_id: job.jobId,
      chapter: { id: job.jobId, order: 1, title: 'Harbour Lights', start: 0 },
      chapter_count: 1,
    });
    expect(body.chapter.duration).toBeCloseTo(job.durationSeconds, 6);
    expect(body.sentences).toEqual(
      written.map((w, index) => ({
        index,
        start: w.start,
        end: w.end,
        text: w.text,
        char_start: w.char_start,
        char_end: w.char_end,
        paragraph_start: index === 0 || index === 2,
      })),
    );
    expect(body.sentences.at(-1)!.end).toBeCloseTo(job.durationSeconds, 2);
    // Also without the query: chapter 1 is the default.
    expect((await transcript(job.jobId, '?chapter=1')).json()).toEqual(body);
  });

  it('answers 404 for another user’s job and for a missing one', async () => {
    const job = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, seconds: 1 });
    await writeTranscript(t.db, storage, job, [['Only mine.']]);
    for (const [id, user] of [
      [job.jobId, bob],
      ['00000000-0000-4000-8000-000000000000', ann],
    ] as const) {
      const res = await transcript(id, '', user);
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('Job not found');
    }
  });

  it('answers 409 with the status while the job converts', async () => {
    const id = await insertJob(t.db, { userId: ann.id, title: 'Busy', status: 'PROCESSING' });
    const res = await transcript(id);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe('The audiobook is not ready yet (status PROCESSING)');
  });

  it('answers 404 naming the reason for an audiobook without a timing map or text', async () => {
    const job = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, seconds: 1 });
    const res = await transcript(job.jobId);
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe('This audiobook has no transcript (it was converted without a timing map)');
    await storage.write(`${job.fileKey}.timing.json`, new TextEncoder().encode('not json'));
    expect((await transcript(job.jobId)).json().detail).toMatch(/no transcript/);
  });

  it('refuses chapter numbers past the last with 404, and malformed ones with 422', async () => {
    const job = await seedCompletedAudiobook(t.db, storage, { userId: ann.id, seconds: 1 });
    await writeTranscript(t.db, storage, job, [['One sentence.']]);
    const past = await transcript(job.jobId, '?chapter=2');
    expect(past.statusCode).toBe(404);
    expect(past.json().detail).toBe('There is no chapter 2: this audiobook has 1 chapter');
    for (const query of ['?chapter=0', '?chapter=-1', '?chapter=1.5', '?chapter=abc', '?chapter=100001']) {
      const res = await transcript(job.jobId, query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().detail, query).toMatch(/chapter/i);
    }
    const malformed = await t.app.inject({
      method: 'GET',
      url: '/api/v1/audio/not-a-uuid/transcript',
      headers: { authorization: `Bearer ${ann.token}` },
    });
    expect(malformed.statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/audio/${job.jobId}/transcript` })).statusCode).toBe(401);
  });
});

describe('GET /audio/{jobId}/transcript of a book', () => {
  it('pages by chapter: each chapter’s own sentences, its title and its start in the book', async () => {
    const { bookId, chapterIds } = await seedConvertingBook(t.db, storage, {
      userId: ann.id,
      title: 'Harbour Tales',
      chapters: 3,
      ready: [1, 2, 3],
      secondsPerChapter: 2,
    });
    const first = (await transcript(bookId, '?chapter=1')).json() as Body;
    const second = (await transcript(bookId, '?chapter=2')).json() as Body;
    expect(first.chapter).toMatchObject({ id: chapterIds[0], order: 1, title: 'Chapter 1', start: 0 });
    expect(second.chapter).toMatchObject({ id: chapterIds[1], order: 2, title: 'Chapter 2' });
    expect(second.chapter.start).toBeCloseTo(first.chapter.duration, 6);
    expect(second.chapter_count).toBe(3);
    expect(second.sentences.map((s) => s.text)).toEqual(chapterParagraphs(2).flat());
    expect(second.sentences[0]!.start).toBe(0);
    // A chapter job's own transcript is the same chapter, as a single text.
    const own = (await transcript(chapterIds[1]!)).json() as Body;
    expect(own.sentences).toEqual(second.sentences);
    const past = await transcript(bookId, '?chapter=4');
    expect(past.statusCode).toBe(404);
    expect(past.json().detail).toBe('There is no chapter 4: this book has 3 chapters');
  });

  it('serves a converted chapter while later ones still convert, and 409 for those', async () => {
    const { bookId } = await seedConvertingBook(t.db, storage, {
      userId: ann.id,
      chapters: 3,
      ready: [1],
      notReadyStatus: 'PROCESSING',
    });
    const ready = await transcript(bookId, '?chapter=1');
    expect(ready.statusCode).toBe(200);
    expect((ready.json() as Body).sentences[0]!.text).toBe('Chapter 1 begins at the harbour.');
    const later = await transcript(bookId, '?chapter=2');
    expect(later.statusCode).toBe(409);
    expect(later.json().detail).toBe('Chapter 2 is not ready yet (status PROCESSING)');
    expect((await transcript(bookId, '?chapter=1', bob)).statusCode).toBe(404);
  });
});
