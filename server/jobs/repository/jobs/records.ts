/**
 * Jobs as records: create, read (typed records, ../../rows.ts, and the read model of a book of
 * server/books, built by ../../book.ts), change, cancel, delete, and what the quotas count.
 */
import { randomUUID } from 'node:crypto';
import type { DbExecutor } from '../../../db/types';
import { isUuid } from '../../../uuid';
import type { Book } from '../../../books/book';
import { toBook } from '../../book';
import type { JobConfig, JobRecord, JobStatus, JobType, ResultData } from '../../types';
import { JOB_COLUMNS, MANY_ROWS, toJob, type JobRow } from '../rows';
import { ACTIVE, ids, openingReady } from './sql';

/** A job to insert (PENDING); its steps are the steps table's. */
export interface NewJobRow {
  id?: string;
  userId: string;
  parentJobId?: string | null;
  chapterOrder?: number | null;
  jobType: JobType;
  title: string;
  description?: string | null;
  config: JobConfig;
  inputFileKey?: string | null;
  /** Storage held for the files the job has yet to write (its audio), counted while it waits or converts. */
  reservedBytes?: number;
}

type JobPatch = Partial<{
  title: string;
  jobType: JobType;
  status: JobStatus;
  progress: number;
  errorMessage: string | null;
  resultData: ResultData;
  inputFileKey: string | null;
  outputFileKey: string | null;
  duration: number | null;
  completedAt: Date | null;
  enqueuedAt: Date | null;
  reservedBytes: number;
  storedBytes: number | null;
}>;

const PATCH_COLUMNS: Record<keyof JobPatch, string> = {
  title: 'title',
  jobType: 'job_type',
  status: 'status',
  progress: 'progress',
  errorMessage: 'error_message',
  resultData: 'result_data',
  inputFileKey: 'input_file_key',
  outputFileKey: 'output_file_key',
  duration: 'duration',
  completedAt: 'completed_at',
  enqueuedAt: 'enqueued_at',
  reservedBytes: 'reserved_bytes',
  storedBytes: 'stored_bytes',
};

export function jobRecords(x: DbExecutor) {
  async function jobs(sql: string, params: unknown[]): Promise<JobRecord[]> {
    const { rows } = await x.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE ${sql}`, params);
    return rows.map(toJob);
  }

  return {
    /** Inserts a PENDING job; answers its id. */
    async insert(job: NewJobRow): Promise<string> {
      const id = job.id ?? randomUUID();
      await x.query(
        `INSERT INTO jobs (id, user_id, parent_job_id, chapter_order, job_type, title, description, status, config,
           input_file_key, reserved_bytes)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', $8::jsonb, $9, $10)`,
        [
          id,
          job.userId,
          job.parentJobId ?? null,
          job.chapterOrder ?? null,
          job.jobType,
          job.title,
          job.description ?? null,
          JSON.stringify(job.config),
          job.inputFileKey ?? null,
          job.reservedBytes ?? 0,
        ],
      );
      return id;
    },

    /**
     * Inserts many PENDING jobs (a book's chapters) in one statement per MANY_ROWS rows: a
     * 10 MB text's 400 chapters are a few statements, not 400 round trips.
     */
    async insertMany(jobs: readonly (NewJobRow & { id: string })[]): Promise<void> {
      for (let at = 0; at < jobs.length; at += MANY_ROWS) {
        const batch = jobs.slice(at, at + MANY_ROWS);
        await x.query(
          `INSERT INTO jobs (id, user_id, parent_job_id, chapter_order, job_type, title, description, status, config,
             input_file_key, reserved_bytes)
           SELECT id, user_id, parent_job_id, chapter_order, job_type, title, description, 'PENDING', config::jsonb,
             input_file_key, reserved_bytes
           FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::integer[], $5::text[], $6::text[], $7::text[], $8::text[],
             $9::text[], $10::bigint[])
             AS t(id, user_id, parent_job_id, chapter_order, job_type, title, description, config, input_file_key,
               reserved_bytes)`,
          [
            batch.map((j) => j.id),
            batch.map((j) => j.userId),
            batch.map((j) => j.parentJobId ?? null),
            batch.map((j) => j.chapterOrder ?? null),
            batch.map((j) => j.jobType),
            batch.map((j) => j.title),
            batch.map((j) => j.description ?? null),
            batch.map((j) => JSON.stringify(j.config)),
            batch.map((j) => j.inputFileKey ?? null),
            batch.map((j) => j.reservedBytes ?? 0),
          ],
        );
      }
    },

    /** Sets the given fields (and updated_at); with `onlyIfActive`, only while the job is PENDING or PROCESSING. False when no row changed. */
    async patch(id: string, patch: JobPatch, options: { onlyIfActive?: boolean } = {}): Promise<boolean> {
      const sets: string[] = ['updated_at = now()'];
      const params: unknown[] = [id];
      for (const [key, value] of Object.entries(patch) as [keyof JobPatch, unknown][]) {
        if (value === undefined) continue;
        params.push(key === 'resultData' ? JSON.stringify(value) : value instanceof Date ? value.toISOString() : value);
        sets.push(`${PATCH_COLUMNS[key]} = $${params.length}${key === 'resultData' ? '::jsonb' : ''}`);
      }
      const { rows } = await x.query<{ id: string }>(
        `UPDATE jobs SET ${sets.join(', ')} WHERE id = $1 ${options.onlyIfActive ? `AND ${ACTIVE}` : ''} RETURNING id`,
        params,
      );
      return rows.length > 0;
    },

    /** Merges keys into jobs.config (e.g. tutoring_analysis). */
    async mergeConfig(jobId: string, patch: Partial<JobConfig>): Promise<void> {
      await x.query('UPDATE jobs SET config = config || $2::jsonb, updated_at = now() WHERE id = $1', [
        jobId,
        JSON.stringify(patch),
      ]);
    },

    async get(id: string): Promise<JobRecord | null> {
      return (await jobs('id = $1', [id]))[0] ?? null;
    },

    /** The job whose audio is stored under `key` (a chapter's, a text's or a book's combined audio), if any. */
    async byOutputKey(key: string): Promise<JobRecord | null> {
      return (await jobs('output_file_key = $1 LIMIT 1', [key]))[0] ?? null;
    },

    /** The job if it exists and belongs to the user; null otherwise (the two are indistinguishable). */
    async getForUser(id: string, userId: string): Promise<JobRecord | null> {
      return (await jobs('id = $1 AND user_id = $2', [id, userId]))[0] ?? null;
    },

    async byIds(jobIds: string[]): Promise<JobRecord[]> {
      return jobIds.length === 0 ? [] : jobs('id = ANY($1::uuid[])', [jobIds]);
    },

    /** The chapter jobs of these books, in chapter order. */
    async children(parentIds: string[]): Promise<JobRecord[]> {
      if (parentIds.length === 0) return [];
      return jobs('parent_job_id = ANY($1::uuid[]) ORDER BY chapter_order, created_at', [parentIds]);
    },

    // --- the read model of a book (server/books' BookReader): every reader of books reads jobs so ---

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
      const found = await jobs('parent_job_id = $1 AND user_id = $2 ORDER BY chapter_order NULLS LAST, created_at', [
        bookId,
        userId,
      ]);
      return found.map((job) => toBook(job));
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

    /** The user's COMPLETED top-level jobs (books and texts, not chapters), newest first. */
    async completedBooks(userId: string, limit: number): Promise<Book[]> {
      const found = await jobs(
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

    /** Jobs by status, every user's (the metrics' gauge). */
    async countByStatus(): Promise<Record<string, number>> {
      const { rows } = await x.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM jobs GROUP BY status',
      );
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },

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

    /** The user's unfinished top-level jobs (the active-jobs quota). */
    async activeTopLevelCount(userId: string): Promise<number> {
      const { rows } = await x.query<{ n: string | number }>(
        `SELECT count(*) AS n FROM jobs WHERE user_id = $1 AND parent_job_id IS NULL AND ${ACTIVE}`,
        [userId],
      );
      return Number(rows[0]?.n ?? 0);
    },

    /**
     * Bytes the user's jobs hold (the storage quota): each job's own text and cover, the covers
     * made of a finished book (cover_jpeg_bytes, cover_svg_bytes), what each finished job wrote
     * (stored_bytes: its MP3 and timing map; a row finished before that column counts its MP3's
     * size), and while a job waits or converts, the space reserved for what it has yet to write.
     */
    async bytesHeld(userId: string): Promise<number> {
      const { rows } = await x.query<{ used: string | number }>(
        `SELECT COALESCE(sum(COALESCE(stored_bytes, (result_data->>'file_size_bytes')::bigint, 0)
                           + COALESCE((config->>'source_bytes')::bigint, 0)
                           + COALESCE((config->>'cover_bytes')::bigint, 0)
                           + COALESCE((config->>'cover_jpeg_bytes')::bigint, 0)
                           + COALESCE((config->>'cover_svg_bytes')::bigint, 0)
                           + CASE WHEN ${ACTIVE} THEN reserved_bytes ELSE 0 END), 0) AS used
         FROM jobs WHERE user_id = $1`,
        [userId],
      );
      return Number(rows[0]?.used ?? 0);
    },

    /** Sets the space the job holds for what it has yet to write (a web page's, once its text is read). */
    async reserve(jobId: string, bytes: number): Promise<void> {
      await x.query('UPDATE jobs SET reserved_bytes = $2 WHERE id = $1', [jobId, Math.max(0, Math.round(bytes))]);
    },

    /** Counts a cover kept for a finished book (the JPEG of downloads and feeds, or the drawn SVG) in its owner's storage. */
    async keepCoverBytes(jobId: string, kind: 'jpeg' | 'svg', bytes: number): Promise<void> {
      await x.query('UPDATE jobs SET config = config || jsonb_build_object($2::text, $3::bigint) WHERE id = $1', [
        jobId,
        `cover_${kind}_bytes`,
        bytes,
      ]);
    },

    /** A job that was made from this upload, if any. */
    async madeFrom(uploadKey: string): Promise<{ id: string; title: string } | null> {
      const { rows } = await x.query<{ id: string; title: string }>(
        'SELECT id, title FROM jobs WHERE input_file_key = $1 ORDER BY created_at LIMIT 1',
        [uploadKey],
      );
      return rows[0] ?? null;
    },
  };
}
