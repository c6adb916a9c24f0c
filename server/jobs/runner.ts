/**
 * The worker side of the conversion engine: runs a job's steps when the queue says so.
 *
 * How it stays correct when processes die or messages repeat:
 * - A queue message carries only a job id. The handler claims a lease on the job row (one worker
 *   at a time; a message for a job another live worker holds is dropped, since that worker's own
 *   message is retried by the queue if it dies), then runs the first step that is not completed,
 *   and the next, until the job ends, waits (a book waiting for chapters) or its message's time
 *   budget runs low (then it sends itself a continuation message).
 * - Steps are rows keyed (job_id, step_name): a completed step is never run again; a step that was
 *   running when its process died simply runs again from its start. Files are written through
 *   atomic storage writers, so an interrupted write leaves nothing visible.
 * - A step's own failures are retried here, within the one retry policy's budget per step
 *   (server/retry-policy.ts: attempts and total time, growing delay, Retry-After honoured, each
 *   retry logged with its cause), when they can succeed on a later try and were not already
 *   retried by the voice client; a step that finally fails records its last cause, and so does
 *   the job. Each step is stopped at JOB_STEP_TIMEOUT_SECONDS.
 * - Cancelling sets the job CANCELLED in the database; every worker polls the status of the jobs it
 *   runs (twice a second, and at once in the process that served the cancel) and aborts them; the
 *   partial MP3 is discarded by its writer and any finished audio of the job is deleted.
 * - Stopping the process (SIGTERM/SIGINT) hands running jobs back: they are aborted with a
 *   "shutdown" reason, their lease is released and a fresh message is queued at once, so another
 *   worker resumes them from their current step within its polling interval. A step that ignores
 *   the abort is handed back the same way when the stop's grace period ends.
 * - A store that is down (StorageUnavailableError) never fails a job: after the step's attempts
 *   the job is let go and queued again STORE_RETRY_SECONDS later, as often as it takes.
 * - A database that cannot be reached (DatabaseUnavailableError: restarting, failing over) never
 *   fails a job either: the run stops where it is, the worker keeps its lease, probes the database
 *   every DATABASE_PROBE_MS and runs the job again from its current step as soon as it answers
 *   (the queue, in the same database, could not be told).
 * - Nothing waits on a single message or lease forever: every sweep (half a lease) queues jobs
 *   whose worker stopped renewing its lease (a killed process), and jobs that should be running but
 *   have neither a live lease nor a waiting message (a message lost in a crash, a book whose last
 *   chapter's wake-up was lost), once they have not moved for a lease period.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { DomainError } from '../errors';
import { isDatabaseUnavailable } from '../db/errors';
import { nextRetryDelay, RETRY_BUDGET } from '../retry-policy';
import { TtsError } from '../tts/types';
import { isDiskFull, isStorageUnavailable, type FileStorage } from '../storage/types';
import type { JobQueue } from './queue';
import type { Scheduler } from './scheduler';
import type { JobRepository } from './repository';
import { audioKey, createSteps, type ChapterState, type StepDeps } from './steps';
import { timingKey } from './timing';
import { isActive, type JobRecord, type StepRecord } from './types';

export interface RunnerOptions {
  repo: JobRepository;
  storage: FileStorage;
  queue: Pick<JobQueue, 'send'> & Partial<Pick<JobQueue, 'waitingAmong'>>;
  steps: Omit<StepDeps, 'repo' | 'storage' | 'scheduleChapters' | 'runLater'>;
  chapterConcurrency: number;
  stepTimeoutSeconds: number;
  /** How long a job stays claimed by a worker that stops renewing it (a dead one); default 60. */
  leaseSeconds?: number;
  /** The queue's expiry for one message; a handler hands over before it runs out. */
  messageBudgetSeconds: number;
  stepAttempts?: number;
  stepRetryDelayMs?: number;
  log?: FastifyBaseLogger;
  /** The fair queue: told when a top-level job ends here, and on every sweep. */
  scheduler?: Scheduler;
  /** Told when a job changes state in this worker (logs and metrics). */
  onJobEvent?: (event: JobEvent) => void;
}

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

const DEFAULT_LEASE_SECONDS = 60;
const SHUTDOWN = 'shutdown';
/** How long a job whose store is down waits before it is tried again. */
const STORE_RETRY_SECONDS = 15;
const CANCELLED = 'cancelled';
/** How often a worker whose database went away looks whether it is back. */
const DATABASE_PROBE_MS = 2_000;

/** Where the job's progress bar stands when a step ends (text jobs; books roll up their chapters). */
const PROGRESS_AFTER: Record<string, number> = {
  acquire_content: 3,
  analyze: 6,
  split_chapters: 8,
  synthesize: 98,
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

function userMessage(error: unknown): string {
  if (isDiskFull(error)) return DISK_FULL_MESSAGE;
  if (error instanceof Error && error.message) return error.message;
  return 'The conversion failed for an unknown reason';
}

export function createRunner(options: RunnerOptions) {
  const { repo, storage, queue } = options;
  const workerId = randomUUID();
  const budget = {
    ...RETRY_BUDGET,
    attempts: options.stepAttempts ?? RETRY_BUDGET.attempts,
    baseDelayMs: options.stepRetryDelayMs ?? RETRY_BUDGET.baseDelayMs,
  };
  const active = new Map<string, { controller: AbortController; heartbeat: NodeJS.Timeout; handedBack: boolean }>();
  let stopping = false;
  let watcher: NodeJS.Timeout | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const inFlight = new Set<Promise<void>>();
  /** Jobs this worker holds while its database does not answer (see resumeWhenDatabaseAnswers). */
  const awaitingDatabase = new Set<string>();
  let databaseProbe: NodeJS.Timeout | undefined;

  const steps = createSteps({
    ...options.steps,
    repo,
    storage,
    scheduleChapters,
    runLater: (jobId, seconds) => queue.send(jobId, { delaySeconds: seconds }),
  });

  /** Looks at a book's chapters: hands more to the queue (CHAPTER_CONCURRENCY at a time) and rolls up progress. */
  async function scheduleChapters(parentId: string): Promise<ChapterState> {
    const { state, start } = await repo.transaction(async (tx) => {
      await tx.lockJob(parentId);
      const chapters = await tx.chapterStates(parentId);
      if (chapters.length === 0)
        return { state: { state: 'failed', message: 'The book has no chapters' } as ChapterState, start: [] };
      await tx.setBookProgress(parentId, chapters.reduce((n, c) => n + c.progress, 0) / chapters.length);
      const bad = chapters.find((c) => c.status === 'FAILED' || c.status === 'CANCELLED');
      if (bad) {
        const n = bad.chapterOrder ?? chapters.indexOf(bad) + 1;
        const message =
          bad.status === 'CANCELLED'
            ? `Chapter ${n} was cancelled`
            : `Chapter ${n} failed: ${bad.errorMessage ?? 'unknown error'}`;
        return { state: { state: 'failed', message } as ChapterState, start: [] };
      }
      if (chapters.every((c) => c.status === 'COMPLETED'))
        return { state: { state: 'done' } as ChapterState, start: [] };
      const running = chapters.filter((c) => isActive(c.status) && c.enqueued).length;
      // The first chapter first: until it is done it converts alone (on every encoder stream), so
      // the reader can start listening as soon as possible (docs/listening.md#the-first-chapter-first).
      const limit = chapters[0]?.status === 'COMPLETED' ? options.chapterConcurrency : 1;
      const slots = Math.max(0, limit - running);
      const start = chapters
        .filter((c) => c.status === 'PENDING' && !c.enqueued)
        .slice(0, slots)
        .map((c) => c.id);
      await tx.markEnqueued(start);
      return { state: { state: 'waiting' } as ChapterState, start };
    });
    for (const id of start) await queue.send(id);
    return state;
  }

  /** A chapter ended: start the next ones, fail the book, or wake it up to join the audio. */
  async function afterChapter(parentId: string): Promise<void> {
    const parent = await repo.get(parentId);
    if (!parent || !isActive(parent.status)) return;
    const state = await scheduleChapters(parentId);
    if (state.state === 'failed') {
      await repo.updateStep(parentId, 'synthesize_chapters', {
        status: 'failed',
        errorMessage: state.message,
        complete: true,
      });
      await repo.patchJob(parentId, { status: 'FAILED', errorMessage: state.message }, { onlyIfActive: true });
    } else if (state.state === 'done') {
      await queue.send(parentId);
    }
  }

  async function failJob(job: JobRecord, message: string): Promise<void> {
    await repo.patchJob(job.id, { status: 'FAILED', errorMessage: message }, { onlyIfActive: true });
    options.log?.info(
      { jobId: job.id, userId: job.userId, parentJobId: job.parentJobId, status: 'FAILED', error: message },
      'job failed',
    );
    if (job.parentJobId !== null) await afterChapter(job.parentJobId);
  }

  async function runStep(job: JobRecord, step: StepRecord, jobSignal: AbortSignal): Promise<{ wait: boolean }> {
    const impl = steps[step.stepName];
    if (impl === undefined) throw new StepFailed(`Unknown step ${step.stepName}`);
    const firstAttempt = Date.now();
    for (let attempt = 1; ; attempt += 1) {
      await repo.updateStep(job.id, step.stepName, {
        status: 'running',
        start: true,
        countAttempt: true,
        errorMessage: null,
      });
      const timeout = AbortSignal.timeout(options.stepTimeoutSeconds * 1000);
      const signal = AbortSignal.any([jobSignal, timeout]);
      let lastReport = 0;
      let lastFraction = 0;
      const isChapter = job.parentJobId !== null;
      const report = async (fraction: number) => {
        const now = Date.now();
        if (now - lastReport < 250 && fraction - lastFraction < 0.01 && fraction < 1) return;
        if (fraction - lastFraction < 0.01 && fraction < 1) return;
        lastReport = now;
        lastFraction = fraction;
        await repo.updateStep(job.id, step.stepName, { progress: fraction * 100 });
        if (step.stepName === 'synthesize') {
          const base = isChapter ? 2 : 8;
          await repo.raiseProgress(job.id, base + (98 - base) * fraction);
          if (job.parentJobId !== null) await repo.raiseToChapterMean(job.parentJobId);
        }
      };
      const stepStarted = Date.now();
      try {
        const outcome = await impl({ job, signal, report });
        if (outcome.wait) return { wait: true };
        options.onJobEvent?.({
          kind: 'step_completed',
          jobId: job.id,
          step: step.stepName,
          provider: providerOf(job),
          wallSeconds: (Date.now() - stepStarted) / 1000,
          metadata: outcome.metadata ?? {},
        });
        await repo.updateStep(job.id, step.stepName, {
          status: 'completed',
          progress: 100,
          complete: true,
          ...(outcome.metadata !== undefined && { metadata: outcome.metadata }),
        });
        const after = PROGRESS_AFTER[step.stepName];
        if (after !== undefined && job.jobType === 'text_to_audio' && step.stepName !== 'finalize') {
          await repo.raiseProgress(job.id, isChapter && step.stepName === 'acquire_content' ? 2 : after);
        }
        return { wait: false };
      } catch (error) {
        if (jobSignal.aborted) throw error;
        // Nothing is wrong with the step: run() waits for the database and runs it again.
        if (isDatabaseUnavailable(error)) throw error;
        options.onJobEvent?.({
          kind: 'step_failed',
          jobId: job.id,
          step: step.stepName,
          provider: providerOf(job),
          error,
        });
        const message = timeout.aborted
          ? `The ${step.stepName.replace('_', ' ')} step took longer than ${options.stepTimeoutSeconds} seconds`
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
          options.log?.warn({ ...logged, retryInMs: Math.round(wait), err: error }, 'step failed; retrying');
          await repo.updateStep(job.id, step.stepName, { metadata: { last_error: message } });
          await sleep(wait, undefined, { signal: jobSignal });
          continue;
        }
        if (!timeout.aborted && isRetryable(error)) options.log?.warn(logged, 'step failed; retry budget spent');
        if (isStorageUnavailable(error) && !timeout.aborted) {
          await repo.updateStep(job.id, step.stepName, { metadata: { last_error: message } }).catch(() => undefined);
          throw error; // run() queues the job again for later; it is not failed
        }
        await repo.updateStep(job.id, step.stepName, { status: 'failed', errorMessage: message, complete: true });
        throw new StepFailed(message);
      }
    }
  }

  async function removeOutputs(jobId: string): Promise<void> {
    const key = audioKey(jobId);
    await storage.delete(key).catch(() => undefined);
    await storage.delete(timingKey(key)).catch(() => undefined);
  }

  async function run(jobId: string): Promise<void> {
    let job = await repo.get(jobId);
    if (!job || !isActive(job.status)) return;
    // A live run (here or in another worker) has it: that run goes on, or its own message is retried.
    if (active.has(jobId) || !(await repo.claimLease(jobId, workerId, leaseSeconds))) return;
    const controller = new AbortController();
    const heartbeat = setInterval(
      () => {
        repo.renewLease(jobId, workerId, leaseSeconds).catch(() => undefined);
      },
      (leaseSeconds * 1000) / 3,
    );
    const entry = { controller, heartbeat, handedBack: false };
    active.set(jobId, entry);
    const began = Date.now();
    let storeDown = false;
    let databaseDown = false;
    try {
      if (await repo.markProcessing(jobId)) {
        options.log?.info(
          { jobId, userId: job.userId, parentJobId: job.parentJobId, status: 'PROCESSING', workerId },
          'job processing',
        );
      }
      for (;;) {
        if (controller.signal.aborted) throw controller.signal.reason;
        job = await repo.get(jobId);
        if (!job || !isActive(job.status)) {
          if (job?.status === 'CANCELLED') await removeOutputs(jobId);
          break;
        }
        const next = (await repo.steps([jobId])).find((s) => s.status !== 'completed');
        if (next === undefined) break;
        const elapsed = (Date.now() - began) / 1000;
        if (elapsed + options.stepTimeoutSeconds + 30 > options.messageBudgetSeconds) {
          await queue.send(jobId); // continue under a fresh message before this one expires
          break;
        }
        const { wait } = await runStep(job, next, controller.signal);
        if (wait) break;
      }
      if (job?.status === 'COMPLETED' || (await repo.get(jobId))?.status === 'COMPLETED') {
        options.log?.info(
          { jobId, userId: job?.userId, parentJobId: job?.parentJobId, status: 'COMPLETED' },
          'job completed',
        );
        if (job?.parentJobId) await afterChapter(job.parentJobId);
      }
    } catch (error) {
      if (controller.signal.aborted) {
        if (controller.signal.reason === SHUTDOWN) return; // handed back in `finally`
        await removeOutputs(jobId);
        options.log?.info({ jobId, userId: job?.userId, status: 'CANCELLED' }, 'job cancelled; its work stopped');
        return;
      }
      if (isStorageUnavailable(error)) {
        storeDown = true;
        return;
      }
      if (isDatabaseUnavailable(error)) {
        databaseDown = true;
        return;
      }
      if (job !== null) await failJob(job, error instanceof StepFailed ? error.message : userMessage(error));
      if (!(error instanceof StepFailed)) options.log?.warn({ jobId, err: error }, 'job run failed outside a step');
    } finally {
      clearInterval(heartbeat);
      if (active.get(jobId) === entry) active.delete(jobId);
      if (controller.signal.reason === SHUTDOWN) await handBack(jobId, entry);
      else if (databaseDown) resumeWhenDatabaseAnswers(jobId, job?.userId);
      else await repo.releaseLease(jobId, workerId).catch(() => undefined);
      // A book or text that ended frees its user's place: the next waiting job may start.
      if (
        job !== null &&
        job.parentJobId === null &&
        !storeDown &&
        !databaseDown &&
        controller.signal.reason !== SHUTDOWN
      ) {
        await options.scheduler
          ?.dispatch()
          .catch((err: unknown) => options.log?.warn({ err }, 'could not hand waiting jobs to the workers'));
      }
      if (storeDown) {
        options.log?.warn(
          { jobId, userId: job?.userId, retryInSeconds: STORE_RETRY_SECONDS },
          'file store unavailable; the job will run again',
        );
        // If this send fails too (database down as well), the sweep of a live worker queues it.
        await queue.send(jobId, { delaySeconds: STORE_RETRY_SECONDS }).catch(() => undefined);
      }
    }
  }

  /**
   * The database went away while this worker ran (or was about to run) the job: keep it (its lease
   * stays ours) and run it again from its current step once the database answers.
   */
  function resumeWhenDatabaseAnswers(jobId: string, userId?: string): void {
    if (stopping) return; // another worker's sweep takes it once the lease lapses
    if (!awaitingDatabase.has(jobId)) {
      options.log?.warn({ jobId, userId }, 'database unavailable; the job resumes when it answers again');
    }
    awaitingDatabase.add(jobId);
    if (databaseProbe !== undefined) return;
    const probe = async () => {
      databaseProbe = undefined;
      if (stopping || awaitingDatabase.size === 0) return;
      try {
        await repo.countByStatus();
      } catch {
        databaseProbe = setTimeout(() => void probe(), DATABASE_PROBE_MS);
        return;
      }
      const ids = [...awaitingDatabase];
      awaitingDatabase.clear();
      options.log?.info({ jobs: ids.length }, 'database answers again; resuming its jobs');
      for (const id of ids) void runTracked(id).catch(() => undefined);
    };
    databaseProbe = setTimeout(() => void probe(), DATABASE_PROBE_MS);
  }

  /** Runs the job as the queue handler does, counted among the runs `stop` waits for. */
  async function runTracked(jobId: string): Promise<void> {
    const p = run(jobId).catch((error: unknown) => {
      if (isDatabaseUnavailable(error)) {
        resumeWhenDatabaseAnswers(jobId);
        return;
      }
      options.log?.warn({ jobId, err: error }, 'job run interrupted; the queue will retry it');
      throw error;
    });
    inFlight.add(p);
    try {
      await p;
    } finally {
      inFlight.delete(p);
    }
  }

  /** Lets go of a job this worker is stopping and queues it again at once, for another worker. */
  async function handBack(jobId: string, entry: { heartbeat: NodeJS.Timeout; handedBack: boolean }): Promise<void> {
    if (entry.handedBack) return;
    entry.handedBack = true;
    clearInterval(entry.heartbeat);
    await repo.releaseLease(jobId, workerId).catch(() => undefined);
    const job = await repo.get(jobId).catch(() => null);
    if (job !== null && !isActive(job.status)) return;
    try {
      await queue.send(jobId);
      options.log?.info({ jobId, userId: job?.userId }, 'job handed back for another worker');
      options.onJobEvent?.({ kind: 'handed_back', jobId });
    } catch (err) {
      // The sweep of a live worker queues it again (no lease, no waiting message).
      options.log?.warn({ jobId, err }, 'could not queue a handed-back job; a live worker will sweep it up');
    }
  }

  async function takeOverAbandoned(): Promise<void> {
    await options.scheduler?.dispatch();
    for (const id of await repo.abandonedJobIds()) {
      if (active.has(id)) continue;
      options.log?.info({ jobId: id }, 'taking over a job whose worker stopped');
      options.onJobEvent?.({ kind: 'taken_over', jobId: id });
      await queue.send(id);
    }
    if (queue.waitingAmong === undefined) return;
    const idle = (await repo.unclaimedRunnableJobIds(leaseSeconds)).filter((id) => !active.has(id));
    if (idle.length === 0) return;
    const waiting = await queue.waitingAmong(idle);
    for (const id of idle) {
      if (waiting.has(id)) continue;
      options.log?.info({ jobId: id }, 'queueing a job that has no worker and no queued message');
      await queue.send(id);
    }
  }

  async function watchCancellations(): Promise<void> {
    const ids = [...active.keys()];
    if (ids.length === 0) return;
    for (const id of await repo.cancelledAmong(ids)) active.get(id)?.controller.abort(CANCELLED);
  }

  return {
    workerId,
    /** The queue handler. */
    async handle(jobId: string): Promise<void> {
      if (stopping) {
        // Fetched while stopping: back to the queue for another worker, at once.
        await queue.send(jobId);
        return;
      }
      await runTracked(jobId);
    },
    start(): void {
      // While the database is away these fail every time: said once, not twice a second.
      let watchFailing = false;
      watcher = setInterval(() => {
        watchCancellations().then(
          () => (watchFailing = false),
          (err: unknown) => {
            if (!watchFailing) options.log?.warn({ err }, 'cancel watch failed');
            watchFailing = true;
          },
        );
      }, 500);
      watcher.unref();
      // A worker that died mid-job stops renewing its lease; once it lapses, wake the job up so a
      // live worker takes it over now instead of when the dead worker's queue message expires.
      sweeper = setInterval(
        () => {
          takeOverAbandoned().catch((err: unknown) => options.log?.warn({ err }, 'lease sweep failed'));
        },
        (leaseSeconds * 1000) / 2,
      );
      sweeper.unref();
    },
    /** The process that served a cancel stops the work at once (others notice within half a second). */
    notifyCancelled(ids: string[]): void {
      for (const id of ids) active.get(id)?.controller.abort(CANCELLED);
    },
    afterChapter,
    /**
     * Hands running jobs back (aborted, lease released, queued again for another worker) and waits
     * up to `graceMs` for their handlers to return; a job whose step ignores the abort is handed
     * back when the grace period ends.
     */
    async stop(graceMs = 5000): Promise<void> {
      stopping = true;
      if (watcher) clearInterval(watcher);
      if (sweeper) clearInterval(sweeper);
      if (databaseProbe) clearTimeout(databaseProbe);
      for (const { controller } of active.values()) controller.abort(SHUTDOWN);
      const grace = new AbortController();
      await Promise.race([
        Promise.allSettled([...inFlight]),
        sleep(graceMs, undefined, { signal: grace.signal }).catch(() => undefined),
      ]);
      grace.abort();
      for (const [jobId, entry] of active) await handBack(jobId, entry);
    },
    /** Jobs this process is running now. */
    runningCount: () => active.size,
  };
}

export type Runner = ReturnType<typeof createRunner>;
