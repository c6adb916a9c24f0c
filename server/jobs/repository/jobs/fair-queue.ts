/**
 * The fair queue's queries on the jobs table (../../scheduler.ts decides when to run them): which
 * waiting top-level jobs are handed to the workers (enqueued_at set), and how many jobs start
 * before each one still waiting.
 */
import type { DbExecutor } from '../../../db/types';

/** The scheduler's lock (the two-key form, apart from the owners' and pg-boss's locks). */
const SCHEDULER_LOCK_SPACE = 7416;

/**
 * Waiting top-level jobs (PENDING, not yet handed to the workers) with their turn: the job's place
 * among its user's waiting jobs plus the user's jobs handed over and unfinished.
 */
export const WAITING_TURNS = `WITH waiting AS (
    SELECT id, user_id, created_at, row_number() OVER (PARTITION BY user_id ORDER BY created_at, id) AS place
      FROM jobs WHERE parent_job_id IS NULL AND status = 'PENDING' AND enqueued_at IS NULL
  ), running AS (
    SELECT user_id, count(*) AS n FROM jobs
     WHERE parent_job_id IS NULL AND status IN ('PENDING', 'PROCESSING') AND enqueued_at IS NOT NULL
     GROUP BY user_id
  ), turns AS (
    SELECT w.id, w.created_at, w.place + COALESCE(r.n, 0) AS turn FROM waiting w LEFT JOIN running r USING (user_id)
  )`;

export function jobFairQueue(x: DbExecutor) {
  return {
    /**
     * Hands waiting top-level jobs to the workers, fairly: each waiting job's turn is its place
     * among its user's waiting jobs plus the user's jobs already handed over and unfinished; jobs
     * whose turn is within `runningLimit` are marked handed over (enqueued_at), lowest turn first,
     * then oldest. Run it in a transaction: a lock makes concurrent schedulers take turns.
     */
    async dispatchWaiting(runningLimit: number): Promise<{ id: string; turn: number }[]> {
      await x.query('SELECT pg_advisory_xact_lock($1, 0)', [SCHEDULER_LOCK_SPACE]);
      const { rows } = await x.query<{ id: string; turn: string | number }>(
        `${WAITING_TURNS} SELECT id, turn FROM turns WHERE turn <= $1 ORDER BY turn, created_at, id LIMIT 500`,
        [runningLimit],
      );
      const picked = rows.map((r) => ({ id: r.id, turn: Number(r.turn) }));
      if (picked.length > 0) {
        await x.query('UPDATE jobs SET enqueued_at = now() WHERE id = ANY($1::uuid[])', [picked.map((p) => p.id)]);
      }
      return picked;
    },

    /**
     * For each of `jobIds` still waiting for its turn: how many jobs start before it (those handed
     * over and not yet started, and the waiting ones with an earlier turn, of every user).
     */
    async queuePositions(jobIds: string[]): Promise<Map<string, number>> {
      if (jobIds.length === 0) return new Map();
      const { rows } = await x.query<{ id: string; ahead: string | number }>(
        `${WAITING_TURNS}
         SELECT t.id,
                (SELECT count(*) FROM jobs h WHERE h.parent_job_id IS NULL AND h.status = 'PENDING' AND h.enqueued_at IS NOT NULL)
              + (SELECT count(*) FROM turns o WHERE (o.turn, o.created_at, o.id) < (t.turn, t.created_at, t.id)) AS ahead
           FROM turns t WHERE t.id = ANY($1::uuid[])`,
        [jobIds],
      );
      return new Map(rows.map((r) => [r.id, Number(r.ahead)]));
    },
  };
}
