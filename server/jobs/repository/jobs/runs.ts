/**
 * What the runner keeps in the jobs table while jobs run: their status and progress bar, a book's
 * chapter scheduling, and the lease (lease_owner, lease_until) that lets one worker run a job at a
 * time and another take it over when that worker dies (see ../../runner.ts).
 */
import type { DbExecutor } from '../../../db/types';
import type { JobStatus } from '../../types';
import { ACTIVE, ids } from './sql';

/** A chapter job as its book's scheduler sees it. */
interface ChapterProgress {
  id: string;
  status: JobStatus;
  progress: number;
  errorMessage: string | null;
  chapterOrder: number | null;
  /** Handed to the queue (chapters start CHAPTER_CONCURRENCY at a time). */
  enqueued: boolean;
}

export function jobRuns(x: DbExecutor) {
  return {
    /** PENDING -> PROCESSING (started_at kept from an earlier run); false when the job was not PENDING. */
    async markProcessing(jobId: string): Promise<boolean> {
      const { rows } = await x.query<{ id: string }>(
        `UPDATE jobs SET status = 'PROCESSING', started_at = COALESCE(started_at, now()), updated_at = now()
         WHERE id = $1 AND status = 'PENDING' RETURNING id`,
        [jobId],
      );
      return rows.length > 0;
    },

    /** Moves an active job's progress bar forward to `progress` (never back). */
    async raiseProgress(jobId: string, progress: number): Promise<void> {
      await x.query(
        `UPDATE jobs SET progress = GREATEST(progress, $2::double precision), updated_at = now() WHERE id = $1 AND ${ACTIVE}`,
        [jobId, Math.min(100, progress)],
      );
    },

    /** Moves an active book's progress bar forward to the mean of its chapters' (at most 99). */
    async raiseToChapterMean(bookId: string): Promise<void> {
      await x.query(
        `UPDATE jobs SET progress = GREATEST(progress, LEAST(99, (SELECT avg(progress) FROM jobs WHERE parent_job_id = $1))),
           updated_at = now() WHERE id = $1 AND ${ACTIVE}`,
        [bookId],
      );
    },

    /** Locks the job's row until the transaction ends (a book's chapter scheduling runs one at a time). */
    async lockJob(jobId: string): Promise<void> {
      await x.query('SELECT id FROM jobs WHERE id = $1 FOR UPDATE', [jobId]);
    },

    async chapterStates(bookId: string): Promise<ChapterProgress[]> {
      const { rows } = await x.query<{
        id: string;
        status: JobStatus;
        progress: number;
        error_message: string | null;
        chapter_order: number | null;
        enqueued_at: Date | string | null;
      }>(
        `SELECT id, status, progress, error_message, chapter_order, enqueued_at FROM jobs
         WHERE parent_job_id = $1 ORDER BY chapter_order`,
        [bookId],
      );
      return rows.map((r) => ({
        id: r.id,
        status: r.status,
        progress: Number(r.progress),
        errorMessage: r.error_message,
        chapterOrder: r.chapter_order,
        enqueued: r.enqueued_at !== null,
      }));
    },

    /** An active book's progress while its chapters run: their mean, kept between 8 and 99. */
    async setBookProgress(bookId: string, mean: number): Promise<void> {
      await x.query(
        `UPDATE jobs SET progress = GREATEST(8, LEAST(99, $2::double precision)), updated_at = now() WHERE id = $1 AND ${ACTIVE}`,
        [bookId, mean],
      );
    },

    /** Records that these chapters were handed to the queue. */
    async markEnqueued(jobIds: string[]): Promise<void> {
      if (jobIds.length > 0) await x.query('UPDATE jobs SET enqueued_at = now() WHERE id = ANY($1::uuid[])', [jobIds]);
    },

    /**
     * Takes the job's lease for `owner`; false while another worker's live run holds it. The owner
     * may take its own lease again (a job it kept while its database was away); its runner makes
     * sure it never runs one job twice at once.
     */
    async claimLease(jobId: string, owner: string, seconds: number): Promise<boolean> {
      const { rows } = await x.query<{ id: string }>(
        `UPDATE jobs SET lease_owner = $2, lease_until = now() + make_interval(secs => $3)
         WHERE id = $1 AND (lease_owner IS NULL OR lease_until < now() OR lease_owner = $2) RETURNING id`,
        [jobId, owner, seconds],
      );
      return rows.length > 0;
    },

    async renewLease(jobId: string, owner: string, seconds: number): Promise<void> {
      await x.query(
        'UPDATE jobs SET lease_until = now() + make_interval(secs => $3) WHERE id = $1 AND lease_owner = $2',
        [jobId, owner, seconds],
      );
    },

    async releaseLease(jobId: string, owner: string): Promise<void> {
      await x.query('UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2', [
        jobId,
        owner,
      ]);
    },

    /** Jobs whose worker stopped renewing its lease (it died): another worker may take them over. */
    async abandonedJobIds(): Promise<string[]> {
      const { rows } = await x.query<{ id: string }>(
        `SELECT id FROM jobs WHERE ${ACTIVE} AND lease_owner IS NOT NULL AND lease_until < now() ORDER BY created_at`,
      );
      return ids(rows);
    },

    /**
     * Jobs that should be running (jobs and chapters handed to the queue) but that no
     * worker holds and that have not changed for `idleSeconds`: candidates for a lost message.
     */
    async unclaimedRunnableJobIds(idleSeconds: number): Promise<string[]> {
      const { rows } = await x.query<{ id: string }>(
        `SELECT id FROM jobs WHERE ${ACTIVE}
           AND enqueued_at IS NOT NULL
           AND lease_owner IS NULL AND updated_at < now() - make_interval(secs => $1)
         ORDER BY created_at LIMIT 500`,
        [idleSeconds],
      );
      return ids(rows);
    },

    /** Embedded mode: this process is the only one, so every lease is a dead process's. Answers their jobs. */
    async clearAllLeases(): Promise<string[]> {
      const { rows } = await x.query<{ id: string }>(
        'UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE lease_owner IS NOT NULL RETURNING id',
      );
      return ids(rows);
    },

    /** Jobs that should be running: active jobs and chapters already handed to the queue (waiting ones are the scheduler's). */
    async runnableJobIds(): Promise<string[]> {
      const { rows } = await x.query<{ id: string }>(
        `SELECT id FROM jobs WHERE ${ACTIVE} AND enqueued_at IS NOT NULL ORDER BY created_at`,
      );
      return ids(rows);
    },

    /** Of `jobIds`, the jobs that should stop: cancelled, or deleted. */
    async cancelledAmong(jobIds: string[]): Promise<string[]> {
      if (jobIds.length === 0) return [];
      // Cancelled or deleted only: a job that just COMPLETED (or FAILED) in the worker that runs it
      // is not stopped, and its outputs are not removed.
      const { rows } = await x.query<{ id: string }>(
        `SELECT id FROM jobs WHERE id = ANY($1::uuid[]) AND status <> 'CANCELLED'`,
        [jobIds],
      );
      const kept = new Set(ids(rows));
      return jobIds.filter((id) => !kept.has(id));
    },
  };
}
