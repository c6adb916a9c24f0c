import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from './queue';
import type { JobRepository } from './repository';

/**
 * The fair queue in front of the workers. A new (or retried) top-level job waits (PENDING, not
 * handed over) until its user has fewer than QUOTA_RUNNING_JOBS jobs handed over and unfinished;
 * then `dispatch` marks it handed over and sends its queue message. Users take turns: a waiting
 * job's turn is its place among its user's waiting jobs plus that user's running ones, and lower
 * turns go first (a reader's first job before another reader's third), older first within a turn.
 *
 * Dispatch runs wherever the state changes: after a job is created, retried or cancelled (the
 * API), after a job ends (the worker that ran it), and on every worker's sweep (so a message lost
 * in a crash delays a job by one sweep at most). Concurrent dispatches take turns on a database
 * lock, so a job is never handed over twice; within a process they are coalesced.
 */
export interface Scheduler {
  dispatch(): Promise<void>;
}

export function createScheduler(deps: {
  repo: Pick<JobRepository, 'transaction'>;
  queue: Pick<JobQueue, 'send'>;
  runningLimit: number;
  log?: FastifyBaseLogger;
}): Scheduler {
  let running: Promise<void> | null = null;
  let again = false;

  async function once(): Promise<void> {
    const picked = await deps.repo.transaction((tx) => tx.dispatchWaiting(deps.runningLimit));
    for (const { id, turn } of picked) {
      // Lower turns first among messages waiting for a worker.
      await deps.queue.send(id, { priority: Math.max(0, 100 - turn) });
    }
    if (picked.length > 0) deps.log?.debug({ jobs: picked.length }, 'queued jobs handed to the workers');
  }

  return {
    async dispatch() {
      if (running !== null) {
        again = true;
        return running;
      }
      running = (async () => {
        try {
          do {
            again = false;
            await once();
          } while (again);
        } finally {
          running = null;
        }
      })();
      return running;
    },
  };
}
