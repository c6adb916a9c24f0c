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
import { isDatabaseUnavailable } from '../db/errors';
import { collectGarbageSoon } from '../garbage';
import { RETRY_BUDGET } from '../retry-policy';
import { isStorageUnavailable, type FileStorage } from '../storage/types';
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

const DEFAULT_LEASE_SECONDS = 60;
const SHUTDOWN = 'shutdown';
/** How long a job whose store is down waits before it is tried again. */
const STORE_RETRY_SECONDS = 15;
const CANCELLED = 'cancelled';
/** How often a worker whose database went away looks whether it is back. */
const DATABASE_PROBE_MS = 2_000;

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
    log: options.log,
    onJobEvent: options.onJobEvent,
  });

  async function failJob(job: JobRecord, message: string): Promise<void> {
    await repo.jobs.patch(job.id, { status: 'FAILED', errorMessage: message }, { onlyIfActive: true });
    options.log?.info(
      { jobId: job.id, userId: job.userId, parentJobId: job.parentJobId, status: 'FAILED', error: message },
      'job failed',
    );
    if (job.parentJobId !== null) await afterChapter(job.parentJobId);
  }

  async function removeOutputs(jobId: string): Promise<void> {
    const key = audioKey(jobId);
    await storage.delete(key).catch(() => undefined);
    await storage.delete(timingKey(key)).catch(() => undefined);
  }

  async function run(jobId: string): Promise<void> {
    let job = await repo.jobs.get(jobId);
    if (!job || !isActive(job.status)) {
      // A run that kept its lease through a database outage may find its job ended meanwhile (its
      // last step went through before a later query failed): it lets go of the lease here.
      await repo.jobs.releaseLease(jobId, workerId).catch(() => undefined);
      return;
    }
    // A live run (here or in another worker) has it: that run goes on, or its own message is retried.
    if (active.has(jobId) || !(await repo.jobs.claimLease(jobId, workerId, leaseSeconds))) return;
    const controller = new AbortController();
    const heartbeat = setInterval(
      () => {
        repo.jobs.renewLease(jobId, workerId, leaseSeconds).catch(() => undefined);
      },
      (leaseSeconds * 1000) / 3,
    );
    const entry = { controller, heartbeat, handedBack: false };
    active.set(jobId, entry);
    const began = Date.now();
    let storeDown = false;
    let databaseDown = false;
    try {
      if (await repo.jobs.markProcessing(jobId)) {
        options.log?.info(
          { jobId, userId: job.userId, parentJobId: job.parentJobId, status: 'PROCESSING', workerId },
          'job processing',
        );
      }
      for (;;) {
        if (controller.signal.aborted) throw controller.signal.reason;
        job = await repo.jobs.get(jobId);
        if (!job || !isActive(job.status)) {
          if (job?.status === 'CANCELLED') await removeOutputs(jobId);
          break;
        }
        const next = (await repo.steps.ofJobs([jobId])).find((s) => s.status !== 'completed');
        if (next === undefined) break;
        const elapsed = (Date.now() - began) / 1000;
        if (elapsed + options.stepTimeoutSeconds + 30 > options.messageBudgetSeconds) {
          await queue.send(jobId); // continue under a fresh message before this one expires
          break;
        }
        const { wait } = await runStep(job, next, controller.signal);
        if (wait) break;
      }
      if (job?.status === 'COMPLETED' || (await repo.jobs.get(jobId))?.status === 'COMPLETED') {
        options.log?.info(
          { jobId, userId: job?.userId, parentJobId: job?.parentJobId, status: 'COMPLETED' },
          'job completed',
        );
        if (job?.parentJobId) {
          collectGarbageSoon(); // what the chapter's synthesis left (../garbage.ts)
          await afterChapter(job.parentJobId);
        }
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
      else await repo.jobs.releaseLease(jobId, workerId).catch(() => undefined);
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
        await repo.jobs.countByStatus();
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
    await repo.jobs.releaseLease(jobId, workerId).catch(() => undefined);
    const job = await repo.jobs.get(jobId).catch(() => null);
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
    for (const id of await repo.jobs.abandonedJobIds()) {
      if (active.has(id)) continue;
      options.log?.info({ jobId: id }, 'taking over a job whose worker stopped');
      options.onJobEvent?.({ kind: 'taken_over', jobId: id });
      await queue.send(id);
    }
    if (queue.waitingAmong === undefined) return;
    const idle = (await repo.jobs.unclaimedRunnableJobIds(leaseSeconds)).filter((id) => !active.has(id));
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
    for (const id of await repo.jobs.cancelledAmong(ids)) active.get(id)?.controller.abort(CANCELLED);
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
