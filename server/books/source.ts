/**
 * The one source of finished books for those who make something of them: downloads, podcast
 * feeds and the streamed files' tags (`book`, `transcript`), and the voice assistant (`listCompleted`,
 * `findCompleted`, `text`, `savedPosition`). Read-only: books through the `BookReader` (the jobs
 * repository), the saved place through the progress repository, the files from storage.
 */
import { DomainError } from '../errors';
import type { FileStorage } from '../storage/types';
import { isUuid } from '../uuid';
import { chaptersOf, isListenable, listsChapterJobs, type Book, type ChapterInfo } from './book';
import type { BookReader } from './reader';
import { readBookText, type BookText } from './text';
import type { Transcript } from './transcript';

export const BOOK_NOT_FOUND = 'Job not found';

export interface ExportChapter {
  /** 1-based, reading order. */
  order: number;
  title: string;
  /** Seconds from the start of the combined audio. */
  start: number;
  duration: number;
  /** The chapter's own MP3. */
  fileKey: string;
}

/** A finished book as downloads, feeds and tags read it. */
export interface ExportBook {
  id: string;
  userId: string;
  title: string;
  author: string | null;
  /** The book's completion time: a download built from an earlier one is stale. */
  version: string;
  /** The whole book's MP3 (a single text's only file). */
  audioKey: string;
  duration: number;
  chapters: ExportChapter[];
  /** The cover supplied with the book, when there was one. */
  cover: { key: string; contentType: string } | null;
}

export interface BookSource {
  /** The user's COMPLETED book (not a chapter of one); 404 when it is not theirs, 409 while it is not finished. */
  book(userId: string, jobId: string): Promise<ExportBook>;
  /** Chapter `order`'s sentences with their times in the chapter's own audio. */
  transcript(userId: string, jobId: string, order: number): Promise<Transcript>;
  /** The user's COMPLETED books (not chapter jobs), newest first. */
  listCompleted(userId: string): Promise<Book[]>;
  /** The job when it is the user's and COMPLETED; null otherwise (indistinguishable). */
  findCompleted(userId: string, jobId: string): Promise<Book | null>;
  /**
   * The user's book (not a chapter of one) when something of it can be played: finished, or still
   * converting with a chapter (or its opening) ready; null otherwise.
   */
  findListenable(userId: string, jobId: string): Promise<Book | null>;
  /** Source text and timing map; null when either is missing or cannot be read. */
  text(userId: string, jobId: string): Promise<BookText | null>;
  /** The saved listening position in seconds; null when never played. */
  savedPosition(userId: string, jobId: string): Promise<number | null>;
  /** A finished full-cast book's characters (who its transcript's spans name); null for any other book. */
  cast(userId: string, jobId: string): Promise<BookCast | null>;
}

/** The characters of a book's cast, as the read-along's speakers are named. */
export interface BookCast {
  characters: { id: string; name: string }[];
}

/** Books the assistant lists at most. */
const COMPLETED_BOOKS_LISTED = 500;

/**
 * A finished book as a download is made from it, from its listenable chapters; a 409 while it is
 * still converting, or when it is a chapter of a book.
 */
export function downloadableBook(book: Book, chapters: readonly ChapterInfo[]): ExportBook {
  if (book.status !== 'COMPLETED' || book.completedAt === null || book.outputFileKey === null) {
    throw new DomainError(
      'conflict',
      `The audiobook is not finished yet (status ${book.status}): downloads are made from a finished book`,
    );
  }
  if (book.parentJobId !== null) {
    throw new DomainError('conflict', 'This is a chapter of a book: download the book');
  }
  const audioKey = book.outputFileKey;
  return {
    id: book.id,
    userId: book.userId,
    title: book.title.trim() === '' ? 'Untitled' : book.title,
    author: book.author,
    version: book.completedAt.toISOString(),
    audioKey,
    duration: book.durationSeconds ?? chapters.reduce((sum, c) => sum + c.duration, 0),
    chapters: chapters.map((c, index) => ({
      order: index + 1,
      title: c.title.trim() === '' ? `Chapter ${index + 1}` : c.title,
      start: c.start,
      duration: c.duration,
      fileKey: c.fileKey ?? audioKey,
    })),
    cover: book.cover,
  };
}

export function createBookSource(deps: {
  books: Pick<BookReader, 'findBook' | 'chapterJobs' | 'completedBooks'>;
  /** The listener's saved place (the progress repository). */
  progress: { find(userId: string, jobId: string): Promise<{ positionSeconds: number } | null> };
  storage: FileStorage;
  /** A chapter's read-along transcript (the listening side's). */
  transcripts: { transcript(userId: string, jobId: string, chapter: number): Promise<Transcript> };
  /** Where books' casts are kept (server/cast/repository.ts). */
  casts: { read(bookId: string): Promise<BookCast | null> };
}): BookSource {
  const { books, progress, storage, transcripts, casts } = deps;

  async function completed(userId: string, jobId: string): Promise<Book | null> {
    const book = await books.findBook(userId, jobId);
    return book !== null && book.status === 'COMPLETED' ? book : null;
  }

  return {
    async book(userId, jobId) {
      const book = await books.findBook(userId, jobId);
      if (book === null) throw new DomainError('not_found', BOOK_NOT_FOUND);
      if (!isListenable(book)) {
        throw new DomainError('conflict', `The audiobook is not ready yet (status ${book.status})`);
      }
      const chapterJobs = listsChapterJobs(book) ? await books.chapterJobs(userId, book.id) : [];
      return downloadableBook(book, chaptersOf(book, chapterJobs));
    },
    transcript: (userId, jobId, order) => transcripts.transcript(userId, jobId, order),
    async listCompleted(userId) {
      return books.completedBooks(userId, COMPLETED_BOOKS_LISTED);
    },
    async findCompleted(userId, jobId) {
      return completed(userId, jobId);
    },
    async findListenable(userId, jobId) {
      const book = await books.findBook(userId, jobId);
      return book !== null && book.parentJobId === null && isListenable(book) ? book : null;
    },
    async text(userId, jobId) {
      const book = await completed(userId, jobId);
      if (book === null) return null;
      return readBookText(storage, book).catch(() => null);
    },
    async savedPosition(userId, jobId) {
      if (!isUuid(jobId)) return null;
      return (await progress.find(userId, jobId))?.positionSeconds ?? null;
    },
    async cast(userId, jobId) {
      const book = await completed(userId, jobId);
      if (book === null) return null;
      const cast = await casts.read(book.id);
      return cast === null ? null : { characters: cast.characters.map(({ id, name }) => ({ id, name })) };
    },
  };
}
