/**
 * The read model of a book (server/books' BookReader, built by ../../book.ts): every reader of
 * books reads jobs so.
 */
import type { Book } from '../../../books/book';
import type { DbExecutor } from '../../../db/types';
import { isUuid } from '../../../uuid';
import { toBook } from '../../book';
import { JOB_COLUMNS, toJob, type JobRow } from '../rows';
import { openingReady, selectJobs } from './sql';

export function jobBooks(x: DbExecutor) {
  return {
    /** The user's job as a book, its ready chapters counted; null when it is not theirs (or `jobId` is no id). */
    async findBook(userId: string, jobId: string): Promise<Book | null> {
      if (!isUuid(jobId)) return null;
      const { rows } = await x.query<JobRow & { chapters_ready: number | string; opening_ready: boolean }>(
        `SELECT ${JOB_COLUMNS},
           (SELECT count(*) FROM jobs c
            WHERE c.parent_job_id = jobs.id AND c.user_id = jobs.user_id AND c.status = 'COMPLETED') AS chapters_ready,
           ${openingReady('jobs')} AS opening_ready
         FROM jobs WHERE id = $1 AND user_id = $2`,
        [jobId, userId],
      );
      const row = rows[0];
      return row === undefined ? null : toBook(toJob(row), Number(row.chapters_ready), row.opening_ready === true);
    },

    /** A book's chapter jobs that belong to the user, in chapter order. */
    async chapterJobs(userId: string, bookId: string): Promise<Book[]> {
      if (!isUuid(bookId)) return [];
      const found = await selectJobs(
        x,
        'parent_job_id = $1 AND user_id = $2 ORDER BY chapter_order NULLS LAST, created_at',
        [bookId, userId],
      );
      return found.map((job) => toBook(job));
    },

    /** The user's COMPLETED top-level jobs (books and texts, not chapters), newest first. */
    async completedBooks(userId: string, limit: number): Promise<Book[]> {
      const found = await selectJobs(
        x,
        `user_id = $1 AND status = 'COMPLETED' AND parent_job_id IS NULL ORDER BY created_at DESC LIMIT $2`,
        [userId, limit],
      );
      return found.map((job) => toBook(job));
    },

    /**
     * The user's last 500 COMPLETED top-level jobs (only `jobId`, when given), oldest first, each
     * with when it was completed: what a podcast feed needs to tell whether it changed, without
     * reading the books.
     */
    async finishedVersions(userId: string, jobId: string | null): Promise<{ id: string; completedAt: Date }[]> {
      if (jobId !== null && !isUuid(jobId)) return [];
      const { rows } = await x.query<{ id: string; completed_at: Date | string }>(
        `SELECT id, completed_at FROM jobs
          WHERE user_id = $1 AND status = 'COMPLETED' AND parent_job_id IS NULL AND completed_at IS NOT NULL
            AND ($2::uuid IS NULL OR id = $2::uuid)
          ORDER BY created_at DESC, id DESC LIMIT 500`,
        [userId, jobId],
      );
      return rows.map((r) => ({ id: r.id, completedAt: new Date(r.completed_at) })).reverse();
    },

    /** The titles of those of `jobIds` that are the user's. */
    async titles(userId: string, jobIds: string[]): Promise<Map<string, string>> {
      const wanted = jobIds.filter(isUuid);
      if (wanted.length === 0) return new Map();
      const { rows } = await x.query<{ id: string; title: string }>(
        'SELECT id, title FROM jobs WHERE id = ANY($1::uuid[]) AND user_id = $2 AND parent_job_id IS NULL',
        [wanted, userId],
      );
      return new Map(rows.map((r) => [r.id, r.title]));
    },
  };
}
