import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalFileStorage } from '../storage/local';
import { finishedBook } from '../testing/book-fixture';
import type { Book } from './book';
import { createBookSource } from './source';

const dir = mkdtempSync(path.join(tmpdir(), 'lectio-book-source-'));
const storage = new LocalFileStorage(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ANN = '6f1c0c1e-0000-4000-8000-0000000000aa';
const BOOK = '6f1c0c1e-0000-4000-8000-000000000001';

const harbour: Book = {
  ...finishedBook({
    id: BOOK,
    title: 'Harbour Tales',
    durationSeconds: null,
    chapters: [
      { title: 'The Lamp', order: 1, duration: 10 },
      { title: ' ', order: 2, duration: 20 },
    ],
  }),
  userId: ANN,
  author: 'A. Keeper',
  outputFileKey: `jobs/${BOOK}/audio.mp3`,
  inputFileKey: `jobs/${BOOK}/source.txt`,
};

/** Every read of a book's chapter jobs, by book id. */
const chapterReads: string[] = [];

function source(books: Book[], chapterJobs: Book[] = []) {
  return createBookSource({
    books: {
      findBook: async (userId, jobId) => books.find((b) => b.userId === userId && b.id === jobId) ?? null,
      chapterJobs: async (userId, bookId) => {
        chapterReads.push(bookId);
        return chapterJobs.filter((c) => c.userId === userId && c.parentJobId === bookId);
      },
      completedBooks: async (userId) => books.filter((b) => b.userId === userId && b.status === 'COMPLETED'),
    },
    progress: { find: async (userId, jobId) => (userId === ANN && jobId === BOOK ? { positionSeconds: 42 } : null) },
    storage,
    casts: { read: async () => null },
    transcripts: {
      transcript: async () => {
        throw new Error('not asked in these tests');
      },
    },
  });
}

describe('the one book source: a finished book for downloads and feeds', () => {
  it('gives the book with its chapters placed in the whole audio, untitled ones named by their order', async () => {
    const book = await source([harbour]).book(ANN, BOOK);
    expect(book).toMatchObject({ id: BOOK, title: 'Harbour Tales', author: 'A. Keeper', duration: 30 });
    expect(book.chapters).toEqual([
      { order: 1, title: 'The Lamp', start: 0, duration: 10, fileKey: harbour.outputFileKey },
      { order: 2, title: 'Chapter 2', start: 10, duration: 20, fileKey: harbour.outputFileKey },
    ]);
    expect(book.version).toBe(harbour.completedAt!.toISOString());
  });

  it('reads chapter jobs only for a book that has not recorded its chapters, never for a text', async () => {
    chapterReads.length = 0;
    const text = { ...harbour, jobType: 'text_to_audio' as const, chapters: [] };
    expect((await source([text]).book(ANN, BOOK)).chapters).toEqual([
      expect.objectContaining({ order: 1, title: 'Harbour Tales', fileKey: harbour.outputFileKey }),
    ]);
    await source([harbour]).book(ANN, BOOK);
    expect(chapterReads).toEqual([]);
    // A book an earlier version finished without recording its chapters: its chapter jobs are its chapters.
    const earlier = { ...harbour, jobType: 'book_processing' as const, chapters: [] };
    const chapterJob = {
      ...harbour,
      id: 'c1',
      parentJobId: BOOK,
      chapterOrder: 1,
      chapterTitle: 'The Lamp',
      chapters: [],
    };
    expect((await source([earlier], [chapterJob]).book(ANN, BOOK)).chapters).toEqual([
      expect.objectContaining({ order: 1, title: 'The Lamp' }),
    ]);
    expect(chapterReads).toEqual([BOOK]);
  });

  it("answers 404 for another reader's book and 409 for a book not finished or a chapter", async () => {
    await expect(source([harbour]).book('someone-else', BOOK)).rejects.toMatchObject({
      kind: 'not_found',
      message: 'Job not found',
    });
    const converting = { ...harbour, status: 'PROCESSING' as const, chapters: [], completedAt: null };
    await expect(source([converting]).book(ANN, BOOK)).rejects.toMatchObject({
      kind: 'conflict',
      message: 'The audiobook is not ready yet (status PROCESSING)',
    });
    await expect(source([{ ...converting, chaptersReady: 1 }]).book(ANN, BOOK)).rejects.toMatchObject({
      kind: 'conflict',
      message: expect.stringContaining('not finished yet'),
    });
    const chapter = { ...harbour, parentJobId: '6f1c0c1e-0000-4000-8000-000000000002' };
    await expect(source([chapter]).book(ANN, BOOK)).rejects.toMatchObject({
      message: 'This is a chapter of a book: download the book',
    });
  });
});

describe('the one book source: what the assistant reads', () => {
  it("finds only the reader's finished books, and their saved place", async () => {
    const books = source([harbour, { ...harbour, id: 'other', status: 'PROCESSING' }]);
    expect((await books.listCompleted(ANN)).map((b) => b.id)).toEqual([BOOK]);
    expect(await books.findCompleted(ANN, 'other')).toBeNull();
    expect(await books.savedPosition(ANN, BOOK)).toBe(42);
    expect(await books.savedPosition(ANN, 'not-an-id')).toBeNull();
  });

  it('reads the text with its timing map, and none while the files are missing', async () => {
    const books = source([harbour]);
    expect(await books.text(ANN, BOOK)).toBeNull();
    await storage.write(harbour.inputFileKey!, new TextEncoder().encode('The lamp lit.'));
    await storage.write(
      `${harbour.outputFileKey}.timing.json`,
      new TextEncoder().encode(JSON.stringify([{ start: 0, end: 1, char_start: 0, char_end: 13 }])),
    );
    expect(await books.text(ANN, BOOK)).toEqual({
      text: 'The lamp lit.',
      timing: [{ start: 0, end: 1, char_start: 0, char_end: 13 }],
    });
  });
});
