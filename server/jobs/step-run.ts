/**
 * One step of a job, run by the runner (./runner.ts): marked running, given its signal (the job's,
 * and JOB_STEP_TIMEOUT_SECONDS), its progress reported into the step and the job's bar, and its
 * own failures retried within the one retry policy's budget per step (server/retry-policy.ts:
 * attempts and total time, growing delay, Retry-After honoured, each retry logged with its cause)
 * when they can succeed on a later try and were not already retried by the voice client. A step
 * that finally fails records its last cause and throws StepFailed; a store or a database that is
 * down is thrown as it is, for the runner to wait for it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors';
import { DomainError } from '../errors';
import { nextRetryDelay, type RetryBudget } from '../retry-policy';
import { isDiskFull, isStorageUnavailable } from '../storage/types';
import { TtsError } from '../tts/types';
import type { JobRepository } from './repository';
import type { createSteps } from './steps';
import type { JobRecord, StepRecord } from './types';

/** Shortest time between two progress writes of one step. */
const PROGRESS_INTERVAL_MS = 1000;

export type JobEvent =
  | { kind: 'handed_back'; jobId: string }
  | { kind: 'taken_over'; jobId: string }
  | {
      kind: 'step_completed';
      jobId: string;
      step: string;
      provider: string;
      wallSeconds: number;
      metadata: Record<string, unknown>;
    }
  | { kind: 'step_failed'; jobId: string; step: string; provider: string; error: unknown };

function providerOf(job: JobRecord): string {
  return String(job.config.voice_config?.provider ?? job.config.provider ?? 'openai');
}

/** The steps a book runs before its chapters: its progress bar moves with them as a text's does. */
const BOOK_LEAD = new Set(['acquire_content', 'split_chapters']);

/** Where the job's progress bar stands when a step ends (a book's, after BOOK_LEAD, rolls up its chapters). */
const PROGRESS_AFTER: Record<string, number> = {
  acquire_content: 3,
  split_chapters: 8,
  synthesize: 98,
  analyze: 99,
  combine_audio: 99,
  finalize: 100,
};

export class StepFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StepFailed';
  }
}

/**
 * Whether a step that threw `error` is tried again: a domain error says so itself (`retryable`,
 * by kind unless it decides otherwise: a page that timed out, a voice provider's 5xx, a file
 * not yet visible); anything unexpected (a dropped connection) may pass on a later try.
 */
function isRetryable(error: unknown): boolean {
  if (isDiskFull(error)) return false; // not within seconds: once space is freed, the reader retries
  // A voice provider's request was already retried within this step's budget by the voice client.
  if (error instanceof TtsError && error.attempts !== undefined) return false;
  if (error instanceof DomainError) return error.retryable;
  return !(error instanceof StepFailed);
}

/** What a job that failed on a full disk says; nothing it half-wrote is kept. */
export const DISK_FULL_MESSAGE =
  "The server's storage was full, so the audio could not be stored. Retry the job once space has been freed";

/**
 * What a job that failed on a fault of Lectio's own says: anything but a domain error (a bug, a
 * library's message, a file path, a regular expression) is for the operator's log, not the reader.
 */
export const INTERNAL_FAILURE_MESSAGE =
  'Lectio ran into a problem of its own while converting this (not a problem with your text). Retry the job; if it fails again, the operator will find the details in the server log';

/** What the reader is told of a failure: a domain error's own words (written for readers), or a plain summary. */
export function userMessage(error: unknown): string {
  if (isDiskFull(error)) return DISK_FULL_MESSAGE;
  if (error instanceof DomainError && error.message) return error.message;
  return INTERNAL_FAILURE_MESSAGE;
}

export interface StepRunDeps {
  repo: JobRepository;
  steps: ReturnType<typeof createSteps>;
  /** Attempts and time a step's own failures may take (options of the runner over RETRY_BUDGET). */
  budget: RetryBudget;
  stepTimeoutSeconds: number;
  log?: FastifyBaseLogger | undefined;
  onJobEvent?: ((event: JobEvent) => void) | undefined;
}

/** Runs `step` of `job` to its end: `wait` when the step waits for something else (a book for its chapters). */
export function createStepRun(deps: StepRunDeps) {
  const { repo, steps, budget } = deps;

  return async function runStep(job: JobRecord, step: StepRecord, jobSignal: AbortSignal): Promise<{ wait: boolean }> {
    const impl = steps[step.stepName];
    if (impl === undefined) throw new StepFailed(`Unknown step ${step.stepName}`);
    const firstAttempt = Date.now();
    for (let attempt = 1; ; attempt += 1) {
      // A job stopped meanwhile (a worker shutting down, a cancel) starts no step: the next
      // worker runs it from the start.
      jobSignal.throwIfAborted();
      await repo.steps.update(job.id, step.stepName, {
        status: 'running',
        start: true,
        countAttempt: true,
        errorMessage: null,
      });
      const timeout = AbortSignal.timeout(deps.stepTimeoutSeconds * 1000);
      const signal = AbortSignal.any([jobSignal, timeout]);
      let lastReport = 0;
      let lastFraction = 0;
      const isChapter = job.parentJobId !== null;
      const report = async (fraction: number) => {
        const now = Date.now();
        // A write or three per report: at most one a second (and only for a 1 % step), so a fast
        // conversion does not spend its time on progress bars nobody polls that often.
        if (fraction < 1 && (now - lastReport < PROGRESS_INTERVAL_MS || fraction - lastFraction < 0.01)) return;
        lastReport = now;
        lastFraction = fraction;
        await repo.steps.update(job.id, step.stepName, { progress: fraction * 100 });
        if (step.stepName === 'synthesize') {
          const base = isChapter ? 2 : 8;
          await repo.jobs.raiseProgress(job.id, base + (98 - base) * fraction);
          if (job.parentJobId !== null) await repo.jobs.raiseToChapterMean(job.parentJobId);
        }
      };
      const stepStarted = Date.now();
      try {
        const outcome = await impl({ job, signal, report });
        if (outcome.wait) return { wait: true };
        deps.onJobEvent?.({
          kind: 'step_completed',
          jobId: job.id,
          step: step.stepName,
          provider: providerOf(job),
          wallSeconds: (Date.now() - stepStarted) / 1000,
          metadata: outcome.metadata ?? {},
        });
        await repo.steps.update(job.id, step.stepName, {
          status: 'completed',
          progress: 100,
          complete: true,
          ...(outcome.metadata !== undefined && { metadata: outcome.metadata }),
        });
        const after = PROGRESS_AFTER[step.stepName];
        // A book moves with its first steps, like a text, then rolls up its chapters' progress.
        const rollsUp = job.jobType === 'book_processing' && !BOOK_LEAD.has(step.stepName);
        if (after !== undefined && !rollsUp && step.stepName !== 'finalize') {
          await repo.jobs.raiseProgress(job.id, isChapter && step.stepName === 'acquire_content' ? 2 : after);
        }
        return { wait: false };
      } catch (error) {
        if (jobSignal.aborted) throw error;
        // Nothing is wrong with the step: the runner waits for the database and runs it again.
        if (isDatabaseUnavailable(error)) throw error;
        deps.onJobEvent?.({
          kind: 'step_failed',
          jobId: job.id,
          step: step.stepName,
          provider: providerOf(job),
          error,
        });
        const message = timeout.aborted
          ? `The ${step.stepName.replace('_', ' ')} step took longer than ${deps.stepTimeoutSeconds} seconds`
          : userMessage(error);
        const hintMs =
          error instanceof DomainError && error.retryAfterSeconds !== undefined
            ? error.retryAfterSeconds * 1000
            : undefined;
        const wait =
          !timeout.aborted && isRetryable(error)
            ? nextRetryDelay(budget, attempt, Date.now() - firstAttempt, hintMs)
            : null;
        const logged = { jobId: job.id, step: step.stepName, attempt, attempts: budget.attempts, cause: message };
        if (wait !== null) {
          deps.log?.warn({ ...logged, retryInMs: Math.round(wait), err: error }, 'step failed; retrying');
          await repo.steps.update(job.id, step.stepName, { metadata: { last_error: message } });
          await sleep(wait, undefined, { signal: jobSignal });
          continue;
        }
        if (!timeout.aborted && isRetryable(error))
          deps.log?.warn({ ...logged, err: error }, 'step failed; retry budget spent');
        // The reader was told only that it was Lectio's fault: the log says what it was.
        else if (!(error instanceof DomainError)) deps.log?.error({ ...logged, err: error }, 'step failed');
        if (isStorageUnavailable(error) && !timeout.aborted) {
          await repo.steps.update(job.id, step.stepName, { metadata: { last_error: message } }).catch(() => undefined);
          throw error; // the runner queues the job again for later; it is not failed
        }
        await repo.steps.update(job.id, step.stepName, { status: 'failed', errorMessage: message, complete: true });
        throw new StepFailed(message);
      }
    }
  };
}
