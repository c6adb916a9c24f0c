import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mp3DurationSeconds } from '../audio/concat';
import { LocalFileStorage } from '../storage/local';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, getJob, signIn, waitForJob } from '../testing/jobs';

const BOOK = [
  'Chapter 1',
  '',
  'The fox ran over the hill at dawn. It was looking for breakfast in the cold morning light.',
  '',
  'Chapter 2',
  '',
  'The farmer woke up and fed the chickens. He did not see the fox hiding by the old barn.',
  '',
  'Chapter 3',
  '',
  'At noon the fox slept under a tree. The chickens were safe for one more day on the farm.',
].join('\n');

/**
 * The same book with a first chapter of some minutes: chapter 2 starts only once chapter 1 is done
 * (the first chapter converts alone), which leaves the test seconds, not a few milliseconds, to
 * take chapter 2's text away before it is read.
 */
const LONG_FIRST_CHAPTER_BOOK = BOOK.replace(
  'It was looking for breakfast in the cold morning light.',
  Array.from({ length: 40 }, () => 'It was looking for breakfast in the cold morning light.').join(' '),
);

const BOOK_STEP_NAMES = [
  'acquire_content',
  'split_chapters',
  'synthesize_chapters',
  'analyze',
  'combine_audio',
  'finalize',
];

let t: TestApp;
let headers: { authorization: string };
let storage: LocalFileStorage;

beforeAll(async () => {
  t = await createTestApp({
    env: { ENCODER_THREADS: '0', CHAPTER_CONCURRENCY: '1' },
    conversion: { stepRetryDelayMs: 10 },
  });
  headers = await signIn(t, 'books@example.com');
  storage = new LocalFileStorage(t.config.storageDir);
});
afterAll(async () => {
  await t?.close();
});

describe('a book', () => {
  it('is split into chapter jobs that run, roll up and join into one MP3', { timeout: 120_000 }, async () => {
    const preview = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs/preview',
      headers,
      payload: { title: 'Fox Tales', content: BOOK },
    });
    expect(preview.json()).toMatchObject({ job_type: 'book_processing' });
    const created = (await createJob(t, headers, { title: 'Fox Tales', content: BOOK })).json() as {
      id: string;
      job_type: string;
      steps: { step_name: string }[];
    };
    // Decided at creation, as the preview said: a book from the start, with a book's steps.
    expect(created.job_type).toBe('book_processing');
    expect(created.steps.map((s) => s.step_name)).toEqual(BOOK_STEP_NAMES);
    const book = await waitForJob(t, headers, created.id, undefined, 90_000);
    expect(book.status, book.error_message ?? '').toBe('COMPLETED');
    expect(book.job_type).toBe('book_processing');
    expect(book.steps.map((s) => [s.step_name, s.status])).toEqual([
      ['acquire_content', 'COMPLETED'],
      ['split_chapters', 'COMPLETED'],
      ['synthesize_chapters', 'COMPLETED'],
      ['analyze', 'COMPLETED'],
      ['combine_audio', 'COMPLETED'],
      ['finalize', 'COMPLETED'],
    ]);
    expect(book.children.map((c) => c.title)).toEqual([
      'Fox Tales - Chapter 1',
      'Fox Tales - Chapter 2',
      'Fox Tales - Chapter 3',
    ]);
    expect(book.children.every((c) => c.status === 'COMPLETED')).toBe(true);
    expect(book.progress).toBe(100);

    const sum = book.children.reduce((n, c) => n + (c.duration ?? 0), 0);
    expect(book.result_data.duration_seconds).toBeCloseTo(sum, 6);
    expect(book.result_data.child_job_ids).toEqual(book.children.map((c) => c.id));
    expect(book.result_data.chapters?.map((c) => [c.title, c.order, c.job_id])).toEqual(
      book.children.map((c, i) => [`Chapter ${i + 1}`, i + 1, c.id]),
    );
    const combined = await mp3DurationSeconds(storage.read(book.output_file_key!));
    expect(Math.abs(combined - sum)).toBeLessThan(0.3);

    const chapter = await getJob(t, headers, book.children[1]!.id);
    // The chapter names its whole book (every field but steps, children and parent).
    expect(chapter.parent).toMatchObject({
      id: book.id,
      title: 'Fox Tales',
      user_id: book.user_id,
      status: 'COMPLETED',
      progress: 100,
    });
    expect(chapter.parent).not.toHaveProperty('children');
    expect(chapter.steps.map((s) => s.step_name)).toEqual(['acquire_content', 'synthesize', 'finalize']);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM job_steps WHERE job_id = ANY($1::uuid[]) GROUP BY job_id, step_name HAVING count(*) > 1',
      [[book.id, ...book.children.map((c) => c.id)]],
    );
    expect(rows).toEqual([]);

    // The book's timing map covers every chapter's sentences, in the book's character offsets.
    const timing = JSON.parse(await readAll(`${book.output_file_key}.timing.json`)) as {
      start: number;
      char_start: number;
      char_end: number;
    }[];
    expect(timing.length).toBeGreaterThanOrEqual(6);
    const last = timing[timing.length - 1]!;
    expect(BOOK.slice(last.char_start, last.char_end)).toBe('The chickens were safe for one more day on the farm.');
  });

  it(
    "asks for a full collection of the server's heap after each chapter, where gc() is exposed, and for none while a text converts",
    { timeout: 120_000 },
    async () => {
      // What a chapter's synthesis leaves is freed before the next piles onto it (server/garbage.ts).
      const gc = vi.fn();
      vi.stubGlobal('gc', gc);
      try {
        const created = (await createJob(t, headers, { title: 'Collected Tales', content: BOOK })).json() as {
          id: string;
        };
        const book = await waitForJob(t, headers, created.id, undefined, 90_000);
        expect(book.status, book.error_message ?? '').toBe('COMPLETED');
        // One after each of the three chapters, one before the book's analysis.
        expect(gc).toHaveBeenCalledTimes(4);
        expect(gc.mock.calls.every(([options]) => options.type === 'major' && options.execution === 'async')).toBe(
          true,
        );
        // A text forces none: its analysis starts with its synthesis, and the collection's pause
        // would only keep the API waiting.
        gc.mockClear();
        const posted = await createJob(t, headers, {
          title: 'A short tale',
          content: 'The hens were safe for one more day on the farm. '.repeat(4),
        });
        expect(posted.statusCode, posted.body).toBe(201);
        expect((await waitForJob(t, headers, (posted.json() as { id: string }).id)).status).toBe('COMPLETED');
        expect(gc).not.toHaveBeenCalled();
      } finally {
        vi.unstubAllGlobals();
      }
    },
  );

  it('fails with the failed chapter and a retry re-runs only that chapter', { timeout: 120_000 }, async () => {
    const created = (await createJob(t, headers, { title: 'Broken', content: LONG_FIRST_CHAPTER_BOOK })).json() as {
      id: string;
    };
    const withChildren = await waitForJob(t, headers, created.id, (j) => j.children.length === 3, 60_000);
    const second = withChildren.children[1]!;
    const source = `jobs/${second.id}/source.txt`;
    const saved = await readAll(source);
    await storage.delete(source);

    const failed = await waitForJob(t, headers, created.id, undefined, 60_000);
    expect(failed.status).toBe('FAILED');
    expect(failed.error_message).toBe('Chapter 2 failed: The text of this job is missing from storage');
    const failedChapter = await getJob(t, headers, second.id);
    expect(failedChapter.status).toBe('FAILED');
    expect(failedChapter.steps[0]).toMatchObject({
      step_name: 'acquire_content',
      status: 'FAILED',
      error_message: 'The text of this job is missing from storage',
    });
    const firstBefore = await getJob(t, headers, withChildren.children[0]!.id);
    expect(firstBefore.status).toBe('COMPLETED');

    await storage.write(source, Buffer.from(saved));
    const retry = await t.app.inject({ method: 'POST', url: `/api/v1/jobs/${created.id}/retry`, headers });
    expect(retry.statusCode).toBe(200);
    const done = await waitForJob(t, headers, created.id, undefined, 60_000);
    expect(done.status, done.error_message ?? '').toBe('COMPLETED');
    const firstAfter = await getJob(t, headers, withChildren.children[0]!.id);
    expect(firstAfter.steps.find((s) => s.step_name === 'synthesize')?.step_metadata).toEqual(
      firstBefore.steps.find((s) => s.step_name === 'synthesize')?.step_metadata,
    );
    const { rows } = await t.db.query<{ step_name: string; attempts: number }>(
      `SELECT step_name, attempts FROM job_steps WHERE job_id = $1 ORDER BY step_order`,
      [withChildren.children[0]!.id],
    );
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
  });
});

describe('a job queued by an earlier version, which planned books in split_chapters', () => {
  it('is planned when split_chapters finds no plan, and becomes the book it was', { timeout: 120_000 }, async () => {
    // The API of the earlier version stored no plan: a text job with a text's steps.
    const files = mkdtempSync(path.join(tmpdir(), 'lectio-earlier-'));
    const api = await createTestApp({ env: { WORKERS: 'none', STORAGE_DIR: files } });
    try {
      const h = await signIn(api, 'earlier@example.com');
      const { id } = (await createJob(api, h, { title: 'Fox Tales', content: BOOK })).json() as { id: string };
      await api.db.query(`UPDATE jobs SET job_type = 'text_to_audio', config = config - 'plan' WHERE id = $1`, [id]);
      await api.db.query(
        `DELETE FROM job_steps WHERE job_id = $1 AND step_name IN ('synthesize_chapters', 'combine_audio')`,
        [id],
      );
      await api.db.query(
        `INSERT INTO job_steps (id, job_id, step_name, step_order, status)
         VALUES (gen_random_uuid(), $1, 'synthesize', 4, 'pending')`,
        [id],
      );
      // An earlier version's text steps, in its order: analyze before split_chapters.
      for (const [name, order] of [
        ['analyze', 2],
        ['split_chapters', 3],
        ['finalize', 5],
      ] as const) {
        await api.db.query(`UPDATE job_steps SET step_order = $2 WHERE job_id = $1 AND step_name = $3`, [
          id,
          order,
          name,
        ]);
      }
      expect((await getJob(api, h, id)).steps.map((s) => s.step_name)).toEqual([
        'acquire_content',
        'analyze',
        'split_chapters',
        'synthesize',
        'finalize',
      ]);

      // A worker of this version takes the queued job over.
      const worker = await createTestApp({ env: { ENCODER_THREADS: '0', STORAGE_DIR: files }, db: api.db });
      try {
        const book = await waitForJob(worker, h, id, undefined, 90_000);
        expect(book.status, book.error_message ?? '').toBe('COMPLETED');
        expect(book.job_type).toBe('book_processing');
        expect(book.steps.map((s) => s.step_name)).toEqual(BOOK_STEP_NAMES);
        expect(book.result_data.chapters?.map((c) => c.title)).toEqual(['Chapter 1', 'Chapter 2', 'Chapter 3']);
      } finally {
        await worker.close();
      }
    } finally {
      await api.close();
    }
  });
});

async function readAll(key: string): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of storage.read(key) as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts).toString('utf8');
}
