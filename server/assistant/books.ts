/**
 * What the assistant reads about the user's books: server/books' one `BookSource` (finished
 * books, their source text with its sentence timing map, their tutoring analysis and the
 * listener's saved position), and an in-memory one for tests and benchmarks.
 */
import { chaptersOf, isListenable, type Book } from '../books/book';
import { BOOK_NOT_FOUND, downloadableBook, type BookCast, type BookSource } from '../books/source';
import type { BookText } from '../books/text';
import { sentencesOf, type QuotedSpan } from '../books/transcript';
import { DomainError } from '../errors';

export type { BookSource } from '../books/source';
export type { BookText } from '../books/text';

/**
 * An in-memory BookSource for tests and benchmarks. Its books have no files: a chapter's
 * transcript is the sentences of the book's text spoken within the chapter, timed from its start,
 * and only a book given an `outputFileKey` can be downloaded.
 */
export function memoryBookSource(
  books: {
    userId: string;
    book: Book;
    text?: BookText;
    position?: number;
    /** A full-cast book's characters, and each chapter's quoted spans (offsets into `text`). */
    cast?: BookCast & { chapters: QuotedSpan[][] };
  }[],
): BookSource & { setPosition(userId: string, jobId: string, seconds: number): void } {
  const find = (userId: string, jobId: string) => books.find((b) => b.userId === userId && b.book.id === jobId);
  const found = (userId: string, jobId: string) => {
    const b = find(userId, jobId);
    if (b === undefined) throw new DomainError('not_found', BOOK_NOT_FOUND);
    return b;
  };
  return {
    async book(userId, jobId) {
      const { book } = found(userId, jobId);
      return downloadableBook(book, chaptersOf(book, []));
    },
    async transcript(userId, jobId, order) {
      const { book, text, cast } = found(userId, jobId);
      const chapters = chaptersOf(book, []);
      const chapter = chapters[order - 1];
      if (chapter === undefined) {
        throw new DomainError('not_found', `There is no chapter ${order}: this book has ${chapters.length} chapters`);
      }
      const end = order === chapters.length ? Infinity : chapter.start + chapter.duration;
      const spoken = (text?.timing ?? [])
        .filter((e) => e.start >= chapter.start && e.start < end)
        .map((e) => ({
          start: e.start - chapter.start,
          end: e.end - chapter.start,
          char_start: e.char_start,
          char_end: e.char_end,
        }));
      return {
        jobId: book.id,
        chapter: { id: chapter.id, order, title: chapter.title, start: chapter.start, duration: chapter.duration },
        chapterCount: chapters.length,
        sentences: sentencesOf(
          text?.text ?? '',
          spoken,
          cast === undefined ? undefined : (cast.chapters[order - 1] ?? []),
        ),
      };
    },
    async listCompleted(userId) {
      return books.filter((b) => b.userId === userId && b.book.status === 'COMPLETED').map((b) => b.book);
    },
    async findCompleted(userId, jobId) {
      const book = find(userId, jobId)?.book;
      return book !== undefined && book.status === 'COMPLETED' ? book : null;
    },
    async findListenable(userId, jobId) {
      const book = find(userId, jobId)?.book;
      return book !== undefined && book.parentJobId === null && isListenable(book) ? book : null;
    },
    async text(userId, jobId) {
      return find(userId, jobId)?.text ?? null;
    },
    async savedPosition(userId, jobId) {
      return find(userId, jobId)?.position ?? null;
    },
    async cast(userId, jobId) {
      const cast = find(userId, jobId)?.cast;
      return cast === undefined ? null : { characters: cast.characters };
    },
    setPosition(userId, jobId, seconds) {
      const b = find(userId, jobId);
      if (b) b.position = seconds;
    },
  };
}
