import type { Book } from '../books/book';
import type { BookReader } from '../books/reader';
import type { ListCache } from './list-cache';

/** Where a finished book is kept in the cache of what was read from its owner's jobs. */
const keptBook = (jobId: string) => `book\n${jobId}`;

/**
 * The reader with its finished books kept until their owner's jobs change (the database announces
 * such changes: jobs/list-cache.ts). A listener's stream answer, their first save and every later
 * one then read the book once between them. A book still converting changes as its chapters do
 * (and not every change is announced), a chapter is read through its book: neither is kept.
 */
export function keepFinishedBooks<R extends Pick<BookReader, 'findBook'>>(
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
  };
}
