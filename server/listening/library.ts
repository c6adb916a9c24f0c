import type { DbExecutor } from '../db/types';

/** A chapter as the pipeline records it in a job's result_data. */
export interface ResultChapter {
  title: string;
  order: number;
  duration: number | null;
  fileKey: string | null;
  jobId: string | null;
}

/** A job as the listening side sees it: read-only, written by the pipeline. */
export interface ListenableJob {
  id: string;
  userId: string;
  parentJobId: string | null;
  chapterOrder: number | null;
  jobType: string;
  title: string;
  status: string;
  provider: 'openai' | 'elevenlabs' | null;
  outputFileKey: string | null;
  /** The text the conversion read (its timing map's character offsets point into it). */
  inputFileKey: string | null;
  /** For a book: its chapter jobs that are COMPLETED (playable while the rest converts). */
  chaptersReady: number;
  /** A chapter job's own title (its `title` is prefixed with the book's). */
  chapterTitle: string | null;
  /** From the book's file (EPUB, ...), when it names one. */
  author: string | null;
  /** The cover supplied with the input, when there was one. */
  cover: { key: string; contentType: string } | null;
  /** Seconds of audio, when known (the column, else result_data). */
  durationSeconds: number | null;
  fileSizeBytes: number | null;
  format: string | null;
  ttsEngine: string | null;
  chapters: ResultChapter[];
  createdAt: Date;
  completedAt: Date | null;
}

export interface JobLibrary {
  /** The job if it exists and belongs to the user; null otherwise (the two are indistinguishable). */
  findOwned(userId: string, jobId: string): Promise<ListenableJob | null>;
  /** A book's chapter jobs in chapter order. */
  children(userId: string, parentJobId: string): Promise<ListenableJob[]>;
}

interface JobRow {
  id: string;
  user_id: string;
  parent_job_id: string | null;
  chapter_order: number | null;
  job_type: string;
  title: string;
  status: string;
  config: unknown;
  result_data: unknown;
  output_file_key: string | null;
  input_file_key: string | null;
  duration: number | null;
  chapters_ready: number | string;
  created_at: Date | string;
  completed_at: Date | string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COLUMNS = `id, user_id, parent_job_id, chapter_order, job_type, title, status, config, result_data,
  output_file_key, input_file_key, duration, created_at, completed_at,
  (SELECT count(*) FROM jobs c WHERE c.parent_job_id = jobs.id AND c.status = 'COMPLETED') AS chapters_ready`;

const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

function record(value: unknown): Record<string, unknown> {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

function positiveNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function providerOf(config: Record<string, unknown>): 'openai' | 'elevenlabs' | null {
  const voice = record(config.voice_config);
  const provider = voice.provider ?? config.provider;
  return provider === 'openai' || provider === 'elevenlabs' ? provider : null;
}

function chaptersOf(result: Record<string, unknown>): ResultChapter[] {
  if (!Array.isArray(result.chapters)) return [];
  return result.chapters
    .map((raw: unknown, index) => {
      const c = record(raw);
      return {
        title: text(c.title) ?? `Chapter ${index + 1}`,
        order: typeof c.order === 'number' && Number.isInteger(c.order) ? c.order : index + 1,
        duration: positiveNumber(c.duration),
        fileKey: text(c.file_key),
        jobId: text(c.job_id),
      };
    })
    .sort((a, b) => a.order - b.order);
}

function toJob(row: JobRow): ListenableJob {
  const config = record(row.config);
  const result = record(row.result_data);
  const size = positiveNumber(result.file_size_bytes);
  return {
    id: row.id,
    userId: row.user_id,
    parentJobId: row.parent_job_id,
    chapterOrder: row.chapter_order,
    jobType: row.job_type,
    title: row.title,
    status: row.status,
    provider: providerOf(config),
    outputFileKey: row.output_file_key,
    inputFileKey: row.input_file_key,
    chaptersReady: Number(row.chapters_ready),
    chapterTitle: text(config.chapter_title),
    author: text(config.author),
    cover: text(config.cover_key) === null ? null : { key: String(config.cover_key), contentType: text(config.cover_type) ?? 'application/octet-stream' },
    durationSeconds:
      positiveNumber(row.duration === null ? null : Number(row.duration)) ??
      positiveNumber(result.duration) ??
      positiveNumber(result.duration_seconds),
    fileSizeBytes: size === null ? null : Math.round(size),
    format: text(result.format),
    ttsEngine: text(result.tts_engine),
    chapters: chaptersOf(result),
    createdAt: asDate(row.created_at),
    completedAt: row.completed_at === null ? null : asDate(row.completed_at),
  };
}

export function createJobLibrary(db: DbExecutor): JobLibrary {
  return {
    async findOwned(userId, jobId) {
      if (!UUID.test(jobId)) return null;
      const { rows } = await db.query<JobRow>(`SELECT ${COLUMNS} FROM jobs WHERE id = $1 AND user_id = $2`, [jobId, userId]);
      return rows[0] ? toJob(rows[0]) : null;
    },
    async children(userId, parentJobId) {
      const { rows } = await db.query<JobRow>(
        `SELECT ${COLUMNS} FROM jobs WHERE parent_job_id = $1 AND user_id = $2 ORDER BY chapter_order NULLS LAST, created_at`,
        [parentJobId, userId],
      );
      return rows.map(toJob);
    },
  };
}
