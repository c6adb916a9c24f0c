/**
 * Jobs as records: create, read (typed records, ../rows.ts) and change. The table's other queries
 * on jobs as a whole: `books.ts` (the read model of a book), `changes.ts` (cancel, retry, reopen,
 * delete), `usage.ts` (what the quotas and the metrics count).
 */
import { randomUUID } from 'node:crypto';
import type { DbExecutor } from '../../../db/types';
import type { JobConfig, JobRecord, JobStatus, JobType, ResultData } from '../../types';
import { MANY_ROWS } from '../rows';
import { ACTIVE, selectJobs } from './sql';

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
      return (await selectJobs(x, 'id = $1', [id]))[0] ?? null;
    },

    /** The job whose audio is stored under `key` (a chapter's, a text's or a book's combined audio), if any. */
    async byOutputKey(key: string): Promise<JobRecord | null> {
      return (await selectJobs(x, 'output_file_key = $1 LIMIT 1', [key]))[0] ?? null;
    },

    /** The job if it exists and belongs to the user; null otherwise (the two are indistinguishable). */
    async getForUser(id: string, userId: string): Promise<JobRecord | null> {
      return (await selectJobs(x, 'id = $1 AND user_id = $2', [id, userId]))[0] ?? null;
    },

    async byIds(jobIds: string[]): Promise<JobRecord[]> {
      return jobIds.length === 0 ? [] : selectJobs(x, 'id = ANY($1::uuid[])', [jobIds]);
    },

    /** The chapter jobs of these books, in chapter order. */
    async children(parentIds: string[]): Promise<JobRecord[]> {
      if (parentIds.length === 0) return [];
      return selectJobs(x, 'parent_job_id = ANY($1::uuid[]) ORDER BY chapter_order, created_at', [parentIds]);
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
