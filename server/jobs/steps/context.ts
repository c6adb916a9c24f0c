/**
 * What every step shares: what it is given (the job, its abort signal, a progress report) and
 * answers, the dependencies the steps are made with, the failure retrying cannot fix, reading the
 * job's stored text, and keeping a plan or an analysis once it is decided.
 */
import { analyseInWorker } from '../../analysis/run';
import type { TutoringAnalysis } from '../../analysis/tutoring';
import type { EncoderPool } from '../../audio/encoder-pool';
import { readWhole } from '../../books/read';
import { DomainError, type DomainErrorKind } from '../../errors';
import type { Pronunciation } from '../../pronunciations/rules';
import type { FileStorage } from '../../storage/types';
import type { VoiceSettings } from '../../tts/select';
import { jobPlan, planSourceOffThread } from '../plan';
import type { Quotas } from '../quotas';
import type { JobRepository } from '../repository';
import type { ChapterVoices } from '../cast-pieces';
import { isSourceKey } from '../storage-keys';
import { BOOK_STEPS, BOOK_TAIL, type JobPlan, type JobRecord, type StepRecord } from '../types';
import type { FetchSlots } from './acquire-page';

/** A failure of a step that retrying cannot fix; its message is shown to the user as is. */
export class PipelineError extends DomainError {
  constructor(message: string, kind: DomainErrorKind = 'invalid') {
    super(kind, message, { retryable: false });
    this.name = 'PipelineError';
  }
}

export interface StepContext {
  job: JobRecord;
  signal: AbortSignal;
  /** Reports progress within the step (0-1); throttled, cheap to call often. */
  report(fraction: number): Promise<void>;
}

export interface StepOutcome {
  metadata?: Record<string, unknown>;
  /** The step is not finished but has nothing to do now (a book waiting for its chapters). */
  wait?: boolean;
}

export type ChapterState = { state: 'done' } | { state: 'failed'; message: string } | { state: 'waiting' };

export interface StepDeps {
  repo: JobRepository;
  storage: FileStorage;
  voices: VoiceSettings;
  /** Each user's pronunciations, applied to the text before any voice reads it. */
  pronunciations: { forUser(userId: string): Promise<Pronunciation[]> };
  encoderPool?: EncoderPool | undefined;
  allowLoopbackFetch: boolean;
  fetchTimeoutMs: number;
  /** Web-page downloads run in a few slots of their own (URL_FETCH_CONCURRENCY). */
  fetchSlots: FetchSlots;
  /** The storage quota: a web page's text and audio are reserved once it is read (./acquire-page.ts). */
  quotas: Pick<Quotas, 'keepWithin'>;
  /** Gives the job's worker slot back: the job runs again from the queue in `seconds`. */
  runLater(jobId: string, seconds: number): Promise<void>;
  /** Hands chapters to the queue (books only). */
  scheduleChapters(parentId: string): Promise<ChapterState>;
  /** A full-cast book's cast: decided by split_chapters, read by synthesize (server/cast/service.ts). */
  cast?: CastSteps | undefined;
}

/** What the steps ask of a full-cast job's cast (server/cast/service.ts answers it). */
export interface CastSteps {
  /** Decides the cast of a job's chapters (in reading order; a text is one); nothing for a job without one. */
  plan(job: JobRecord, chapterTexts: readonly string[]): Promise<void>;
  /** The voices of a chapter (or a text) of a cast book; null for a job without a cast. */
  chapterCast(job: JobRecord): Promise<ChapterVoices | null>;
}

/** One step: idempotent, so run again after a crash it redoes its work from the start. */
export type Step = (deps: StepDeps, ctx: StepContext) => Promise<StepOutcome>;

export async function readText(storage: FileStorage, key: string): Promise<string> {
  return Buffer.from((await readBytes(storage, key)).buffer).toString('utf8');
}

/** A stored file's bytes in one array that owns its memory (so it can be handed to a thread). */
async function readBytes(storage: FileStorage, key: string): Promise<Uint8Array> {
  try {
    return await readWhole(storage, key);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new MissingFileError(key);
    throw error;
  }
}

/** A stored file is gone; retryable (storage may be catching up), with a message that leaks no paths. */
class MissingFileError extends DomainError {
  constructor(key: string) {
    super('not_found', isSourceKey(key) ? 'The text of this job is missing from storage' : 'A stored file is missing', {
      retryable: true,
    });
    this.name = 'MissingFileError';
  }
}

export async function jobText({ storage }: Pick<StepDeps, 'storage'>, job: JobRecord): Promise<string> {
  if (job.inputFileKey === null) throw new PipelineError('The job has no text yet');
  return readText(storage, job.inputFileKey);
}

export function stepMeta(steps: StepRecord[], name: string): Record<string, unknown> {
  return steps.find((s) => s.stepName === name)?.metadata ?? {};
}

/** Keeps a plan just decided; a book's tail of steps replaces a text's. */
export async function storePlan({ repo }: Pick<StepDeps, 'repo'>, job: JobRecord, plan: JobPlan): Promise<void> {
  await repo.keepPlan(job.id, plan, BOOK_TAIL, BOOK_STEPS.indexOf(BOOK_TAIL[0]) + 1);
}

/**
 * Decides the plan of a job whose text has just become known (a web page, read by
 * acquire_content; or a job queued by a version that planned in split_chapters) and keeps it.
 */
export async function keepPlan(deps: Pick<StepDeps, 'repo'>, job: JobRecord, text: string): Promise<JobPlan> {
  const plan = jobPlan(await planSourceOffThread(text, job.title, null, job.config.job_type_requested));
  await storePlan(deps, job, plan);
  return plan;
}

/** The tutoring analysis of the job's text, in its own thread, kept in the job's config. */
export async function analyseAndKeep(
  { repo, storage }: Pick<StepDeps, 'repo' | 'storage'>,
  job: JobRecord,
  signal: AbortSignal,
): Promise<TutoringAnalysis> {
  if (job.inputFileKey === null) throw new PipelineError('The job has no text yet');
  // The bytes go to the analysis thread as they are: this thread never decodes a long book.
  const analysis = await analyseInWorker(await readBytes(storage, job.inputFileKey), signal);
  await repo.jobs.mergeConfig(job.id, { tutoring_analysis: analysis });
  return analysis;
}
