/**
 * The jobs module's repository: the ONLY code that reads or writes the tables `jobs`, `job_steps`,
 * `uploaded_files` and `upload_events` (server/db/migrations/index.ts lists every table's owner;
 * tests/unit/table-owners.test.ts keeps it so). Other domains (listening, progress, the voice
 * assistant, ops) and the jobs module's own service, runner, steps and quotas call its methods and
 * receive typed records (rows.ts decodes them, result_data through a zod schema).
 *
 * `store(executor)` holds every query that runs on one executor; `createJobRepository(db)` adds
 * the ones that need their own transaction and `transaction(fn)`, which hands `fn` the same
 * queries bound to one transaction (e.g. the quota check and the insert of a new job).
 */
import { randomUUID } from 'node:crypto';
import type { Db, DbExecutor } from '../../db/types';
import type { JobConfig, JobRecord, JobStatus, JobType, StepName, StepRecord, StepStatus } from '../types';
import {
  JOB_COLUMNS,
  STEP_COLUMNS,
  toJob,
  toStep,
  toSummary,
  type JobRow,
  type JobSummaryView,
  type ResultData,
  type StepRow,
  type SummaryRow,
} from './rows';

interface NewJob {
  id?: string;
  userId: string;
  parentJobId?: string | null;
  chapterOrder?: number | null;
  jobType: JobType;
  title: string;
  description?: string | null;
  config: JobConfig;
  inputFileKey?: string | null;
  steps: readonly string[];
}

export interface ListFilter {
  userId: string;
  page: number;
  pageSize: number;
  status?: 'pending' | 'processing' | 'running' | 'listenable' | 'completed' | 'failed' | 'cancelled' | undefined;
  q?: string | undefined;
  sort: 'created_at' | 'updated_at' | 'title' | 'status';
  order: 'asc' | 'desc';
  topLevel: boolean;
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
};

const SORT_COLUMNS: Record<ListFilter['sort'], string> = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  title: 'lower(title)',
  status: 'status',
};

/** A job's title for sorting, a chapter's being its book's (jobs.parent_job_id names the book). */
const CHAPTER_AWARE_TITLE = 'lower(COALESCE((SELECT p.title FROM jobs p WHERE p.id = jobs.parent_job_id), title))';

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

interface StepFields {
  status?: StepStatus;
  progress?: number;
  errorMessage?: string | null;
  metadata?: Record<string, unknown>;
  start?: boolean;
  complete?: boolean;
  countAttempt?: boolean;
  clearTimes?: boolean;
}

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

const ACTIVE = `status IN ('PENDING', 'PROCESSING')`;
/** Namespace of the per-user advisory locks (the two-key form, apart from pg-boss's one-key locks). */
const OWNER_LOCK_SPACE = 7415;

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

/** The scheduler's lock (the two-key form, apart from the owners' and pg-boss's locks). */
const SCHEDULER_LOCK_SPACE = 7416;

/**
 * Waiting top-level jobs (PENDING, not yet handed to the workers) with their turn: the job's place
 * among its user's waiting jobs plus the user's jobs handed over and unfinished.
 */
const WAITING_TURNS = `WITH waiting AS (
    SELECT id, user_id, created_at, row_number() OVER (PARTITION BY user_id ORDER BY created_at, id) AS place
      FROM jobs WHERE parent_job_id IS NULL AND status = 'PENDING' AND enqueued_at IS NULL
  ), running AS (
    SELECT user_id, count(*) AS n FROM jobs
     WHERE parent_job_id IS NULL AND status IN ('PENDING', 'PROCESSING') AND enqueued_at IS NOT NULL
     GROUP BY user_id
  ), turns AS (
    SELECT w.id, w.created_at, w.place + COALESCE(r.n, 0) AS turn FROM waiting w LEFT JOIN running r USING (user_id)
  )`;

/** Every query on one executor (the database, or one transaction). Ids are already checked for ownership where it matters. */
function store(x: DbExecutor) {
  async function insertSteps(jobId: string, names: readonly string[], firstOrder: number): Promise<void> {
    for (const [i, name] of names.entries()) {
      await x.query(
        `INSERT INTO job_steps (id, job_id, step_name, step_order, status) VALUES ($1, $2, $3, $4, 'pending')
         ON CONFLICT (job_id, step_name) DO UPDATE SET step_order = EXCLUDED.step_order`,
        [randomUUID(), jobId, name, firstOrder + i],
      );
    }
  }

  async function jobs(sql: string, params: unknown[]): Promise<JobRecord[]> {
    const { rows } = await x.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE ${sql}`, params);
    return rows.map(toJob);
  }

  return {
    // --- jobs: create, read, change ---

    /** Inserts a PENDING job and its pending steps; answers its id. */
    async insertJob(job: NewJob): Promise<string> {
      const id = job.id ?? randomUUID();
      await x.query(
        `INSERT INTO jobs (id, user_id, parent_job_id, chapter_order, job_type, title, description, status, config, input_file_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', $8::jsonb, $9)`,
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
        ],
      );
      await insertSteps(id, job.steps, 1);
      return id;
    },

    insertSteps,

    /** Sets the given fields (and updated_at); with `onlyIfActive`, only while the job is PENDING or PROCESSING. False when no row changed. */
    async patchJob(id: string, patch: JobPatch, options: { onlyIfActive?: boolean } = {}): Promise<boolean> {
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

    /** A book's chapter jobs that belong to the user, in chapter order. */
    async childrenForUser(parentId: string, userId: string): Promise<JobRecord[]> {
      return jobs('parent_job_id = $1 AND user_id = $2 ORDER BY chapter_order NULLS LAST, created_at', [
        parentId,
        userId,
      ]);
    },

    /** The user's COMPLETED top-level jobs (books and texts, not chapters), newest first. */
    async completedForUser(userId: string, limit: number): Promise<JobRecord[]> {
      return jobs(`user_id = $1 AND status = 'COMPLETED' AND parent_job_id IS NULL ORDER BY created_at DESC LIMIT $2`, [
        userId,
        limit,
      ]);
    },

    /**
     * One page of the list in ONE query: the page's summary columns (JSON fields picked out by the
     * database, never the analysis), each book's chapter count (an index lookup per row of the page
     * only) and the filter's total (a window count). A page past the end costs a second, count-only
     * query. Each sort has its index (migration 0004).
     */
    /** One page of summaries; `waiting` names its jobs still waiting their turn in the fair queue. */
    async listSummaries(filter: ListFilter): Promise<{ jobs: JobSummaryView[]; total: number; waiting: string[] }> {
      const where: string[] = ['user_id = $1'];
      const params: unknown[] = [filter.userId];
      if (filter.status === 'running') where.push(ACTIVE);
      else if (filter.status === 'listenable') {
        // What can be played now: finished jobs, and books still converting with a chapter ready.
        where.push(`(status = 'COMPLETED' OR (status IN ('PENDING', 'PROCESSING') AND EXISTS
          (SELECT 1 FROM jobs r WHERE r.parent_job_id = jobs.id AND r.status = 'COMPLETED')))`);
      } else if (filter.status !== undefined) {
        params.push(filter.status.toUpperCase());
        where.push(`status = $${params.length}`);
      }
      const q = filter.q?.trim();
      if (q) {
        params.push(`%${escapeLike(q)}%`);
        const titleParam = params.length;
        params.push(`${escapeLike(q.toLowerCase())}%`);
        where.push(`(title ILIKE $${titleParam} OR id::text LIKE $${params.length})`);
      }
      if (filter.topLevel) where.push('parent_job_id IS NULL');
      const whereSql = where.join(' AND ');
      const dir = filter.order === 'asc' ? 'ASC' : 'DESC';
      // A book's chapters are created at one instant: they follow their order (ascending, whatever
      // the direction), never their titles ("Chapter 10" after "Chapter 9"). By title, a chapter
      // sorts under its book's title, after the book, so a book and its chapters stay together.
      const withChapters = filter.sort === 'title' && !filter.topLevel;
      const sortTitle = withChapters ? CHAPTER_AWARE_TITLE : SORT_COLUMNS.title;
      const orderBy = (column: (name: string) => string) =>
        withChapters
          ? `${column('sort_title')} ${dir}, ${column('book_id')} ${dir}, ${column('parent_job_id')} ASC NULLS FIRST, ` +
            `${column('chapter_order')} ASC NULLS FIRST, ${column('created_at')} ${dir}, ${column('id')} ${dir}`
          : `${column(filter.sort === 'title' ? 'sort_title' : filter.sort)} ${dir}, ${column('created_at')} ${dir}, ` +
            `${column('chapter_order')} ASC NULLS FIRST, ${column('id')} ${dir}`;
      const inPage = (c: string) =>
        c === 'sort_title' ? sortTitle : c === 'book_id' ? 'COALESCE(parent_job_id, id)' : c;
      params.push(filter.pageSize, (filter.page - 1) * filter.pageSize);
      const { rows } = await x.query<SummaryRow>(
        `WITH page AS (
           SELECT id, user_id, parent_job_id, job_type, title, description, status, progress, error_message,
                  config->'voice_config' AS voice_config, config->>'provider' AS provider, config->>'author' AS author,
                  (result_data->>'duration')::double precision AS r_duration,
                  (result_data->>'duration_seconds')::double precision AS r_duration_seconds,
                  (result_data->>'file_size_bytes')::bigint AS r_file_size_bytes,
                  result_data->>'tts_engine' AS r_tts_engine,
                  input_file_key, output_file_key, duration, created_at, updated_at, started_at, completed_at,
                  chapter_order, ${sortTitle} AS sort_title, COALESCE(parent_job_id, id) AS book_id,
                  (parent_job_id IS NULL AND status = 'PENDING' AND enqueued_at IS NULL) AS waiting,
                  count(*) OVER () AS total
           FROM jobs WHERE ${whereSql}
           ORDER BY ${orderBy(inPage)}
           LIMIT $${params.length - 1} OFFSET $${params.length}
         )
         SELECT page.*, (SELECT count(*) FROM jobs c WHERE c.parent_job_id = page.id) AS chapter_count,
                (SELECT count(*) FROM jobs c WHERE c.parent_job_id = page.id AND c.status = 'COMPLETED') AS chapters_ready
         FROM page ORDER BY ${orderBy((c) => `page.${c}`)}`,
        params,
      );
      if (rows.length > 0) {
        const waiting = rows.filter((r) => r.waiting === true).map((r) => r.id);
        return { jobs: rows.map(toSummary), total: Number(rows[0]!.total), waiting };
      }
      const { rows: countRows } = await x.query<{ n: number | string }>(
        `SELECT count(*) AS n FROM jobs WHERE ${whereSql}`,
        params.slice(0, -2),
      );
      return { jobs: [], total: Number(countRows[0]?.n ?? 0), waiting: [] };
    },

    /** Jobs by status, every user's (the metrics' gauge). */
    async countByStatus(): Promise<Record<string, number>> {
      const { rows } = await x.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM jobs GROUP BY status',
      );
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },

    // --- steps ---

    async steps(jobIds: string[]): Promise<StepRecord[]> {
      if (jobIds.length === 0) return [];
      const { rows } = await x.query<StepRow>(
        `SELECT ${STEP_COLUMNS} FROM job_steps WHERE job_id = ANY($1::uuid[]) ORDER BY job_id, step_order`,
        [jobIds],
      );
      return rows.map(toStep);
    },

    async updateStep(jobId: string, stepName: StepName, fields: StepFields): Promise<void> {
      const sets = ['updated_at = now()'];
      const params: unknown[] = [jobId, stepName];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        sets.push(sql.replace('?', `$${params.length}`));
      };
      if (fields.status !== undefined) add('status = ?', fields.status);
      if (fields.progress !== undefined) add('progress = ?', Math.max(0, Math.min(100, fields.progress)));
      if (fields.errorMessage !== undefined) add('error_message = ?', fields.errorMessage);
      if (fields.metadata !== undefined)
        add('step_metadata = step_metadata || ?::jsonb', JSON.stringify(fields.metadata));
      if (fields.start) sets.push('started_at = now()', 'completed_at = NULL');
      if (fields.complete) sets.push('completed_at = now()');
      if (fields.countAttempt) sets.push('attempts = attempts + 1');
      if (fields.clearTimes) sets.push('started_at = NULL', 'completed_at = NULL');
      await x.query(`UPDATE job_steps SET ${sets.join(', ')} WHERE job_id = $1 AND step_name = $2`, params);
    },

    // --- the runner: progress, chapters, leases ---

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

    /** An active book's progress while its chapters run: their mean, kept between 8 and 99; also its running synthesize_chapters step's. */
    async setBookProgress(bookId: string, mean: number): Promise<void> {
      await x.query(
        `UPDATE jobs SET progress = GREATEST(8, LEAST(99, $2::double precision)), updated_at = now() WHERE id = $1 AND ${ACTIVE}`,
        [bookId, mean],
      );
      await x.query(
        `UPDATE job_steps SET progress = $2::double precision, updated_at = now() WHERE job_id = $1 AND step_name = 'synthesize_chapters' AND status = 'running'`,
        [bookId, Math.min(100, mean)],
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

    /** Embedded mode: this process is the only one, so every lease is a dead process's. */
    async clearAllLeases(): Promise<void> {
      await x.query('UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE lease_owner IS NOT NULL');
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

    /** A FAILED job (and its failed or cancelled chapters) back to PENDING, failed and interrupted steps to pending. */
    async resetForRetry(jobId: string): Promise<void> {
      const { rows } = await x.query<{ id: string }>(
        `UPDATE jobs SET status = 'PENDING', error_message = NULL, enqueued_at = NULL, updated_at = now()
         WHERE (id = $1 OR parent_job_id = $1) AND status IN ('FAILED', 'CANCELLED') RETURNING id`,
        [jobId],
      );
      await x.query(
        `UPDATE job_steps SET status = 'pending', error_message = NULL, progress = 0, started_at = NULL, completed_at = NULL, updated_at = now()
         WHERE job_id = ANY($1::uuid[]) AND status IN ('failed', 'running')`,
        [ids(rows)],
      );
    },

    /**
     * A COMPLETED job converted again in part: the given chapters (or, without chapters, the job
     * itself) back to PENDING, waiting for its turn in the fair queue like a retried job, with their
     * synthesize and finalize steps pending; a book's own
     * synthesize_chapters, combine_audio and finalize steps pending too, so it joins them again.
     * Answers false when the job was no longer COMPLETED.
     */
    async resetForReconvert(jobId: string, chapterIds: readonly string[]): Promise<boolean> {
      const { rows } = await x.query<{ id: string }>(
        `UPDATE jobs SET status = 'PENDING', error_message = NULL, completed_at = NULL, enqueued_at = NULL, updated_at = now()
         WHERE id = $1 AND status = 'COMPLETED' RETURNING id`,
        [jobId],
      );
      if (rows.length === 0) return false;
      const again = ['synthesize', 'synthesize_chapters', 'combine_audio', 'finalize'];
      await x.query(
        `UPDATE job_steps SET status = 'pending', error_message = NULL, progress = 0, started_at = NULL, completed_at = NULL, updated_at = now()
         WHERE job_id = $1 AND step_name = ANY($2::text[])`,
        [jobId, again],
      );
      if (chapterIds.length === 0) return true;
      await x.query(
        `UPDATE jobs SET status = 'PENDING', progress = 0, error_message = NULL, completed_at = NULL, enqueued_at = NULL, updated_at = now()
         WHERE parent_job_id = $1 AND id = ANY($2::uuid[])`,
        [jobId, chapterIds],
      );
      await x.query(
        `UPDATE job_steps SET status = 'pending', error_message = NULL, progress = 0, started_at = NULL, completed_at = NULL, updated_at = now()
         WHERE job_id = ANY($1::uuid[]) AND step_name IN ('synthesize', 'finalize')`,
        [chapterIds],
      );
      return true;
    },

    /** Part of becomeBook (run it in a transaction): drops earlier chapters and the synthesize step, adds `tail`. */
    async convertToBook(jobId: string, tail: readonly string[], firstOrder: number): Promise<void> {
      await x.query('DELETE FROM jobs WHERE parent_job_id = $1', [jobId]);
      await x.query(`UPDATE jobs SET job_type = 'book_processing', updated_at = now() WHERE id = $1`, [jobId]);
      await x.query(`DELETE FROM job_steps WHERE job_id = $1 AND step_name = 'synthesize'`, [jobId]);
      await insertSteps(jobId, tail, firstOrder);
    },

    /** Part of cancelWithChapters (run it in a transaction). */
    async cancelActive(jobId: string): Promise<string[]> {
      const { rows } = await x.query<{ id: string }>(
        `UPDATE jobs SET status = 'CANCELLED', updated_at = now()
         WHERE (id = $1 OR parent_job_id = $1) AND ${ACTIVE} RETURNING id`,
        [jobId],
      );
      await x.query(
        `UPDATE job_steps SET status = 'failed', error_message = 'Cancelled', completed_at = now(), updated_at = now()
         WHERE job_id = ANY($1::uuid[]) AND status = 'running'`,
        [ids(rows)],
      );
      return ids(rows);
    },

    /** Part of deleteWithChapters (run it in a transaction). */
    async deleteOwned(jobId: string, userId: string): Promise<{ id: string; outputFileKey: string | null }[]> {
      const { rows } = await x.query<{ id: string; output_file_key: string | null }>(
        'SELECT id, output_file_key FROM jobs WHERE (id = $1 OR parent_job_id = $1) AND user_id = $2 FOR UPDATE',
        [jobId, userId],
      );
      await x.query('DELETE FROM jobs WHERE id = $1 AND user_id = $2', [jobId, userId]);
      return rows.map((r) => ({ id: r.id, outputFileKey: r.output_file_key }));
    },

    // --- the fair queue (scheduler.ts) ---

    /**
     * Hands waiting top-level jobs to the workers, fairly: each waiting job's turn is its place
     * among its user's waiting jobs plus the user's jobs already handed over and unfinished; jobs
     * whose turn is within `runningLimit` are marked handed over (enqueued_at), lowest turn first,
     * then oldest. Run it in a transaction: a lock makes concurrent schedulers take turns.
     */
    async dispatchWaiting(runningLimit: number): Promise<{ id: string; turn: number }[]> {
      await x.query('SELECT pg_advisory_xact_lock($1, 0)', [SCHEDULER_LOCK_SPACE]);
      const { rows } = await x.query<{ id: string; turn: string | number }>(
        `${WAITING_TURNS} SELECT id, turn FROM turns WHERE turn <= $1 ORDER BY turn, created_at, id LIMIT 500`,
        [runningLimit],
      );
      const picked = rows.map((r) => ({ id: r.id, turn: Number(r.turn) }));
      if (picked.length > 0) {
        await x.query('UPDATE jobs SET enqueued_at = now() WHERE id = ANY($1::uuid[])', [picked.map((p) => p.id)]);
      }
      return picked;
    },

    /**
     * For each of `jobIds` still waiting for its turn: how many jobs start before it (those handed
     * over and not yet started, and the waiting ones with an earlier turn, of every user).
     */
    async queuePositions(jobIds: string[]): Promise<Map<string, number>> {
      if (jobIds.length === 0) return new Map();
      const { rows } = await x.query<{ id: string; ahead: string | number }>(
        `${WAITING_TURNS}
         SELECT t.id,
                (SELECT count(*) FROM jobs h WHERE h.parent_job_id IS NULL AND h.status = 'PENDING' AND h.enqueued_at IS NOT NULL)
              + (SELECT count(*) FROM turns o WHERE (o.turn, o.created_at, o.id) < (t.turn, t.created_at, t.id)) AS ahead
           FROM turns t WHERE t.id = ANY($1::uuid[])`,
        [jobIds],
      );
      return new Map(rows.map((r) => [r.id, Number(r.ahead)]));
    },

    // --- quotas ---

    /**
     * Serialises the user's quota checks until the transaction ends: concurrent requests of one
     * user are counted one after the other (a transaction-scoped advisory lock on the user's id).
     */
    async lockOwner(userId: string): Promise<void> {
      await x.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [OWNER_LOCK_SPACE, userId]);
    },

    /** The user's unfinished top-level jobs (the active-jobs quota). */
    async activeTopLevelCount(userId: string): Promise<number> {
      const { rows } = await x.query<{ n: string | number }>(
        `SELECT count(*) AS n FROM jobs WHERE user_id = $1 AND parent_job_id IS NULL AND ${ACTIVE}`,
        [userId],
      );
      return Number(rows[0]?.n ?? 0);
    },

    /** Bytes the user's data holds: uploads, each job's own text and each finished job's audio. */
    async storageUsed(userId: string): Promise<number> {
      const { rows } = await x.query<{ used: string | number }>(
        `SELECT (SELECT COALESCE(sum(size_bytes), 0) FROM uploaded_files WHERE user_id = $1)
              + (SELECT COALESCE(sum(COALESCE((result_data->>'file_size_bytes')::bigint, 0)
                                   + COALESCE((config->>'source_bytes')::bigint, 0)), 0)
                 FROM jobs WHERE user_id = $1) AS used`,
        [userId],
      );
      return Number(rows[0]?.used ?? 0);
    },

    /** Forgets the user's uploads up to `since`; answers how many remain after it and the oldest one's time. */
    async uploadsSince(userId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
      await x.query('DELETE FROM upload_events WHERE user_id = $1 AND created_at <= $2', [userId, since.toISOString()]);
      const { rows } = await x.query<{ n: string | number; oldest: Date | string | null }>(
        'SELECT count(*) AS n, min(created_at) AS oldest FROM upload_events WHERE user_id = $1',
        [userId],
      );
      const oldest = rows[0]?.oldest ?? null;
      return { count: Number(rows[0]?.n ?? 0), oldest: oldest === null ? null : new Date(oldest) };
    },

    async recordUpload(userId: string, at: Date): Promise<void> {
      await x.query('INSERT INTO upload_events (user_id, created_at) VALUES ($1, $2)', [userId, at.toISOString()]);
    },

    // --- uploaded files ---

    async insertUpload(fileKey: string, userId: string, filename: string, sizeBytes: number): Promise<void> {
      await x.query('INSERT INTO uploaded_files (file_key, user_id, filename, size_bytes) VALUES ($1, $2, $3, $4)', [
        fileKey,
        userId,
        filename,
        sizeBytes,
      ]);
    },

    /** A job that was made from this upload, if any. */
    async jobUsingUpload(fileKey: string): Promise<{ id: string; title: string } | null> {
      const { rows } = await x.query<{ id: string; title: string }>(
        'SELECT id, title FROM jobs WHERE input_file_key = $1 ORDER BY created_at LIMIT 1',
        [fileKey],
      );
      return rows[0] ?? null;
    },

    async deleteUpload(fileKey: string): Promise<void> {
      await x.query('DELETE FROM uploaded_files WHERE file_key = $1', [fileKey]);
    },

    async uploadOwner(fileKey: string): Promise<string | null> {
      const { rows } = await x.query<{ user_id: string }>('SELECT user_id FROM uploaded_files WHERE file_key = $1', [
        fileKey,
      ]);
      return rows[0]?.user_id ?? null;
    },
  };
}

/** The repository's queries bound to one transaction. */
export type JobStore = ReturnType<typeof store>;

/** Frees every job's lease (a restored instance: the workers that held them are gone). */
export const clearAllLeases = (x: DbExecutor): Promise<void> => store(x).clearAllLeases();

export function createJobRepository(db: Db) {
  const transaction = <T>(fn: (tx: JobStore) => Promise<T>): Promise<T> => db.transaction((tx) => fn(store(tx)));
  return {
    ...store(db),
    transaction,

    /**
     * split_chapters found a book: in one transaction, chapter jobs of an earlier try go, the job
     * becomes a book_processing job whose steps from `firstOrder` on are `tail` (its synthesize
     * step goes), and `chapters` are inserted as its chapter jobs.
     */
    async becomeBook(jobId: string, tail: readonly string[], firstOrder: number, chapters: NewJob[]): Promise<void> {
      await transaction(async (tx) => {
        await tx.convertToBook(jobId, tail, firstOrder);
        for (const chapter of chapters) await tx.insertJob(chapter);
      });
    },

    /** Cancels the job and its unfinished chapters (running steps fail with "Cancelled"); answers the ids cancelled. */
    async cancelWithChapters(jobId: string): Promise<string[]> {
      return transaction((tx) => tx.cancelActive(jobId));
    },

    /** Deletes the user's job (its chapters, steps and progress go by cascade); answers the rows that went. */
    async deleteWithChapters(jobId: string, userId: string): Promise<{ id: string; outputFileKey: string | null }[]> {
      return transaction((tx) => tx.deleteOwned(jobId, userId));
    },
  };
}

export type JobRepository = ReturnType<typeof createJobRepository>;
