import { describe, expect, it } from 'vitest';
import type { Book } from '../books/book';
import { keepFinishedBooks } from './kept-books';
import { createListCache } from './list-cache';

const book = (status: Book['status']) =>
  ({ id: 'book', userId: 'ann', parentJobId: null, status, chapters: [] }) as Partial<Book> as Book;

/** A reader that counts its reads, over a cache fed as the database's announcements would. */
function kept(found: Book) {
  const reads: string[] = [];
  const cache = createListCache();
  cache.setListening(true);
  const reader = keepFinishedBooks(
    {
      findBook: (userId: string, jobId: string) => {
        reads.push(`book ${jobId}`);
        return Promise.resolve(userId === found.userId ? found : null);
      },
      chapterJobs: (_userId: string, bookId: string) => {
        reads.push(`chapters ${bookId}`);
        return Promise.resolve([]);
      },
    },
    cache,
  );
  return { reader, reads, cache };
}

describe("a finished book's chapter jobs", () => {
  it('are read once for a listener (a book without recorded chapters), and again after their jobs change', async () => {
    const { reader, reads, cache } = kept(book('COMPLETED'));
    for (let i = 0; i < 3; i += 1) {
      await reader.findBook('ann', 'book');
      expect(await reader.chapterJobs('ann', 'book')).toEqual([]);
    }
    expect(reads).toEqual(['book book', 'chapters book']);
    cache.changed('ann');
    await reader.findBook('ann', 'book');
    await reader.chapterJobs('ann', 'book');
    expect(reads).toEqual(['book book', 'chapters book', 'book book', 'chapters book']);
  });

  it('are read every time while the book converts, or before it is known to be finished', async () => {
    const converting = kept(book('PROCESSING'));
    for (let i = 0; i < 2; i += 1) {
      await converting.reader.findBook('ann', 'book');
      await converting.reader.chapterJobs('ann', 'book');
    }
    expect(converting.reads).toEqual(['book book', 'chapters book', 'book book', 'chapters book']);
    const unknown = kept(book('COMPLETED'));
    await unknown.reader.chapterJobs('ann', 'book');
    await unknown.reader.chapterJobs('ann', 'book');
    expect(unknown.reads).toEqual(['chapters book', 'chapters book']);
  });

  it('are never kept once the announcements stop', async () => {
    const { reader, reads, cache } = kept(book('COMPLETED'));
    await reader.findBook('ann', 'book');
    await reader.chapterJobs('ann', 'book');
    cache.setListening(false);
    await reader.findBook('ann', 'book');
    await reader.chapterJobs('ann', 'book');
    expect(reads).toEqual(['book book', 'chapters book', 'book book', 'chapters book']);
  });
});
