/**
 * Jobs changed as a whole: a failed job retried, a finished one reopened, a text become a book,
 * cancelled, deleted; and what deleting an account cancels and removes.
 */
import type { DbExecutor } from '../../../db/types';
import { ACTIVE, ids } from './sql';

export function jobChanges(x: DbExecutor) {
  return {
    /** A FAILED job and its failed or cancelled chapters back to PENDING; answers their ids. */
    async resetFailed(jobId: string): Promise<string[]> {
      const { rows } = await x.query<{ id: string }>(
        `UPDATE jobs SET status = 'PENDING', error_message = NULL, enqueued_at = NULL, updated_at = now()
         WHERE (id = $1 OR parent_job_id = $1) AND status IN ('FAILED', 'CANCELLED') RETURNING id`,
        [jobId],
      );
      return ids(rows);
    },

    /**
     * A COMPLETED job (and the given chapters of it) back to PENDING, waiting for its turn in the
     * fair queue like a retried job; false when the job was no longer COMPLETED.
     */
    async reopenCompleted(jobId: string, chapterIds: readonly string[]): Promise<boolean> {
      const { rows } = await x.query<{ id: string }>(
        `UPDATE jobs SET status = 'PENDING', error_message = NULL, completed_at = NULL, enqueued_at = NULL, updated_at = now()
         WHERE id = $1 AND status = 'COMPLETED' RETURNING id`,
        [jobId],
      );
      if (rows.length === 0) return false;
      if (chapterIds.length > 0) {
        await x.query(
          `UPDATE jobs SET status = 'PENDING', progress = 0, error_message = NULL, completed_at = NULL, enqueued_at = NULL, updated_at = now()
           WHERE parent_job_id = $1 AND id = ANY($2::uuid[])`,
          [jobId, chapterIds],
        );
      }
      return true;
    },

    /** The job becomes a book (its steps change with it: see keepPlan in ../index.ts). */
    async markBook(jobId: string): Promise<void> {
      await x.query(`UPDATE jobs SET job_type = 'book_processing', updated_at = now() WHERE id = $1`, [jobId]);
    },

    /** A book's chapter jobs go (with their steps and progress, by cascade). */
    async deleteChapters(bookId: string): Promise<void> {
      await x.query('DELETE FROM jobs WHERE parent_job_id = $1', [bookId]);
    },

    /** Cancels the job and its unfinished chapters; answers the ids cancelled. */
    async cancelActive(jobId: string): Promise<string[]> {
      const { rows } = await x.query<{ id: string }>(
        `UPDATE jobs SET status = 'CANCELLED', updated_at = now()
         WHERE (id = $1 OR parent_job_id = $1) AND ${ACTIVE} RETURNING id`,
        [jobId],
      );
      return ids(rows);
    },

    /** Deletes the user's job, its chapters by cascade; answers the rows that go (run it in a transaction). */
    async deleteOwned(jobId: string, userId: string): Promise<{ id: string; outputFileKey: string | null }[]> {
      const { rows } = await x.query<{ id: string; output_file_key: string | null }>(
        'SELECT id, output_file_key FROM jobs WHERE (id = $1 OR parent_job_id = $1) AND user_id = $2 FOR UPDATE',
        [jobId, userId],
      );
      await x.query('DELETE FROM jobs WHERE id = $1 AND user_id = $2', [jobId, userId]);
      return rows.map((r) => ({ id: r.id, outputFileKey: r.output_file_key }));
    },

    /** The user's top-level jobs still converting (PENDING or PROCESSING): deleting the account cancels them first. */
    async unfinishedIds(userId: string): Promise<string[]> {
      const { rows } = await x.query<{ id: string }>(
        `SELECT id FROM jobs WHERE user_id = $1 AND parent_job_id IS NULL AND status IN ('PENDING', 'PROCESSING')`,
        [userId],
      );
      return rows.map((r) => r.id);
    },

    /** Every job of the user (chapters included) with its audio's key: what deleting the account removes from storage. */
    async storedOf(userId: string): Promise<{ id: string; outputFileKey: string | null }[]> {
      const { rows } = await x.query<{ id: string; output_file_key: string | null }>(
        'SELECT id, output_file_key FROM jobs WHERE user_id = $1',
        [userId],
      );
      return rows.map((r) => ({ id: r.id, outputFileKey: r.output_file_key }));
    },
  };
}
