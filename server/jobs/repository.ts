import { randomUUID } from 'node:crypto';
import type { Db, DbExecutor } from '../db/types';
import type {
  JobConfig,
  JobRecord,
  JobStatus,
  JobType,
  ResultData,
  StepName,
  StepRecord,
  StepStatus,
} from './types';

interface JobRow {
  id: string;
  user_id: string;
  parent_job_id: string | null;
  chapter_order: number | null;
  job_type: JobType;
  title: string;
  description: string | null;
  status: JobStatus;
  progress: number;
  error_message: string | null;
  config: JobConfig | string;
  result_data: ResultData | string;
  input_file_key: string | null;
  output_file_key: string | null;
  duration: number | null;
  created_at: Date | string;
  updated_at: Date | string;
  started_at: Date | string | null;
  completed_at: Date | string | null;
}

interface StepRow {
  id: string;
  job_id: string;
  step_name: string;
  step_order: number;
  status: StepStatus;
  progress: number;
  error_message: string | null;
  step_metadata: Record<string, unknown> | string;
  attempts: number;
  created_at: Date | string;
  updated_at: Date | string;
  started_at: Date | string | null;
  completed_at: Date | string | null;
}

const JOB_COLUMNS = `id, user_id, parent_job_id, chapter_order, job_type, title, description, status, progress,
  error_message, config, result_data, input_file_key, output_file_key, duration, created_at, updated_at,
  started_at, completed_at`;

const date = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));
const dateOrNull = (v: Date | string | null): Date | null => (v === null ? null : date(v));
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

export function toJob(row: JobRow): JobRecord {
  return {
    id: row.id,
    userId: row.user_id,
    parentJobId: row.parent_job_id,
    chapterOrder: row.chapter_order,
    jobType: row.job_type,
    title: row.title,
    description: row.description,
    status: row.status,
    progress: Number(row.progress),
    errorMessage: row.error_message,
    config: json(row.config),
    resultData: json(row.result_data),
    inputFileKey: row.input_file_key,
    outputFileKey: row.output_file_key,
    duration: row.duration === null ? null : Number(row.duration),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    startedAt: dateOrNull(row.started_at),
    completedAt: dateOrNull(row.completed_at),
  };
}

function toStep(row: StepRow): StepRecord {
  return {
    id: row.id,
    jobId: row.job_id,
    stepName: row.step_name as StepName,
    stepOrder: row.step_order,
    status: row.status,
    progress: Number(row.progress),
    errorMessage: row.error_message,
    metadata: json(row.step_metadata),
    attempts: row.attempts,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    startedAt: dateOrNull(row.started_at),
    completedAt: dateOrNull(row.completed_at),
  };
}

export interface NewJob {
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

export type JobPatch = Partial<{
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

/** One row of the list: only what the summary shows, with JSON picked apart by the database. */
interface SummaryRow {
  id: string;
  user_id: string;
  parent_job_id: string | null;
  job_type: JobType;
  title: string;
  description: string | null;
  status: JobStatus;
  progress: number;
  error_message: string | null;
  voice_config: JobConfig['voice_config'] | string | null;
  provider: JobConfig['provider'] | null;
  r_duration: number | null;
  r_duration_seconds: number | null;
  r_file_size_bytes: number | string | null;
  input_file_key: string | null;
  output_file_key: string | null;
  duration: number | null;
  created_at: Date | string;
  updated_at: Date | string;
  started_at: Date | string | null;
  completed_at: Date | string | null;
  chapter_count: number | string;
  chapters_ready: number | string;
  total: number | string;
}

const isoDate = (v: Date | string): string => date(v).toISOString();
const isoOrNullDate = (v: Date | string | null): string | null => (v === null ? null : isoDate(v));
const numOrUndefined = (v: number | string | null): number | undefined => (v === null ? undefined : Number(v));

/** A list item as the contract's JobSummary has it. */
export function toSummary(row: SummaryRow) {
  const voiceConfig = row.voice_config === null ? undefined : json(row.voice_config);
  const duration = numOrUndefined(row.r_duration);
  const durationSeconds = numOrUndefined(row.r_duration_seconds);
  const size = numOrUndefined(row.r_file_size_bytes);
  return {
    id: row.id,
    user_id: row.user_id,
    parent_job_id: row.parent_job_id,
    job_type: row.job_type,
    title: row.title,
    description: row.description,
    status: row.status,
    progress: Number(row.progress),
    error_message: row.error_message,
    config: {
      ...(voiceConfig !== undefined && { voice_config: voiceConfig }),
      ...(row.provider !== null && { provider: row.provider }),
    },
    result_data: {
      ...(duration !== undefined && { duration }),
      ...(durationSeconds !== undefined && { duration_seconds: durationSeconds }),
      ...(size !== undefined && { file_size_bytes: size }),
    },
    input_file_key: row.input_file_key,
    output_file_key: row.output_file_key,
    created_at: isoDate(row.created_at),
    updated_at: isoDate(row.updated_at),
    started_at: isoOrNullDate(row.started_at),
    completed_at: isoOrNullDate(row.completed_at),
    duration: row.duration === null ? null : Number(row.duration),
    chapter_count: Number(row.chapter_count),
    chapters_ready: Number(row.chapters_ready),
  };
}

export type JobSummaryView = ReturnType<typeof toSummary>;

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

/** SQL for jobs, job_steps and uploaded_files. Every method takes ids already checked for ownership where it matters. */
export function createJobRepository(db: Db) {
  async function insertJob(tx: DbExecutor, job: NewJob): Promise<string> {
    const id = job.id ?? randomUUID();
    await tx.query(
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
    await insertSteps(tx, id, job.steps, 1);
    return id;
  }

  async function insertSteps(tx: DbExecutor, jobId: string, names: readonly string[], firstOrder: number) {
    for (const [i, name] of names.entries()) {
      await tx.query(
        `INSERT INTO job_steps (id, job_id, step_name, step_order, status) VALUES ($1, $2, $3, $4, 'pending')
         ON CONFLICT (job_id, step_name) DO UPDATE SET step_order = EXCLUDED.step_order`,
        [randomUUID(), jobId, name, firstOrder + i],
      );
    }
  }

  async function patchJob(tx: DbExecutor, id: string, patch: JobPatch, where = ''): Promise<boolean> {
    const sets: string[] = ['updated_at = now()'];
    const params: unknown[] = [id];
    for (const [key, value] of Object.entries(patch) as [keyof JobPatch, unknown][]) {
      if (value === undefined) continue;
      params.push(key === 'resultData' ? JSON.stringify(value) : value instanceof Date ? value.toISOString() : value);
      sets.push(`${PATCH_COLUMNS[key]} = $${params.length}${key === 'resultData' ? '::jsonb' : ''}`);
    }
    const { rows } = await tx.query<{ id: string }>(
      `UPDATE jobs SET ${sets.join(', ')} WHERE id = $1 ${where} RETURNING id`,
      params,
    );
    return rows.length > 0;
  }

  return {
    db,
    insertJob,
    insertSteps,
    patchJob: (id: string, patch: JobPatch, where = '') => patchJob(db, id, patch, where),
    patchJobTx: patchJob,

    async create(job: NewJob): Promise<string> {
      return db.transaction((tx) => insertJob(tx, job));
    },

    async get(id: string, tx: DbExecutor = db): Promise<JobRecord | null> {
      const { rows } = await tx.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1`, [id]);
      return rows[0] ? toJob(rows[0]) : null;
    },

    async getForUser(id: string, userId: string): Promise<JobRecord | null> {
      const { rows } = await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 AND user_id = $2`, [id, userId]);
      return rows[0] ? toJob(rows[0]) : null;
    },

    /**
     * One page of the list in ONE query: the page's summary columns (JSON fields picked out by the
     * database, never the analysis), each book's chapter count (an index lookup per row of the page
     * only) and the filter's total (a window count). A page past the end costs a second, count-only
     * query. Each sort has its index (migration 0004).
     */
    async listSummaries(filter: ListFilter): Promise<{ jobs: JobSummaryView[]; total: number }> {
      const where: string[] = ['user_id = $1'];
      const params: unknown[] = [filter.userId];
      if (filter.status === 'running') where.push(`status IN ('PENDING', 'PROCESSING')`);
      else if (filter.status === 'listenable') {
        // What can be played now: finished jobs, and books still converting with a chapter ready.
        where.push(`(status = 'COMPLETED' OR (status IN ('PENDING', 'PROCESSING') AND EXISTS
          (SELECT 1 FROM jobs r WHERE r.parent_job_id = jobs.id AND r.status = 'COMPLETED')))`);
      }
      else if (filter.status !== undefined) {
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
      const inPage = (c: string) => (c === 'sort_title' ? sortTitle : c === 'book_id' ? 'COALESCE(parent_job_id, id)' : c);
      params.push(filter.pageSize, (filter.page - 1) * filter.pageSize);
      const { rows } = await db.query<SummaryRow>(
        `WITH page AS (
           SELECT id, user_id, parent_job_id, job_type, title, description, status, progress, error_message,
                  config->'voice_config' AS voice_config, config->>'provider' AS provider,
                  (result_data->>'duration')::double precision AS r_duration,
                  (result_data->>'duration_seconds')::double precision AS r_duration_seconds,
                  (result_data->>'file_size_bytes')::bigint AS r_file_size_bytes,
                  input_file_key, output_file_key, duration, created_at, updated_at, started_at, completed_at,
                  chapter_order, ${sortTitle} AS sort_title, COALESCE(parent_job_id, id) AS book_id,
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
      if (rows.length > 0) return { jobs: rows.map(toSummary), total: Number(rows[0]!.total) };
      const { rows: countRows } = await db.query<{ n: number | string }>(
        `SELECT count(*) AS n FROM jobs WHERE ${whereSql}`,
        params.slice(0, -2),
      );
      return { jobs: [], total: Number(countRows[0]?.n ?? 0) };
    },

    async steps(jobIds: string[], tx: DbExecutor = db): Promise<StepRecord[]> {
      if (jobIds.length === 0) return [];
      const { rows } = await tx.query<StepRow>(
        `SELECT id, job_id, step_name, step_order, status, progress, error_message, step_metadata, attempts,
                created_at, updated_at, started_at, completed_at
         FROM job_steps WHERE job_id = ANY($1::uuid[]) ORDER BY job_id, step_order`,
        [jobIds],
      );
      return rows.map(toStep);
    },

    async children(parentIds: string[], tx: DbExecutor = db): Promise<JobRecord[]> {
      if (parentIds.length === 0) return [];
      const { rows } = await tx.query<JobRow>(
        `SELECT ${JOB_COLUMNS} FROM jobs WHERE parent_job_id = ANY($1::uuid[]) ORDER BY chapter_order, created_at`,
        [parentIds],
      );
      return rows.map(toJob);
    },

    async byIds(ids: string[]): Promise<JobRecord[]> {
      if (ids.length === 0) return [];
      const { rows } = await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ANY($1::uuid[])`, [ids]);
      return rows.map(toJob);
    },

    async updateStep(
      jobId: string,
      stepName: StepName,
      fields: Partial<{
        status: StepStatus;
        progress: number;
        errorMessage: string | null;
        metadata: Record<string, unknown>;
        start: boolean;
        complete: boolean;
        countAttempt: boolean;
        clearTimes: boolean;
      }>,
      tx: DbExecutor = db,
    ): Promise<void> {
      const sets = ['updated_at = now()'];
      const params: unknown[] = [jobId, stepName];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        sets.push(sql.replace('?', `$${params.length}`));
      };
      if (fields.status !== undefined) add('status = ?', fields.status);
      if (fields.progress !== undefined) add('progress = ?', Math.max(0, Math.min(100, fields.progress)));
      if (fields.errorMessage !== undefined) add('error_message = ?', fields.errorMessage);
      if (fields.metadata !== undefined) add('step_metadata = step_metadata || ?::jsonb', JSON.stringify(fields.metadata));
      if (fields.start) sets.push('started_at = now()', 'completed_at = NULL');
      if (fields.complete) sets.push('completed_at = now()');
      if (fields.countAttempt) sets.push('attempts = attempts + 1');
      if (fields.clearTimes) sets.push('started_at = NULL', 'completed_at = NULL');
      await tx.query(`UPDATE job_steps SET ${sets.join(', ')} WHERE job_id = $1 AND step_name = $2`, params);
    },

    /** Merges keys into jobs.config (e.g. tutoring_analysis). */
    async mergeConfig(jobId: string, patch: Record<string, unknown>): Promise<void> {
      await db.query('UPDATE jobs SET config = config || $2::jsonb, updated_at = now() WHERE id = $1', [
        jobId,
        JSON.stringify(patch),
      ]);
    },

    /** Takes the job's lease for `owner`; false while a live run (of any worker, this one included) holds it. */
    async claimLease(jobId: string, owner: string, seconds: number): Promise<boolean> {
      const { rows } = await db.query<{ id: string }>(
        `UPDATE jobs SET lease_owner = $2, lease_until = now() + make_interval(secs => $3)
         WHERE id = $1 AND (lease_owner IS NULL OR lease_until < now()) RETURNING id`,
        [jobId, owner, seconds],
      );
      return rows.length > 0;
    },

    async renewLease(jobId: string, owner: string, seconds: number): Promise<void> {
      await db.query(
        'UPDATE jobs SET lease_until = now() + make_interval(secs => $3) WHERE id = $1 AND lease_owner = $2',
        [jobId, owner, seconds],
      );
    },

    async releaseLease(jobId: string, owner: string): Promise<void> {
      await db.query('UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2', [jobId, owner]);
    },

    /** Jobs whose worker stopped renewing its lease (it died): another worker may take them over. */
    async abandonedJobIds(): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM jobs WHERE status IN ('PENDING', 'PROCESSING')
           AND lease_owner IS NOT NULL AND lease_until < now() ORDER BY created_at`,
      );
      return rows.map((r) => r.id);
    },

    /**
     * Jobs that should be running (active top-level jobs, chapters handed to the queue) but that no
     * worker holds and that have not changed for `idleSeconds`: candidates for a lost message.
     */
    async unclaimedRunnableJobIds(idleSeconds: number): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM jobs WHERE status IN ('PENDING', 'PROCESSING')
           AND (parent_job_id IS NULL OR enqueued_at IS NOT NULL)
           AND lease_owner IS NULL AND updated_at < now() - make_interval(secs => $1)
         ORDER BY created_at LIMIT 500`,
        [idleSeconds],
      );
      return rows.map((r) => r.id);
    },

    /** Embedded mode: this process is the only one, so every lease is a dead process's. */
    async clearAllLeases(): Promise<void> {
      await db.query('UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE lease_owner IS NOT NULL');
    },

    /** Jobs that should be running: active top-level jobs and active chapters already handed to the queue. */
    async runnableJobIds(): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM jobs WHERE status IN ('PENDING', 'PROCESSING')
           AND (parent_job_id IS NULL OR enqueued_at IS NOT NULL) ORDER BY created_at`,
      );
      return rows.map((r) => r.id);
    },

    /** Of `ids`, the jobs that should stop: no longer active, or deleted. */
    async cancelledAmong(ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM jobs WHERE id = ANY($1::uuid[]) AND status IN ('PENDING', 'PROCESSING')`,
        [ids],
      );
      const running = new Set(rows.map((r) => r.id));
      return ids.filter((id) => !running.has(id));
    },

    async insertUpload(fileKey: string, userId: string, filename: string, sizeBytes: number): Promise<void> {
      await db.query('INSERT INTO uploaded_files (file_key, user_id, filename, size_bytes) VALUES ($1, $2, $3, $4)', [
        fileKey,
        userId,
        filename,
        sizeBytes,
      ]);
    },

    /** A job of the user that was made from this upload, if any. */
    async jobUsingUpload(fileKey: string): Promise<{ id: string; title: string } | null> {
      const { rows } = await db.query<{ id: string; title: string }>(
        'SELECT id, title FROM jobs WHERE input_file_key = $1 ORDER BY created_at LIMIT 1',
        [fileKey],
      );
      return rows[0] ?? null;
    },

    async deleteUpload(fileKey: string): Promise<void> {
      await db.query('DELETE FROM uploaded_files WHERE file_key = $1', [fileKey]);
    },

    async uploadOwner(fileKey: string): Promise<string | null> {
      const { rows } = await db.query<{ user_id: string }>('SELECT user_id FROM uploaded_files WHERE file_key = $1', [fileKey]);
      return rows[0]?.user_id ?? null;
    },
  };
}

export type JobRepository = ReturnType<typeof createJobRepository>;
