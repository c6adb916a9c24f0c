/**
 * The read model of the jobs tables: rows as the database answers them (PGlite and node-postgres
 * differ in how they hand back timestamps, JSON and bigints) decoded into the typed records the
 * rest of the server uses. Nothing outside server/jobs/repository sees a row.
 */
import {
  resultDataSchema,
  type JobConfig,
  type JobRecord,
  type JobStatus,
  type JobType,
  type ResultData,
  type StepName,
  type StepRecord,
  type StepStatus,
} from '../types';

/** A row whose stored JSON is not what the pipeline writes: a bug or a hand edit, never user input. */
export class MalformedJobRowError extends Error {
  constructor(jobId: string, column: string, problem: string) {
    super(`Job ${jobId} has a malformed ${column}: ${problem}`);
    this.name = 'MalformedJobRowError';
  }
}

type Json = Record<string, unknown> | string;

function jsonObject(jobId: string, column: string, value: Json | null): Record<string, unknown> {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new MalformedJobRowError(jobId, column, 'not JSON');
    }
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw new MalformedJobRowError(jobId, column, 'not a JSON object');
  return parsed as Record<string, unknown>;
}

/** Decodes jobs.result_data; throws MalformedJobRowError naming the job and the bad field. */
export function decodeResultData(jobId: string, value: Json | null): ResultData {
  const parsed = resultDataSchema.safeParse(jsonObject(jobId, 'result_data', value));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new MalformedJobRowError(jobId, 'result_data', problems);
  }
  return parsed.data;
}

/** jobs.config is written only by the jobs module (JobConfig); it is checked to be an object. */
function decodeConfig(jobId: string, value: Json | null): JobConfig {
  return jsonObject(jobId, 'config', value) as JobConfig;
}

export interface JobRow {
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
  config: Json;
  result_data: Json;
  input_file_key: string | null;
  output_file_key: string | null;
  duration: number | null;
  created_at: Date | string;
  updated_at: Date | string;
  started_at: Date | string | null;
  completed_at: Date | string | null;
}

export interface StepRow {
  id: string;
  job_id: string;
  step_name: string;
  step_order: number;
  status: StepStatus;
  progress: number;
  error_message: string | null;
  step_metadata: Json;
  attempts: number;
  created_at: Date | string;
  updated_at: Date | string;
  started_at: Date | string | null;
  completed_at: Date | string | null;
}

export const JOB_COLUMNS = `id, user_id, parent_job_id, chapter_order, job_type, title, description, status, progress,
  error_message, config, result_data, input_file_key, output_file_key, duration, created_at, updated_at,
  started_at, completed_at`;

export const STEP_COLUMNS = `id, job_id, step_name, step_order, status, progress, error_message, step_metadata, attempts,
  created_at, updated_at, started_at, completed_at`;

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
    config: decodeConfig(row.id, row.config),
    resultData: decodeResultData(row.id, row.result_data),
    inputFileKey: row.input_file_key,
    outputFileKey: row.output_file_key,
    duration: row.duration === null ? null : Number(row.duration),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    startedAt: dateOrNull(row.started_at),
    completedAt: dateOrNull(row.completed_at),
  };
}

export function toStep(row: StepRow): StepRecord {
  return {
    id: row.id,
    jobId: row.job_id,
    stepName: row.step_name as StepName,
    stepOrder: row.step_order,
    status: row.status,
    progress: Number(row.progress),
    errorMessage: row.error_message,
    metadata: json(row.step_metadata) as Record<string, unknown>,
    attempts: row.attempts,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    startedAt: dateOrNull(row.started_at),
    completedAt: dateOrNull(row.completed_at),
  };
}

/** One row of the list: only what the summary shows, with JSON picked apart by the database. */
export interface SummaryRow extends Omit<JobRow, 'config' | 'result_data'> {
  /** Still waiting its turn in the fair queue (top-level, PENDING, not handed to the workers). */
  waiting?: boolean;
  voice_config: JobConfig['voice_config'] | string | null;
  provider: JobConfig['provider'] | null;
  author: string | null;
  r_duration: number | null;
  r_duration_seconds: number | null;
  r_file_size_bytes: number | string | null;
  r_tts_engine: string | null;
  chapter_count: number | string;
  chapters_ready: number | string;
  /** It can be played now (sql.ts `listenable`). */
  listenable: boolean;
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
      ...(row.author !== null && row.author !== '' && { author: row.author }),
    },
    result_data: {
      ...(duration !== undefined && { duration }),
      ...(durationSeconds !== undefined && { duration_seconds: durationSeconds }),
      ...(size !== undefined && { file_size_bytes: size }),
      ...(row.r_tts_engine !== null && row.r_tts_engine !== '' && { tts_engine: row.r_tts_engine }),
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
    listenable: row.listenable === true,
  };
}

export type JobSummaryView = ReturnType<typeof toSummary>;

/** Rows one multi-row insert writes at most (a book's chapters and their steps). */
export const MANY_ROWS = 500;
