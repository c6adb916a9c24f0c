import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, getJob, signIn, waitForJob } from '../testing/jobs';
import { mp3DurationSeconds } from '../audio/concat';
import { MIN_SEGMENT_CHARS } from './synthesis';

// Sentences of ordinary prose; a chapter is long enough for two encoder streams.
const SENTENCES = [
  'The lamplighter walked the length of the harbour wall before the evening bells.',
  'Nobody in the village remembered who had first planted the orchard on the hill.',
  "She folded the letter twice and hid it in the binding of her grandmother's atlas.",
  'Rain came in from the west and the fishing boats stayed tied up for three days.',
];

function chapterBody(chars: number): string {
  let body = '';
  for (let i = 0; body.length < chars; i += 1) body += `${SENTENCES[i % SENTENCES.length]} `;
  return body.trim();
}

// Chapter 1 long enough for two encoder streams; the others, a stream each, only long enough to be
// seen converting side by side.
const BOOK = [2 * MIN_SEGMENT_CHARS + 500, 4_000, 4_000]
  .map((chars, i) => `Chapter ${i + 1}\n\n${chapterBody(chars)}`)
  .join('\n\n');

let t: TestApp;
let headers: { authorization: string };

interface Meta {
  duration: number;
  chapters_ready: number;
  chapters: { id: string; order: number; ready: boolean; duration: number; playable_seconds: number }[];
}

/**
 * Polls the book as the player does until its first chapter's opening can be played (chapter 1
 * not ready yet), and checks what the reader gets then: its seconds, the stream's answer and its
 * audio, and a place saved in it.
 */
async function untilOpeningPlays(bookId: string): Promise<{ seconds: number; chapterId: string; url: string }> {
  const deadline = Date.now() + 200_000;
  for (;;) {
    const answer = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${bookId}/metadata`, headers });
    if (answer.statusCode === 200) {
      const meta = answer.json() as Meta;
      const first = meta.chapters.find((c) => c.order === 1)!;
      if (first.ready) throw new Error('chapter 1 was ready before its opening was ever playable');
      expect(meta.chapters_ready).toBe(0);
      expect(first.playable_seconds).toBeGreaterThan(60); // some two minutes of speech
      expect(first.duration).toBe(first.playable_seconds);
      expect(meta.duration).toBe(first.playable_seconds);
      expect(meta.chapters.slice(1).every((c) => c.playable_seconds === 0 && !c.ready)).toBe(true);
      const stream = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${bookId}/stream`, headers });
      expect(stream.statusCode).toBe(200);
      const info = stream.json() as { streaming_url: string; source_job_id: string };
      expect(info.source_job_id).toBe(first.id);
      // The chapter's own stream answers the same opening while it converts.
      const own = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${first.id}/stream`, headers });
      expect(own.statusCode).toBe(200);
      const url = new URL(info.streaming_url, 'http://localhost');
      const audio = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
      expect(audio.statusCode).toBe(200);
      expect(audio.headers['content-type']).toBe('audio/mpeg');
      expect(await mp3DurationSeconds(audio.rawPayload)).toBeCloseTo(first.playable_seconds, 0);
      // The listener's place in the opening is kept.
      const saved = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/progress/${bookId}`,
        headers,
        payload: { position_seconds: 30, current_chapter_id: first.id, current_chapter_position: 30 },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      return { seconds: first.playable_seconds, chapterId: first.id, url: url.pathname + url.search };
    }
    expect(answer.statusCode).toBe(409); // nothing playable yet
    if (Date.now() > deadline) throw new Error("chapter 1's opening never became playable");
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  // Three chapters may convert at once, on two encoder streams. The 10 MB text's audio (some 6.5 GB
  // with its chapters', reserved up front) needs a storage quota to match.
  t = await createTestApp({
    env: {
      ENCODER_THREADS: '2',
      CHAPTER_CONCURRENCY: '3',
      QUOTA_STORAGE_BYTES: String(20 * 1024 ** 3),
    },
  });
  headers = await signIn(t, 'first-chapter@example.com');
});
afterAll(async () => {
  await t?.close();
});

describe('the first chapter first', () => {
  it(
    "converts a book's first chapter alone, on every encoder stream, then the rest together",
    { timeout: 240_000 },
    async () => {
      const created = (await createJob(t, headers, { title: 'The Harbour', content: BOOK })).json() as { id: string };
      // Chapter 1's opening plays before chapter 1 is ready: the player's view of it.
      const opening = await untilOpeningPlays(created.id);
      const book = await waitForJob(t, headers, created.id, undefined, 220_000);
      expect(book.status, book.error_message ?? '').toBe('COMPLETED');
      const chapters = await Promise.all(book.children.map((c) => getJob(t, headers, c.id)));
      expect(chapters.map((c) => c.title)).toEqual([
        'The Harbour - Chapter 1',
        'The Harbour - Chapter 2',
        'The Harbour - Chapter 3',
      ]);
      const synthesis = chapters.map((c) => c.steps.find((s) => s.step_name === 'synthesize')!);
      const first = synthesis[0]!;

      // Nothing else of the book was synthesised while chapter 1 was.
      for (const later of synthesis.slice(1)) {
        expect(Date.parse(later.started_at!)).toBeGreaterThanOrEqual(Date.parse(first.completed_at!));
      }
      // Chapter 1 used both streams (its opening first); the others one each, side by side.
      expect(first.step_metadata).toMatchObject({ encoder_streams: 2, opening_seconds: opening.seconds });
      expect(opening.chapterId).toBe(chapters[0]!.id);
      // The book plays whole now; the opening's file went with the join (its link no longer plays).
      const gone = await t.app.inject({ method: 'GET', url: opening.url });
      expect(gone.statusCode).toBe(404);
      for (const later of synthesis.slice(1)) expect(later.step_metadata).toMatchObject({ encoder_streams: 1 });
      const [second, third] = synthesis.slice(1);
      expect(Date.parse(third!.started_at!)).toBeLessThan(Date.parse(second!.completed_at!));

      // The tutoring analysis waited for the chapters: it never held up chapter 1, and it ran
      // once every chapter's audio was there (the reader's Tutor and X-ray still get it).
      const analyze = book.steps.find((s) => s.step_name === 'analyze')!;
      expect(analyze.status).toBe('COMPLETED');
      for (const s of synthesis) {
        expect(Date.parse(analyze.started_at!)).toBeGreaterThanOrEqual(Date.parse(s.completed_at!));
      }
      expect(book.config.tutoring_analysis).toMatchObject({ content_type: 'fiction' });
    },
  );
});

describe('a 10 MB text', () => {
  it(
    'is accepted as a book of chapters, and its first chapter plays while the rest waits',
    { timeout: 600_000 },
    async () => {
      // A long series pasted as plain text: no headings at all, 10,000,000 characters (the limit).
      let text = '';
      for (let i = 0; text.length < 10_000_000 - 200; i += 1) {
        text += `${SENTENCES[i % SENTENCES.length]} `;
        if (i % 7 === 6) text += '\n\n';
      }
      text = text.slice(0, 10_000_000).replace(/\s+\S*$/, '.');
      const res = await createJob(t, headers, { title: 'The Long Series', content: text });
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json() as { id: string; job_type: string };
      expect(created.job_type).toBe('book_processing');

      // The player's view: the book's metadata lists chapter 1 as ready, and its stream answers.
      const deadline = Date.now() + 540_000;
      let meta: { chapters: { order: number; ready: boolean }[]; chapters_ready: number } | null = null;
      for (;;) {
        const answer = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${created.id}/metadata`, headers });
        if (answer.statusCode === 200) {
          meta = answer.json() as typeof meta;
          if (meta!.chapters.find((c) => c.order === 1)?.ready) break;
        } else {
          expect(answer.statusCode).toBe(409); // not ready yet
          const job = await getJob(t, headers, created.id);
          expect(job.status, job.error_message ?? '').toMatch(/PENDING|PROCESSING/);
        }
        if (Date.now() > deadline) throw new Error('chapter 1 of the 10 MB text never became playable');
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(meta!.chapters.length).toBeGreaterThan(300);
      expect(meta!.chapters_ready).toBeLessThan(meta!.chapters.length);
      const stream = await t.app.inject({ method: 'GET', url: `/api/v1/audio/${created.id}/stream`, headers });
      expect(stream.statusCode).toBe(200);

      // The rest is not needed here: cancelling stops it.
      const cancel = await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${created.id}`, headers });
      expect(cancel.statusCode).toBe(200);
    },
  );
});
