import * as z from 'zod';
import type { TutoringAnalysis } from '../analysis/tutoring';

/** The job model of the conversion engine, as stored and as answered (the contract's Job; docs/product.md#job-statuses). */

export type JobStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
export type StepStatus = 'pending' | 'running' | 'completed' | 'failed';
export type JobType = 'text_to_audio' | 'book_processing';
export type Provider = 'openai' | 'elevenlabs' | 'offline' | 'openai_compatible';
export type SourceKind = 'content' | 'file' | 'url';

export function isActive(status: JobStatus): boolean {
  return status === 'PENDING' || status === 'PROCESSING';
}

export interface VoiceConfig {
  provider: Provider;
  voice_id?: string;
  voice_settings?: Record<string, string>;
  /** Full cast: each character who speaks reads in a voice of their own (server/cast); absent when off. */
  cast?: true;
  /** With `cast`: the voices the listener chose for characters of the preview's cast, by character id. */
  cast_voices?: Record<string, string>;
}

/** A piece of a job's stored text: `text.slice(start, end)` (UTF-16 offsets), with its title. */
export interface PlannedSection {
  title: string;
  start: number;
  end: number;
}

/**
 * What a top-level job converts, decided once when its text is first known (at creation; for a web
 * page, when acquire_content has read it): one text, or a book of these chapters, each becoming a
 * chapter job. The steps only carry it out.
 */
export type JobPlan = { kind: 'text' } | { kind: 'book'; chapters: PlannedSection[] };

/** jobs.config. Keys outside the contract (source_url aside) are internal and not answered. */
export interface JobConfig {
  voice_config?: VoiceConfig;
  provider?: Provider;
  source?: SourceKind;
  source_url?: string;
  tutoring_analysis?: TutoringAnalysis;
  /** Internal: the title was the URL itself, so the page's title replaces it. */
  title_from_page?: boolean;
  /** Internal: job_type as the client gave it (a web page's plan is decided once its text is read). */
  job_type_requested?: JobType;
  /** The book's author, from the uploaded file's metadata. */
  author?: string;
  /** A chapter job's own title (its job title is prefixed with the book's). */
  chapter_title?: string;
  /** Internal: what the job converts, decided once when its text is first known (server/jobs/plan.ts). */
  plan?: JobPlan;
  /** Internal, rows written before `plan`: a book's chapters chosen at creation. Read as a book plan. */
  chapter_plan?: PlannedSection[];
  /** Internal, on chapter jobs: where the chapter starts in its book's text (its timing map shifts by it). */
  char_offset?: number;
  /** Internal: the book's cover image in storage, and its content type. */
  cover_key?: string;
  cover_type?: string;
  /** Internal: bytes of the job's own stored text (counted in the owner's storage quota). */
  source_bytes?: number;
  /** Internal: bytes of the job's own cover (`cover_key`), counted in the owner's storage quota. */
  cover_bytes?: number;
  /**
   * Internal: bytes of the covers made of a finished book and kept beside it (the JPEG of
   * downloads, tags and feeds; the drawn SVG of a book without a cover), counted likewise.
   */
  cover_jpeg_bytes?: number;
  cover_svg_bytes?: number;
  /**
   * Internal, on a book's first chapter while it converts: its opening (its first minutes,
   * converted first and playable before the chapter is: docs/listening.md#the-opening-of-the-first-chapter);
   * null once a failed attempt took it away.
   */
  opening?: ChapterOpening | null;
}

/** A chapter's opening: its own MP3 in storage and its seconds. */
export interface ChapterOpening {
  file_key: string;
  duration: number;
}

/**
 * jobs.result_data, written by the finalize step (and by nothing else): what the conversion
 * produced. Keys the pipeline may add later pass through unchanged (the API answers them).
 */
const chapterResultSchema = z.looseObject({
  title: z.string(),
  /** 1-based position in the book. */
  order: z.number(),
  /** Seconds of this chapter's audio. */
  duration: z.number(),
  /** The chapter's own MP3 (its chapter job's output; empty when it has none). */
  file_key: z.string(),
  /** The chapter job's id. */
  job_id: z.string().optional(),
});

export const resultDataSchema = z.looseObject({
  /** Seconds of audio (duration and duration_seconds are equal; both are in the contract). */
  duration: z.number().optional(),
  duration_seconds: z.number().optional(),
  file_size_bytes: z.number().optional(),
  format: z.string().optional(),
  /** The engine that spoke the text: espeak-ng, openai or elevenlabs. */
  tts_engine: z.string().optional(),
  /** Internal (not answered): the MP3 and its sentence timing map in storage. */
  output_file_key: z.string().optional(),
  timing_file_key: z.string().optional(),
  /** Books: their chapters in order, and the chapter jobs' ids. */
  chapters: z.array(chapterResultSchema).optional(),
  child_job_ids: z.array(z.string()).optional(),
});

export type ResultData = z.infer<typeof resultDataSchema>;

export interface JobRecord {
  id: string;
  userId: string;
  parentJobId: string | null;
  chapterOrder: number | null;
  jobType: JobType;
  title: string;
  description: string | null;
  status: JobStatus;
  progress: number;
  errorMessage: string | null;
  config: JobConfig;
  resultData: ResultData;
  inputFileKey: string | null;
  outputFileKey: string | null;
  duration: number | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
}

export interface StepRecord {
  id: string;
  jobId: string;
  stepName: StepName;
  stepOrder: number;
  status: StepStatus;
  progress: number;
  errorMessage: string | null;
  metadata: Record<string, unknown>;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
}

/**
 * Steps of a text job (top level). A web page found to be a book swaps its tail for BOOK_TAIL when
 * it is read. The tutoring analysis runs beside the synthesis (started by synthesize, kept by the
 * time analyze comes), so its one core of work no longer keeps the voice waiting
 * (docs/adr/0050-a-texts-analysis-runs-beside-its-synthesis.md).
 */
export const TEXT_STEPS = ['acquire_content', 'split_chapters', 'synthesize', 'analyze', 'finalize'] as const;
/**
 * Steps of a book after acquire_content. split_chapters creates its chapter jobs and hands the
 * first to the queue at once; the tutoring analysis waits until every chapter is converted, so it
 * neither delays the first playable chapter nor adds its memory to the synthesis's
 * (docs/adr/0048-a-books-analysis-runs-after-its-chapters.md).
 */
export const BOOK_TAIL = ['split_chapters', 'synthesize_chapters', 'analyze', 'combine_audio', 'finalize'] as const;
export const BOOK_STEPS = ['acquire_content', ...BOOK_TAIL] as const;
/** Steps of a chapter job: its text is already stored by the book. */
export const CHAPTER_STEPS = ['acquire_content', 'synthesize', 'finalize'] as const;
export type StepName = (typeof TEXT_STEPS)[number] | (typeof BOOK_STEPS)[number];
