import PgBoss from 'pg-boss';
import { DatabaseUnavailableError, isConnectionFailure } from '../db/errors';
import type { Db } from '../db/types';

/**
 * The durable queue (pg-boss 10 on the application's own database). A message only says
 * "job X has work to do": what to do is read from the job's step rows, so a message delivered
 * twice, late, or after a crash does no harm (see runner.ts).
 */
export interface JobQueue {
  /** Queues a message for the job, due now or after `delaySeconds`; a higher `priority` is delivered first. */
  send(jobId: string, options?: { delaySeconds?: number; priority?: number }): Promise<void>;
  /** Calls handler for messages, `concurrency` at a time. A handler that throws gets the message retried later. */
  work(concurrency: number, handler: (jobId: string) => Promise<void>): Promise<void>;
  /** Embedded mode: closes the messages a dead process left active (its jobs are queued again at start). */
  retryOrphans(): Promise<number>;
  /** Of `jobIds`, those with a message waiting to be delivered (queued or due for a retry). */
  waitingAmong(jobIds: string[]): Promise<Set<string>>;
  /** Messages waiting for delivery: how many, and how long the oldest has waited (seconds; 0 when none). */
  depth(): Promise<{ waiting: number; oldestWaitSeconds: number }>;
  /** Stops fetching new messages; handlers already running go on. */
  stopFetching(): Promise<void>;
  stop(): Promise<void>;
}

export const QUEUE_NAME = 'lectio-conversion';

/**
 * How often a sole process's idle workers look for messages on their own: only a safety net, as
 * every message is announced to them (twice a second, three workers cost the idle server about
 * 15 ms of CPU each second: docs/adr/0051-an-idle-server-does-nothing.md).
 */
export const SOLE_PROCESS_POLL_SECONDS = 30;

export interface QueueOptions {
  /** The pg-boss queue; default QUEUE_NAME (the conversion). Other work (downloads) has its own. */
  name?: string;
  /** A dead worker's message is handed to another worker after this long. */
  expireInSeconds: number;
  /**
   * Every message comes from this process: the embedded database has one owner. Its workers are
   * then woken by `send` (at once, or by a timer when the message is due later) and after each
   * message they handle, and look on their own only every SOLE_PROCESS_POLL_SECONDS, in case.
   * With a shared database (PostgreSQL) other processes send too, and workers poll.
   */
  soleProcess?: boolean;
  /** How often workers look for messages; default 0.5 s, or SOLE_PROCESS_POLL_SECONDS for a sole process. */
  pollingIntervalSeconds?: number;
  /** How often pg-boss's maintenance finds expired messages. */
  maintenanceIntervalSeconds?: number;
  onError?: (error: Error) => void;
}

/** pg-boss through our Db: parameterless SQL may hold several statements, which only `exec` runs. */
function executeSqlOver(db: Db): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[]) {
      if (values !== undefined && values.length > 0) return db.query(text, values);
      try {
        return await db.query(text);
      } catch (error) {
        // 42601: "cannot insert multiple commands into a prepared statement".
        if ((error as { code?: string }).code !== '42601') throw error;
        await db.exec(text);
        return { rows: [] };
      }
    },
  };
}

export async function createPgBossQueue(
  connection: { db: Db } | { connectionString: string },
  options: QueueOptions,
): Promise<JobQueue> {
  const boss = new PgBoss({
    ...('db' in connection
      ? { db: executeSqlOver(connection.db) }
      : { connectionString: connection.connectionString, max: 4 }),
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
  });
  boss.on('error', (error: Error) => options.onError?.(error));
  await boss.start();
  const queueName = options.name ?? QUEUE_NAME;
  await boss.createQueue(queueName, {
    name: queueName,
    // No retries here (server/retry-policy.ts): a step's failures are retried once, inside the
    // runner's budget, and a job that finally fails completes its message normally. A message
    // whose worker died or whose handler threw is not retried either: the job keeps no live lease
    // and no waiting message, so a live worker's sweep queues it again.
    retryLimit: 0,
    expireInSeconds: options.expireInSeconds,
  });
  const sole = options.soleProcess ?? false;
  const polling = options.pollingIntervalSeconds ?? (sole ? SOLE_PROCESS_POLL_SECONDS : 0.5);
  let stopped = false;
  const sql = boss.getDb();
  /** This process's pollers: a message sent here wakes them instead of waiting for their next poll. */
  const localWorkers: string[] = [];
  const wakeAll = (): void => {
    for (const id of localWorkers) boss.notifyWorker(id);
  };
  /**
   * A sole process's delayed message: its workers are woken when it is due. The timer does not
   * keep the process alive, and one that fires after a stop finds no worker to wake.
   */
  const wakeWhenDue = (delaySeconds: number): void => {
    // A little after the message's start_after, so the fetch finds it due.
    setTimeout(wakeAll, delaySeconds * 1000 + 100).unref();
  };

  return {
    async send(jobId, sendOptions) {
      try {
        await boss.send(
          queueName,
          { jobId },
          {
            expireInSeconds: options.expireInSeconds,
            retryLimit: 0, // also where the queue was created by an older version with retries
            ...(sendOptions?.delaySeconds !== undefined && { startAfter: sendOptions.delaySeconds }),
            ...(sendOptions?.priority !== undefined && { priority: sendOptions.priority }),
          },
        );
      } catch (error) {
        // The queue lives in the database: when it cannot be reached, neither can the queue.
        throw isConnectionFailure(error) ? new DatabaseUnavailableError(error) : error;
      }
      // A message due now is fetched at once by this process's idle pollers (a busy one fetches
      // right after its job); other processes' workers find it at their next poll.
      if (!sendOptions?.delaySeconds) wakeAll();
      else if (sole && !stopped) wakeWhenDue(sendOptions.delaySeconds);
    },
    async work(concurrency, handler) {
      // pg-boss 10 has no per-worker concurrency: each work() call is one poller running one job at a time.
      for (let i = 0; i < concurrency; i += 1) {
        const id = await boss.work<{ jobId: string }>(
          queueName,
          { pollingIntervalSeconds: polling, batchSize: 1 },
          async (jobs) => {
            try {
              for (const job of jobs) await handler(job.data.jobId);
            } finally {
              // More may be waiting (sent while every worker was busy): this worker looks again
              // at once, rather than after a sole process's long interval, and so do idle ones.
              if (sole) wakeAll();
            }
          },
        );
        localWorkers.push(id);
      }
    },
    async retryOrphans() {
      const db = 'db' in connection ? connection.db : null;
      if (db === null) return 0;
      const { rows } = await db.query<{ id: string }>(
        "SELECT id FROM pgboss.job WHERE name = $1 AND state = 'active'",
        [queueName],
      );
      if (rows.length === 0) return 0;
      // Closed as failed (no retries: see createQueue); the start re-sends a message for each job
      // that should be running (index.ts), so these jobs run again at once.
      await boss.fail(
        queueName,
        rows.map((r) => r.id),
      );
      return rows.length;
    },
    async waitingAmong(jobIds) {
      if (jobIds.length === 0) return new Set();
      const { rows } = (await sql.executeSql(
        `SELECT DISTINCT data->>'jobId' AS job_id FROM pgboss.job
          WHERE name = $1 AND state IN ('created', 'retry') AND data->>'jobId' = ANY($2::text[])`,
        [queueName, jobIds],
      )) as { rows: { job_id: string }[] };
      return new Set(rows.map((r) => r.job_id));
    },
    async depth() {
      const { rows } = (await sql.executeSql(
        `SELECT count(*)::int AS waiting,
                COALESCE(EXTRACT(EPOCH FROM now() - min(start_after)), 0)::double precision AS oldest
           FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry') AND start_after <= now()`,
        [queueName],
      )) as { rows: { waiting: number; oldest: number }[] };
      return { waiting: Number(rows[0]?.waiting ?? 0), oldestWaitSeconds: Math.max(0, Number(rows[0]?.oldest ?? 0)) };
    },
    async stopFetching() {
      if (stopped) return;
      localWorkers.length = 0;
      await boss.offWork(queueName);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      localWorkers.length = 0;
      // Graceful: completions of handlers that just returned are written before the pool closes.
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 3000 });
    },
  };
}
