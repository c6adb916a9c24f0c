import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStorage } from '../storage/types';
import { createTestApp, type TestApp } from '../testing/app';
import { appStorage, insertJob, signedInUser } from '../testing/library-fixtures';
import { seedConvertingBook } from '../testing/listening-fixtures';

// A book's chapter jobs are created at one instant; every list keeps them in chapter order.
let t: TestApp;
let storage: FileStorage;
let reader: { id: string; token: string };
let book: { bookId: string; chapterIds: string[] };

const CHAPTERS = Array.from({ length: 12 }, (_v, i) => `The Long Voyage - Chapter ${i + 1}`);

beforeAll(async () => {
  t = await createTestApp({ env: { WORKERS: 'none' } });
  storage = appStorage(t.config);
  reader = await signedInUser(t.app, 'chapter.order@example.com');
  await insertJob(t.db, { userId: reader.id, title: 'Alpha Stories', createdAt: new Date(Date.now() - 60_000) });
  book = await seedConvertingBook(t.db, storage, {
    userId: reader.id,
    title: 'The Long Voyage',
    chapters: 12,
    ready: [2, 10],
  });
  await insertJob(t.db, { userId: reader.id, title: 'Zulu Nights', createdAt: new Date(Date.now() + 60_000) });
});
afterAll(async () => {
  await t?.close();
});

async function titles(query: string): Promise<string[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/jobs?page_size=100${query}`,
    headers: { authorization: `Bearer ${reader.token}` },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { jobs: { title: string }[] }).jobs.map((j) => j.title);
}

const chaptersIn = (list: string[]) => list.filter((title) => title.includes(' - Chapter '));

describe('GET /jobs lists a book’s chapters in chapter order', () => {
  it('by creation time, either direction', async () => {
    expect(chaptersIn(await titles(''))).toEqual(CHAPTERS);
    expect(chaptersIn(await titles('&sort=created_at&order=asc'))).toEqual(CHAPTERS);
    // By status (descending): the PENDING chapters, then the COMPLETED ones (2 and 10), each group in order.
    const ready = [CHAPTERS[1]!, CHAPTERS[9]!];
    expect(chaptersIn(await titles('&sort=status'))).toEqual([...CHAPTERS.filter((c) => !ready.includes(c)), ...ready]);
  });

  it('by title: the book, then its chapters by number, between the other titles', async () => {
    expect(await titles('&sort=title&order=asc')).toEqual([
      'Alpha Stories',
      'The Long Voyage',
      ...CHAPTERS,
      'Zulu Nights',
    ]);
    expect(await titles('&sort=title&order=desc')).toEqual([
      'Zulu Nights',
      'The Long Voyage',
      ...CHAPTERS,
      'Alpha Stories',
    ]);
    expect(await titles('&sort=title&order=asc&top_level=true')).toEqual([
      'Alpha Stories',
      'The Long Voyage',
      'Zulu Nights',
    ]);
  });

  it('page by page', async () => {
    const pages: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/jobs?page=${page}&page_size=5&sort=title&order=asc`,
        headers: { authorization: `Bearer ${reader.token}` },
      });
      pages.push(...(res.json() as { jobs: { title: string }[] }).jobs.map((j) => j.title));
    }
    expect(pages).toEqual(['Alpha Stories', 'The Long Voyage', ...CHAPTERS, 'Zulu Nights']);
  });
});

describe('a book lists its chapters in chapter order', () => {
  it('in GET /jobs/{id} children and in the audio metadata', async () => {
    const headers = { authorization: `Bearer ${reader.token}` };
    const job = (await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${book.bookId}`, headers })).json() as {
      children: { id: string; title: string }[];
    };
    expect(job.children.map((c) => c.title)).toEqual(CHAPTERS);
    const meta = (
      await t.app.inject({ method: 'GET', url: `/api/v1/audio/${book.bookId}/metadata`, headers })
    ).json() as { chapters: { id: string; order: number }[] };
    expect(meta.chapters.map((c) => c.order)).toEqual(CHAPTERS.map((_c, i) => i + 1));
    expect(meta.chapters.map((c) => c.id)).toEqual(book.chapterIds);
  });
});
