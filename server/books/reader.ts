/**
 * What server/books reads of the table that holds books. The jobs repository (server/jobs, the
 * owner of the `jobs` table) implements it: `repo.jobs` is passed wherever a `BookReader` is
 * asked for, so books are read from their rows without anyone outside the jobs module decoding a
 * job's config or result_data. Every read is scoped to the user (their own jobs), except `byIds`,
 * whose callers check the owner.
 */
import type { Book } from './book';

export interface BookReader {
  /** The user's job as a book, its ready chapters counted; null when it is not theirs (or `jobId` is no id). */
  findBook(userId: string, jobId: string): Promise<Book | null>;
  /** A book's chapter jobs that belong to the user, in chapter order. */
  chapterJobs(userId: string, bookId: string): Promise<Book[]>;
  /** The user's COMPLETED top-level jobs (books and texts, not chapters), newest first. */
  completedBooks(userId: string, limit: number): Promise<Book[]>;
  /** The titles of those of `jobIds` that are the user's books and texts (a book's chapter jobs are not listed). */
  titles(userId: string, jobIds: string[]): Promise<Map<string, string>>;
  /** Whose each of these jobs is and where it stands (any user's: the caller checks the owner). */
  byIds(jobIds: string[]): Promise<Pick<Book, 'id' | 'userId' | 'status'>[]>;
  /** Counts a cover kept for a finished book (the JPEG of downloads and feeds, or the drawn SVG) in its owner's storage. */
  keepCoverBytes(jobId: string, kind: 'jpeg' | 'svg', bytes: number): Promise<void>;
}
