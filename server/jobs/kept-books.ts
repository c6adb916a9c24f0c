import type { Book } from '../books/book';
import type { BookReader } from '../books/reader';
import type { ListCache } from './list-cache';

/** Where a finished book is kept in the cache of what was read from its owner's jobs. */
const keptBook = (jobId: string) => `book\n${jobId}`;
/** Where a finished book's chapter jobs are kept (none, for a book that recorded its chapters or a single text). */
const keptChapters = (bookId: string) => `chapters\n${bookId}`;

/**
 * The reader with its finished books, and their chapter jobs, kept until their owner's jobs change
 * (the database announces such changes: jobs/list-cache.ts). A listener's stream answer, their
 * first save, every later one and the tag of their first range read then read the book once
 * between them. A book still converting changes as its chapters do (and not every change is
 * announced), a chapter is read through its book: neither is kept, nor the chapters of a book
 * not known to be finished.
 */
export function keepFinishedBooks<R extends Pick<BookReader, 'findBook' | 'chapterJobs'>>(
  reader: R,
  cache: Pick<ListCache, 'get' | 'set' | 'stamp'>,
): R {
  return {
    ...reader,
    async findBook(userId: string, jobId: string): Promise<Book | null> {
      const kept = cache.get<Book>(keptBook(jobId), userId);
      if (kept !== null) return kept;
      const stamp = cache.stamp(userId);
      const book = await reader.findBook(userId, jobId);
      if (book !== null && book.status === 'COMPLETED' && book.parentJobId === null)
        cache.set(keptBook(jobId), userId, stamp, book);
      return book;
    },
    async chapterJobs(userId: string, bookId: string): Promise<Book[]> {
      const kept = cache.get<Book[]>(keptChapters(bookId), userId);
      if (kept !== null) return kept;
      const stamp = cache.stamp(userId);
      // Finished as far as what is kept says: kept at a stamp no later than this one.
      const finished = cache.get<Book>(keptBook(bookId), userId) !== null;
      const chapters = await reader.chapterJobs(userId, bookId);
      if (finished) cache.set(keptChapters(bookId), userId, stamp, chapters);
      return chapters;
    },
  };
}
