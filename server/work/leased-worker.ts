/**
 * Background work under a lease: the one loop behind the conversion runner (server/jobs/runner.ts)
 * and the download builder (server/exports/worker.ts). A domain supplies only what is its own
 * (`LeasedWork`: how a unit is claimed, renewed and released in its table, how it runs, what a
 * failure or a cancel leaves); this module owns how units are held and let go:
 *
 * - A queue message names a unit. `handle` claims its lease (one worker at a time; a message for a
 *   unit another live worker holds is dropped, that worker's own message is retried if it dies),
 *   renews it every third of the lease while the unit runs, and lets go of it when the run ends.
 *   At most `concurrency` units run at once in a process (the queue's pollers).
 * - Stopping (SIGTERM/SIGINT): running units are aborted with a "shutdown" reason, their lease is
 *   released and a fresh message queued at once, so another worker takes them from where they are.
 *   A run that ignores the abort is handed back the same way when the stop's grace period ends.
 * - Cancelling: every half second the units running here are looked up (`stoppedAmong`); those
 *   cancelled are aborted (at once in the process that served the cancel: `notifyCancelled`).
 * - A store that is down (StorageUnavailableError) never fails a unit: its lease is let go and it is
 *   queued again after `storeRetrySeconds`, twice as long on each outage in a row (up to
 *   STORE_RETRY_MAX_SECONDS), as often as it takes.
 * - A database that does not answer (DatabaseUnavailableError) never fails a unit either: the run
 *   stops where it is, the worker keeps its lease, asks the database every `databaseProbeMs`
 *   (`probe`) and runs the unit again as soon as it answers (the queue, in the same database,
 *   could not be told).
 * - Every half lease a sweep queues units whose worker stopped renewing its lease (a killed
 *   process: `abandoned`) and units that should run but have neither a lease nor a waiting message
 *   (`idle`). In embedded mode the process is the only one, so `recoverAbandoned` at start lets go
 *   of every lease (a dead process's) and queues those units at once.
 *
 * Everything here is asynchronous I/O and timers (unref'd, so they never keep a process alive); the
 * work itself decides where its heavy lifting runs (threads, child processes).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors';
import { isStorageUnavailable } from '../storage/types';

/** The abort reasons a unit's `run` sees on its signal. */
export const SHUTDOWN = 'shutdown';
export const CANCELLED = 'cancelled';

/** The longest a unit whose store keeps being down waits between tries. */
export const STORE_RETRY_MAX_SECONDS = 300;

/** The queue the units' messages travel on (server/jobs/queue.ts' JobQueue answers it). */
export interface WorkQueue {
  send(id: string, options?: { delaySeconds?: number }): Promise<void>;
  work(concurrency: number, handler: (id: string) => Promise<void>): Promise<void>;
  /** Of `ids`, those with a message waiting; without it, `idle` units are queued unasked. */
  waitingAmong?(ids: string[]): Promise<Set<string>>;
}

/** What a domain supplies: its table's lease SQL (in its own repository) and its work. */
export interface LeasedWork<Claim> {
  /** What one unit is called in logs ("job", "download build"). */
  noun: string;
  /** The log fields naming a unit (its id under the domain's key; its owner once claimed). */
  fields(id: string, claim?: Claim): Record<string, unknown>;
  /** Takes the unit's lease for `owner`: what the run needs, or null when it is not to run here. */
  claim(id: string, owner: string, leaseSeconds: number): Promise<Claim | null>;
  renew(id: string, owner: string, leaseSeconds: number): Promise<void>;
  /** Lets go of the unit's lease (the end of a run, a hand-back, a store outage). */
  release(id: string, owner: string): Promise<void>;
  /** Does the work. Throws to fail it; `signal` aborts with SHUTDOWN or CANCELLED. */
  run(id: string, claim: Claim, signal: AbortSignal, owner: string): Promise<void>;
  /** Records that the run failed (not for outages, shutdowns or cancels). */
  failed(id: string, claim: Claim, error: unknown, owner: string): Promise<void>;
  /** What a cancel leaves behind is removed here. */
  cancelled?(id: string, claim: Claim): Promise<void>;
  /** After a run ended (completed, failed or cancelled) and its lease was let go. */
  finished?(id: string, claim: Claim): Promise<void>;
  /** On a hand-back: whether the unit is still to be done (false: it ended meanwhile; no message). */
  stillWanted?(id: string): Promise<boolean>;
  /** Of `ids` (running here), those cancelled or removed meanwhile. */
  stoppedAmong(ids: string[]): Promise<Iterable<string>>;
  /** Runs first on every sweep. */
  beforeSweep?(): Promise<void>;
  /** Units whose worker's lease lapsed: taken over by this one. */
  abandoned(): Promise<string[]>;
  /** Units that should run but that no worker holds, unchanged for `idleSeconds`. */
  idle?(idleSeconds: number): Promise<string[]>;
  /** Embedded mode, at start: lets go of every lease (all a dead process's); answers those units. */
  releaseAbandoned(): Promise<string[]>;
  /** Any cheap query: it answers once the database is back. */
  probe(): Promise<unknown>;
}

export interface LeasedWorkerOptions<Claim> {
  work: LeasedWork<Claim>;
  queue: WorkQueue;
  /** Units run at once in this process. */
  concurrency: number;
  /** How long a unit stays claimed by a worker that stops renewing it (a dead one). */
  leaseSeconds: number;
  /** The first wait of a unit whose store is down; default 15. */
  storeRetrySeconds?: number;
  /** How often a worker whose database went away asks whether it is back; default 2000. */
  databaseProbeMs?: number;
  /** How often running units are checked for a cancel; default 500. */
  cancelWatchMs?: number;
  log?: FastifyBaseLogger;
  onHandedBack?(id: string): void;
  onTakenOver?(id: string): void;
}

interface Running<Claim> {
  claim: Claim;
  controller: AbortController;
  heartbeat: NodeJS.Timeout;
  handedBack: boolean;
}

/** One worker's state: what it runs, claims and holds, its timers, and whether it is stopping. */
interface WorkerState<Claim> {
  options: LeasedWorkerOptions<Claim>;
  workerId: string;
  active: Map<string, Running<Claim>>;
  /** Units whose lease is being claimed here: a second message for one waits for none. */
  claiming: Set<string>;
  inFlight: Set<Promise<void>>;
  /** Units this worker holds while its database does not answer. */
  awaitingDatabase: Set<string>;
  /** Store outages in a row, per unit: its next wait doubles with each. */
  storeOutages: Map<string, number>;
  databaseProbe: NodeJS.Timeout | undefined;
  watcher: NodeJS.Timeout | undefined;
  sweeper: NodeJS.Timeout | undefined;
  stopping: boolean;
}

async function run<Claim>(state: WorkerState<Claim>, id: string): Promise<void> {
  const { work, leaseSeconds } = state.options;
  const { active, claiming, workerId } = state;
  if (active.has(id) || claiming.has(id)) return; // a live run here has it (a repeated message)
  claiming.add(id);
  let claim: Claim | null;
  try {
    claim = await work.claim(id, workerId, leaseSeconds);
  } finally {
    claiming.delete(id);
  }
  if (claim === null) return;
  const controller = new AbortController();
  const heartbeat = setInterval(
    () => void work.renew(id, workerId, leaseSeconds).catch(() => undefined),
    (leaseSeconds * 1000) / 3,
  );
  const entry: Running<Claim> = { claim, controller, heartbeat, handedBack: false };
  active.set(id, entry);
  let outcome: 'ended' | 'shutdown' | 'store' | 'database' = 'ended';
  try {
    await work.run(id, claim, controller.signal, workerId);
  } catch (error) {
    if (controller.signal.aborted) {
      if (controller.signal.reason === SHUTDOWN) outcome = 'shutdown';
      else await work.cancelled?.(id, claim);
    } else if (isStorageUnavailable(error)) outcome = 'store';
    else if (isDatabaseUnavailable(error)) outcome = 'database';
    else await work.failed(id, claim, error, workerId);
  } finally {
    clearInterval(heartbeat);
    if (active.get(id) === entry) active.delete(id);
    if (controller.signal.reason === SHUTDOWN) outcome = 'shutdown';
    if (outcome === 'shutdown') await handBack(state, id, entry);
    else if (outcome === 'database') resumeWhenDatabaseAnswers(state, id, claim);
    else await work.release(id, workerId).catch(() => undefined);
    if (outcome === 'ended') {
      state.storeOutages.delete(id);
      await work.finished?.(id, claim);
    }
    if (outcome === 'store') await retryAfterStoreOutage(state, id, claim);
  }
}

async function retryAfterStoreOutage<Claim>(state: WorkerState<Claim>, id: string, claim: Claim): Promise<void> {
  const { work, queue, log } = state.options;
  const inRow = (state.storeOutages.get(id) ?? 0) + 1;
  state.storeOutages.set(id, inRow);
  const retryInSeconds = Math.min(STORE_RETRY_MAX_SECONDS, (state.options.storeRetrySeconds ?? 15) * 2 ** (inRow - 1));
  log?.warn({ ...work.fields(id, claim), retryInSeconds }, `file store unavailable; the ${work.noun} will run again`);
  // If this send fails too (database down as well), the sweep of a live worker queues it.
  await queue.send(id, { delaySeconds: retryInSeconds }).catch(() => undefined);
}

/**
 * The database went away while this worker ran (or was about to run) the unit: keep it (its lease
 * stays ours) and run it again from where it is once the database answers.
 */
function resumeWhenDatabaseAnswers<Claim>(state: WorkerState<Claim>, id: string, claim?: Claim): void {
  const { work, log } = state.options;
  const databaseProbeMs = state.options.databaseProbeMs ?? 2_000;
  if (state.stopping) return; // another worker's sweep takes it once the lease lapses
  if (!state.awaitingDatabase.has(id)) {
    log?.warn(work.fields(id, claim), `database unavailable; the ${work.noun} resumes when it answers again`);
  }
  state.awaitingDatabase.add(id);
  if (state.databaseProbe !== undefined) return;
  const probe = async () => {
    state.databaseProbe = undefined;
    if (state.stopping || state.awaitingDatabase.size === 0) return;
    try {
      await work.probe();
    } catch {
      state.databaseProbe = setTimeout(() => void probe(), databaseProbeMs);
      return;
    }
    const ids = [...state.awaitingDatabase];
    state.awaitingDatabase.clear();
    log?.info({ count: ids.length }, `database answers again; resuming its ${work.noun}s`);
    for (const held of ids) void runTracked(state, held).catch(() => undefined);
  };
  state.databaseProbe = setTimeout(() => void probe(), databaseProbeMs);
}

/** Runs the unit as the queue handler does, counted among the runs `stop` waits for. */
async function runTracked<Claim>(state: WorkerState<Claim>, id: string): Promise<void> {
  const { work, log } = state.options;
  const p = run(state, id).catch((error: unknown) => {
    if (isDatabaseUnavailable(error)) {
      resumeWhenDatabaseAnswers(state, id);
      return;
    }
    log?.warn({ ...work.fields(id), err: error }, `${work.noun} run interrupted; the queue will retry it`);
    throw error;
  });
  state.inFlight.add(p);
  try {
    await p;
  } finally {
    state.inFlight.delete(p);
  }
}

/** Lets go of a unit this worker is stopping and queues it again at once, for another worker. */
async function handBack<Claim>(state: WorkerState<Claim>, id: string, entry: Running<Claim>): Promise<void> {
  const { work, queue, log } = state.options;
  const noun = work.noun;
  if (entry.handedBack) return;
  entry.handedBack = true;
  clearInterval(entry.heartbeat);
  await work.release(id, state.workerId).catch(() => undefined);
  if (work.stillWanted !== undefined && !(await work.stillWanted(id).catch(() => true))) return;
  try {
    await queue.send(id);
    log?.info(work.fields(id, entry.claim), `${noun} handed back for another worker`);
    state.options.onHandedBack?.(id);
  } catch (err) {
    // The sweep of a live worker queues it again (no lease, no waiting message).
    log?.warn(
      { ...work.fields(id, entry.claim), err },
      `could not queue a handed-back ${noun}; a live worker will sweep it up`,
    );
  }
}

async function sweep<Claim>(state: WorkerState<Claim>): Promise<void> {
  const { work, queue, log, leaseSeconds } = state.options;
  const noun = work.noun;
  await work.beforeSweep?.();
  for (const id of await work.abandoned()) {
    if (state.active.has(id)) continue;
    log?.info(work.fields(id), `taking over a ${noun} whose worker stopped`);
    state.options.onTakenOver?.(id);
    await queue.send(id);
  }
  if (work.idle === undefined) return;
  const idle = (await work.idle(leaseSeconds)).filter((id) => !state.active.has(id));
  if (idle.length === 0) return;
  const waiting = queue.waitingAmong === undefined ? new Set<string>() : await queue.waitingAmong(idle);
  for (const id of idle) {
    if (waiting.has(id)) continue;
    log?.info(work.fields(id), `queueing a ${noun} that has no worker and no queued message`);
    await queue.send(id);
  }
}

async function watchCancellations<Claim>(state: WorkerState<Claim>): Promise<void> {
  const ids = [...state.active.keys()];
  if (ids.length === 0) return;
  for (const id of await state.options.work.stoppedAmong(ids)) state.active.get(id)?.controller.abort(CANCELLED);
}

/** Starts the cancel watch and the sweep, and takes messages, `concurrency` at a time. */
async function start<Claim>(state: WorkerState<Claim>, handle: (id: string) => Promise<void>): Promise<void> {
  const { options } = state;
  const { log, leaseSeconds, queue } = options;
  const noun = options.work.noun;
  // While the database is away these fail every time: said once, not twice a second.
  let watchFailing = false;
  state.watcher = setInterval(() => {
    watchCancellations(state).then(
      () => (watchFailing = false),
      (err: unknown) => {
        if (!watchFailing) log?.warn({ err }, `${noun} cancel watch failed`);
        watchFailing = true;
      },
    );
  }, options.cancelWatchMs ?? 500);
  state.watcher.unref();
  state.sweeper = setInterval(
    () => void sweep(state).catch((err: unknown) => log?.warn({ err }, `${noun} lease sweep failed`)),
    (leaseSeconds * 1000) / 2,
  );
  state.sweeper.unref();
  await queue.work(options.concurrency, handle);
}

/**
 * Hands running units back (aborted, lease released, queued again for another worker) and waits
 * up to `graceMs` for their runs to return; a run that ignores the abort is handed back when the
 * grace period ends.
 */
async function stop<Claim>(state: WorkerState<Claim>, graceMs: number): Promise<void> {
  state.stopping = true;
  clearInterval(state.watcher);
  clearInterval(state.sweeper);
  clearTimeout(state.databaseProbe);
  for (const { controller } of state.active.values()) controller.abort(SHUTDOWN);
  const grace = new AbortController();
  await Promise.race([
    Promise.allSettled([...state.inFlight]),
    sleep(graceMs, undefined, { signal: grace.signal }).catch(() => undefined),
  ]);
  grace.abort();
  for (const [id, entry] of state.active) await handBack(state, id, entry);
}

export function createLeasedWorker<Claim>(options: LeasedWorkerOptions<Claim>) {
  const { work, queue } = options;
  const state: WorkerState<Claim> = {
    options,
    workerId: randomUUID(),
    active: new Map(),
    claiming: new Set(),
    inFlight: new Set(),
    awaitingDatabase: new Set(),
    storeOutages: new Map(),
    databaseProbe: undefined,
    watcher: undefined,
    sweeper: undefined,
    stopping: false,
  };

  /** The queue's handler. */
  async function handle(id: string): Promise<void> {
    if (state.stopping) {
      // Fetched while stopping: back to the queue for another worker, at once.
      await queue.send(id);
      return;
    }
    await runTracked(state, id);
  }

  return {
    workerId: state.workerId,
    handle,
    /**
     * Embedded mode, before `start`: this process is the only one, so every lease is a dead
     * process's; they are let go and their units queued now rather than once the leases lapse.
     */
    async recoverAbandoned(): Promise<string[]> {
      const ids = await work.releaseAbandoned();
      for (const id of ids) await queue.send(id);
      return ids;
    },
    /** Starts the cancel watch and the sweep, and takes messages, `concurrency` at a time. */
    start: () => start(state, handle),
    /** The process that served a cancel stops the work at once (others notice within the watch's period). */
    notifyCancelled(ids: Iterable<string>): void {
      for (const id of ids) state.active.get(id)?.controller.abort(CANCELLED);
    },
    /**
     * Hands running units back (aborted, lease released, queued again for another worker) and waits
     * up to `graceMs` for their runs to return; a run that ignores the abort is handed back when the
     * grace period ends.
     */
    stop: (graceMs = 5000) => stop(state, graceMs),
    /** Units this process is running now. */
    runningCount: () => state.active.size,
    /** Whether this process is running the unit now. */
    isRunning: (id: string) => state.active.has(id),
  };
}

export type LeasedWorker = ReturnType<typeof createLeasedWorker>;
