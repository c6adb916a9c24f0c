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
 * - A step's own failures are retried (./step-run.ts), within the one retry policy's budget per
 *   step (server/retry-policy.ts: attempts and total time, growing delay, Retry-After honoured,
 *   each retry logged with its cause), when they can succeed on a later try and were not already
 *   retried by the voice client; a step that finally fails records its last cause, and so does
 *   the job. Each step is stopped at JOB_STEP_TIMEOUT_SECONDS.
 * - A book's chapters are handed to the queue a few at a time, and a chapter's end moves its book
 *   on (./chapter-schedule.ts).
 * - Cancelling sets the job CANCELLED in the database; every worker polls the status of the jobs it
 *   runs (twice a second, and at once in the process that served the cancel) and aborts them; the
 *   partial MP3 is discarded by its writer and any finished audio of the job is deleted.
 * - The lease's loop is the leased worker's (../work/leased-worker.ts), shared with the download
 *   builder; this file supplies the jobs table's lease queries and the job's run. From it:
 *   stopping the process (SIGTERM/SIGINT) hands running jobs back (aborted with a "shutdown"
 *   reason, lease released, queued again at once, so another worker resumes them from their
 *   current step); a store that is down (StorageUnavailableError) never fails a job: after the
 *   step's attempts the job is let go and queued again 15 s later, then twice as long on each
 *   outage in a row; a database that cannot be reached (DatabaseUnavailableError: restarting,
 *   failing over) never fails a job either: the worker keeps its lease, probes the database every
 *   2 s and runs the job again from its current step as soon as it answers.
 * - Nothing waits on a single message or lease forever: every sweep (half a lease) queues jobs
 *   whose worker stopped renewing its lease (a killed process), and jobs that should be running but
 *   have neither a live lease nor a waiting message (a message lost in a crash, a book whose last
 *   chapter's wake-up was lost), once they have not moved for a lease period.
 */
import type { FastifyBaseLogger } from 'fastify';
import { collectGarbageSoon } from '../garbage';
import { RETRY_BUDGET } from '../retry-policy';
import type { FileStorage } from '../storage/types';
import { createLeasedWorker, type LeasedWork } from '../work/leased-worker';
import { createChapterSchedule } from './chapter-schedule';
import type { JobQueue } from './queue';
import type { Scheduler } from './scheduler';
import type { JobRepository } from './repository';
import { createStepRun, StepFailed, userMessage, type JobEvent } from './step-run';
import { createSteps, type StepDeps } from './steps';
import { audioKey, timingKey } from './storage-keys';
import { isActive, type JobRecord } from './types';

export interface RunnerOptions {
  repo: JobRepository;
  storage: FileStorage;
  queue: Pick<JobQueue, 'send' | 'work'> & Partial<Pick<JobQueue, 'waitingAmong'>>;
  steps: Omit<StepDeps, 'repo' | 'storage' | 'scheduleChapters' | 'runLater'>;
  chapterConcurrency: number;
  /** Jobs run at once in this process (WORKER_CONCURRENCY). */
  concurrency: number;
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

const DEFAULT_LEASE_SECONDS = 60;

type RunStep = ReturnType<typeof createStepRun>;
type AfterChapter = (parentJobId: string) => Promise<void>;

async function removeOutputs(storage: FileStorage, jobId: string): Promise<void> {
  const key = audioKey(jobId);
  await storage.delete(key).catch(() => undefined);
  await storage.delete(timingKey(key)).catch(() => undefined);
}

/** A job's run: its steps one after the other, from the first not completed. */
function createJobRun(options: RunnerOptions, runStep: RunStep, afterChapter: AfterChapter) {
  const { repo, storage, queue, log } = options;
  return async function runSteps(
    jobId: string,
    claimed: JobRecord,
    signal: AbortSignal,
    workerId: string,
  ): Promise<void> {
    let job: JobRecord | null = claimed;
    const began = Date.now();
    if (await repo.jobs.markProcessing(jobId)) {
      log?.info(
        { jobId, userId: job.userId, parentJobId: job.parentJobId, status: 'PROCESSING', workerId },
        'job processing',
      );
    }
    for (;;) {
      signal.throwIfAborted();
      job = await repo.jobs.get(jobId);
      if (!job || !isActive(job.status)) {
        if (job?.status === 'CANCELLED') await removeOutputs(storage, jobId);
        break;
      }
      const next = (await repo.steps.ofJobs([jobId])).find((s) => s.status !== 'completed');
      if (next === undefined) break;
      const elapsed = (Date.now() - began) / 1000;
      if (elapsed + options.stepTimeoutSeconds + 30 > options.messageBudgetSeconds) {
        await queue.send(jobId); // continue under a fresh message before this one expires
        break;
      }
      const { wait } = await runStep(job, next, signal);
      if (wait) break;
    }
    if (job?.status === 'COMPLETED' || (await repo.jobs.get(jobId))?.status === 'COMPLETED') {
      log?.info({ jobId, userId: job?.userId, parentJobId: job?.parentJobId, status: 'COMPLETED' }, 'job completed');
      if (job?.parentJobId) {
        collectGarbageSoon(); // what the chapter's synthesis left (../garbage.ts)
        await afterChapter(job.parentJobId);
      }
    }
  };
}

/** The jobs table's side of the leased worker: its lease queries, a job's run and how a run ends. */
function jobWork(options: RunnerOptions, runStep: RunStep, afterChapter: AfterChapter): LeasedWork<JobRecord> {
  const { repo, storage, log } = options;
  return {
    noun: 'job',
    fields: (jobId, job) => ({ jobId, ...(job !== undefined && { userId: job.userId }) }),
    async claim(jobId, owner, seconds) {
      const job = await repo.jobs.get(jobId);
      if (!job || !isActive(job.status)) {
        // A run that kept its lease through a database outage may find its job ended meanwhile (its
        // last step went through before a later query failed): it lets go of the lease here.
        await repo.jobs.releaseLease(jobId, owner).catch(() => undefined);
        return null;
      }
      // A live run in another worker has it: that run goes on, or its own message is retried.
      return (await repo.jobs.claimLease(jobId, owner, seconds)) ? job : null;
    },
    renew: (jobId, owner, seconds) => repo.jobs.renewLease(jobId, owner, seconds),
    release: (jobId, owner) => repo.jobs.releaseLease(jobId, owner),
    run: createJobRun(options, runStep, afterChapter),
    async failed(jobId, job, error) {
      const message = error instanceof StepFailed ? error.message : userMessage(error);
      await repo.jobs.patch(jobId, { status: 'FAILED', errorMessage: message }, { onlyIfActive: true });
      log?.info(
        { jobId, userId: job.userId, parentJobId: job.parentJobId, status: 'FAILED', error: message },
        'job failed',
      );
      if (job.parentJobId !== null) await afterChapter(job.parentJobId);
      if (!(error instanceof StepFailed)) log?.warn({ jobId, err: error }, 'job run failed outside a step');
    },
    async cancelled(jobId, job) {
      await removeOutputs(storage, jobId);
      log?.info({ jobId, userId: job.userId, status: 'CANCELLED' }, 'job cancelled; its work stopped');
    },
    async finished(_jobId, job) {
      // A book or text that ended frees its user's place: the next waiting job may start.
      if (job.parentJobId !== null) return;
      await options.scheduler
        ?.dispatch()
        .catch((err: unknown) => log?.warn({ err }, 'could not hand waiting jobs to the workers'));
    },
    async stillWanted(jobId) {
      const job = await repo.jobs.get(jobId);
      return job === null || isActive(job.status);
    },
    stoppedAmong: (ids) => repo.jobs.cancelledAmong(ids),
    beforeSweep: async () => {
      await options.scheduler?.dispatch();
    },
    abandoned: () => repo.jobs.abandonedJobIds(),
    idle: (idleSeconds) => repo.jobs.unclaimedRunnableJobIds(idleSeconds),
    releaseAbandoned: () => repo.jobs.clearAllLeases(),
    probe: () => repo.jobs.countByStatus(),
  };
}

export function createRunner(options: RunnerOptions) {
  const { repo, storage, queue, log } = options;
  const budget = {
    ...RETRY_BUDGET,
    attempts: options.stepAttempts ?? RETRY_BUDGET.attempts,
    baseDelayMs: options.stepRetryDelayMs ?? RETRY_BUDGET.baseDelayMs,
  };
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;

  const { scheduleChapters, afterChapter } = createChapterSchedule({
    repo,
    queue,
    chapterConcurrency: options.chapterConcurrency,
  });
  const runStep = createStepRun({
    repo,
    steps: createSteps({
      ...options.steps,
      repo,
      storage,
      scheduleChapters,
      runLater: (jobId, seconds) => queue.send(jobId, { delaySeconds: seconds }),
    }),
    budget,
    stepTimeoutSeconds: options.stepTimeoutSeconds,
    log,
    onJobEvent: options.onJobEvent,
  });

  const worker = createLeasedWorker({
    work: jobWork(options, runStep, afterChapter),
    queue,
    concurrency: options.concurrency,
    leaseSeconds,
    ...(log !== undefined && { log }),
    onHandedBack: (jobId) => options.onJobEvent?.({ kind: 'handed_back', jobId }),
    onTakenOver: (jobId) => options.onJobEvent?.({ kind: 'taken_over', jobId }),
  });

  return {
    workerId: worker.workerId,
    /** The queue handler. */
    handle: worker.handle,
    /**
     * Embedded mode, before `start`: every lease is a dead process's (only one process can open the
     * embedded database); they are let go and their jobs queued at once.
     */
    recoverAbandoned: worker.recoverAbandoned,
    /** Starts the cancel watch (twice a second) and the lease sweep, and takes the queue's messages. */
    start: worker.start,
    /** The process that served a cancel stops the work at once (others notice within half a second). */
    notifyCancelled: (ids: string[]) => worker.notifyCancelled(ids),
    afterChapter,
    /** Hands running jobs back and waits up to `graceMs` for their runs to return (see the leased worker). */
    stop: worker.stop,
    /** Jobs this process is running now. */
    runningCount: worker.runningCount,
  };
}

export type Runner = ReturnType<typeof createRunner>;
