/**
 * A job row read as a book (`toBook`): the one place that decodes a job's config and result_data
 * for readers. Private to the jobs module: its repository builds the `Book` of server/books with
 * it, and everyone else reads books through server/books.
 */
import { parseAnalysis, type Book, type RecordedChapter } from '../books/book';
import { isActive, type JobRecord, type ResultData } from './types';

const nonNegative = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;

const text = (value: string | null | undefined): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

function recordedChapters(result: ResultData): RecordedChapter[] {
  return (result.chapters ?? [])
    .map((c, index) => {
      const order = Number.isInteger(c.order) ? c.order : index + 1;
      return {
        title: text(c.title) ?? `Chapter ${order}`,
        order,
        duration: nonNegative(c.duration),
        fileKey: text(c.file_key),
        jobId: text(c.job_id),
      };
    })
    .sort((a, b) => a.order - b.order);
}

function openingOf(job: JobRecord): Book['opening'] {
  const opening = job.config.opening;
  if (!isActive(job.status) || opening === null || opening === undefined) return null;
  const durationSeconds = nonNegative(opening.duration);
  const fileKey = text(opening.file_key);
  return fileKey === null || durationSeconds === null ? null : { fileKey, durationSeconds };
}

/**
 * The read model of a job record; `chaptersReady` (and, for a book, whether one of its converting
 * chapters has its opening ready) are counted by the repository with the row.
 */
export function toBook(job: JobRecord, chaptersReady = 0, openingReady = false): Book {
  const result = job.resultData;
  const provider = job.config.voice_config?.provider ?? job.config.provider;
  const size = nonNegative(result.file_size_bytes);
  return {
    id: job.id,
    userId: job.userId,
    parentJobId: job.parentJobId,
    chapterOrder: job.chapterOrder,
    jobType: job.jobType,
    title: job.title,
    description: job.description,
    status: job.status,
    provider: provider === 'openai' || provider === 'elevenlabs' ? provider : null,
    outputFileKey: job.outputFileKey,
    inputFileKey: job.inputFileKey,
    chaptersReady,
    opening: openingOf(job),
    openingReady,
    chapterTitle: text(job.config.chapter_title),
    author: text(job.config.author),
    cover:
      job.config.cover_key === undefined
        ? null
        : { key: job.config.cover_key, contentType: job.config.cover_type ?? 'application/octet-stream' },
    durationSeconds: nonNegative(job.duration) ?? nonNegative(result.duration) ?? nonNegative(result.duration_seconds),
    sourceBytes: nonNegative(job.config.source_bytes),
    fileSizeBytes: size === null ? null : Math.round(size),
    format: text(result.format),
    ttsEngine: text(result.tts_engine),
    chapters: recordedChapters(result),
    analysis: parseAnalysis(job.config.tutoring_analysis),
    createdAt: job.createdAt,
    completedAt: job.completedAt,
  };
}
