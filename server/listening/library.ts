import type { JobRepository } from '../jobs/repository';
import type { JobRecord, ResultData } from '../jobs/types';

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
  /** Bytes of the text the job reads (a chapter's own text): how long it will speak, before it has. */
  sourceBytes: number | null;
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
  /** The titles of those of `jobIds` that are the user's. */
  titles(userId: string, jobIds: string[]): Promise<Map<string, string>>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function positiveNumber(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

const text = (value: string | null | undefined): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

function chaptersOf(result: ResultData): ResultChapter[] {
  return (result.chapters ?? [])
    .map((c, index) => ({
      title: text(c.title) ?? `Chapter ${index + 1}`,
      order: Number.isInteger(c.order) ? c.order : index + 1,
      duration: positiveNumber(c.duration),
      fileKey: text(c.file_key),
      jobId: text(c.job_id),
    }))
    .sort((a, b) => a.order - b.order);
}

/** The listening side's view of a job record (read through the jobs repository, the tables' owner). */
function toListenable(job: JobRecord, chaptersReady = 0): ListenableJob {
  const result = job.resultData;
  const provider = job.config.voice_config?.provider ?? job.config.provider;
  const size = positiveNumber(result.file_size_bytes);
  return {
    id: job.id,
    userId: job.userId,
    parentJobId: job.parentJobId,
    chapterOrder: job.chapterOrder,
    jobType: job.jobType,
    title: job.title,
    status: job.status,
    provider: provider === 'openai' || provider === 'elevenlabs' ? provider : null,
    outputFileKey: job.outputFileKey,
    inputFileKey: job.inputFileKey,
    chaptersReady,
    chapterTitle: text(job.config.chapter_title),
    author: text(job.config.author),
    cover:
      job.config.cover_key === undefined
        ? null
        : { key: job.config.cover_key, contentType: job.config.cover_type ?? 'application/octet-stream' },
    durationSeconds:
      positiveNumber(job.duration) ?? positiveNumber(result.duration) ?? positiveNumber(result.duration_seconds),
    sourceBytes: positiveNumber(job.config.source_bytes),
    fileSizeBytes: size === null ? null : Math.round(size),
    format: text(result.format),
    ttsEngine: text(result.tts_engine),
    chapters: chaptersOf(result),
    createdAt: job.createdAt,
    completedAt: job.completedAt,
  };
}

export function createJobLibrary(jobs: Pick<JobRepository, 'getForUser' | 'childrenForUser' | 'byIds'>): JobLibrary {
  return {
    async findOwned(userId, jobId) {
      if (!UUID.test(jobId)) return null;
      const job = await jobs.getForUser(jobId, userId);
      if (job === null) return null;
      // A book's finished chapters are playable while the rest converts.
      const ready =
        job.jobType === 'book_processing'
          ? (await jobs.childrenForUser(job.id, userId)).filter((c) => c.status === 'COMPLETED').length
          : 0;
      return toListenable(job, ready);
    },
    async children(userId, parentJobId) {
      return (await jobs.childrenForUser(parentJobId, userId)).map(toListenable);
    },
    async titles(userId, jobIds) {
      const found = await jobs.byIds(jobIds.filter((id) => UUID.test(id)));
      return new Map(found.filter((j) => j.userId === userId).map((j) => [j.id, j.title]));
    },
  };
}
