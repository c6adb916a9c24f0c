import type { TutoringAnalysis } from '../analysis/tutoring';
import type { ResultData } from './repository/rows';

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
}

/** jobs.config. Keys outside the contract (source_url aside) are internal and not answered. */
export interface JobConfig {
  voice_config?: VoiceConfig;
  provider?: Provider;
  source?: SourceKind;
  source_url?: string;
  tutoring_analysis?: TutoringAnalysis;
  /** Internal: the title was the URL itself, so the page's title replaces it. */
  title_from_page?: boolean;
  /** Internal: job_type was given by the client (no automatic text/book decision). */
  job_type_requested?: JobType;
  /** The book's author, from the uploaded file's metadata. */
  author?: string;
  /** A chapter job's own title (its job title is prefixed with the book's). */
  chapter_title?: string;
  /** Internal: the chapters chosen at creation (offsets into the job's source text). */
  chapter_plan?: { title: string; start: number; end: number }[];
  /** Internal: the book's cover image in storage, and its content type. */
  cover_key?: string;
  cover_type?: string;
  /** Internal: bytes of the job's own stored text (counted in the owner's storage quota). */
  source_bytes?: number;
}

/** jobs.result_data: declared (and decoded) by the repository's zod schema. */
export type { ResultData } from './repository/rows';
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

/** Steps of a text job (top level): split_chapters may turn it into a book (BOOK_TAIL replaces the rest). */
export const TEXT_STEPS = ['acquire_content', 'analyze', 'split_chapters', 'synthesize', 'finalize'] as const;
/** Steps of a book after split_chapters. */
export const BOOK_TAIL = ['synthesize_chapters', 'combine_audio', 'finalize'] as const;
export const BOOK_STEPS = ['acquire_content', 'analyze', 'split_chapters', ...BOOK_TAIL] as const;
/** Steps of a chapter job: its text is already stored by the book. */
export const CHAPTER_STEPS = ['acquire_content', 'synthesize', 'finalize'] as const;
export type StepName = (typeof TEXT_STEPS)[number] | (typeof BOOK_STEPS)[number];
