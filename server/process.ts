import type { FastifyBaseLogger } from 'fastify';
import { isConnectionFailure, isDatabaseUnavailable } from './db/errors';

/**
 * How long after the first signal the same signal again is taken for a copy of it rather than a
 * new request. A signal often arrives twice: `kill -TERM` to a process group (the README's
 * `kill -TERM %3`, a terminal's Ctrl-C, a container runtime) reaches both npm and node, and npm
 * passes its copy on to node a few milliseconds later. A SIGTERM is a supervisor's request, which
 * repeats itself: every SIGTERM within SIGTERM_REPEAT_MS is the same shutdown. A SIGINT comes from a
 * person pressing Ctrl-C: its copy arrives within milliseconds, while a person's second press
 * (meaning "now") comes later.
 */
export const SIGTERM_REPEAT_MS = 5_000;
export const SIGINT_REPEAT_MS = 300;

/**
 * How long closing may take in all after a shutdown signal: the grace the running work gets
 * (SHUTDOWN_GRACE_SECONDS), plus a margin for handing jobs back and closing the database.
 */
export const shutdownDeadlineMs = (graceSeconds: number): number => (graceSeconds + 5) * 1000;

/**
 * Closes gracefully on the first SIGINT or SIGTERM (new work is refused, running jobs are handed
 * back to the queue, in-flight requests finish), then exits: 0 when closing worked, 1 when it
 * failed. Closing is bounded: when it has not finished `graceSeconds` plus a margin after the
 * signal, the process exits anyway (1). A copy of the first signal (see SIGTERM_REPEAT_MS) is
 * the same request; a later SIGTERM, or a person's second SIGINT, exits at once. A job
 * interrupted that way is not lost: its lease lapses and a live worker's sweep queues it again.
 * Returns what undoes it: the handlers removed and a pending deadline cleared (a process that
 * carries on, as a test runner's does, is never ended by a deadline set for a shutdown it saw).
 */
export function exitOnSignals(
  log: FastifyBaseLogger,
  message: string,
  close: () => Promise<unknown>,
  graceSeconds = 10,
  now: () => number = () => Date.now(),
): () => void {
  let first: { signal: NodeJS.Signals; at: number } | null = null;
  let deadline: NodeJS.Timeout | undefined;
  const shutdown = (signal: NodeJS.Signals) => {
    if (first !== null) {
      const window = signal === 'SIGINT' ? SIGINT_REPEAT_MS : SIGTERM_REPEAT_MS;
      if (signal === first.signal && now() - first.at < window) {
        log.info({ signal }, 'the same signal again: already shutting down');
        return;
      }
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
      return; // one deadline per shutdown, also where exit is intercepted (a test runner's stub)
    }
    first = { signal, at: now() };
    log.info({ signal, graceSeconds }, message);
    deadline = setTimeout(() => {
      log.error({ graceSeconds }, 'shutdown took too long: exiting now');
      process.exit(1);
    }, shutdownDeadlineMs(graceSeconds));
    deadline.unref();
    close().then(
      () => {
        clearTimeout(deadline);
        log.info('shutdown complete');
        process.exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        console.error('Error while shutting down:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  return () => {
    clearTimeout(deadline);
    process.off('SIGINT', shutdown);
    process.off('SIGTERM', shutdown);
  };
}

/**
 * The queue library (pg-boss 10) writes a finished message's completion without awaiting it, so
 * when the database goes away at that moment the failure surfaces as an unhandled rejection, which
 * would end the process. A lost database connection is survivable (the message is delivered
 * again later, and a job's own rows decide what runs), so such a rejection is logged; any other
 * unhandled rejection still ends the process, as Node does by default.
 */
export function surviveDatabaseOutages(log: FastifyBaseLogger): void {
  process.on('unhandledRejection', (reason) => {
    if (isConnectionFailure(reason) || isDatabaseUnavailable(reason)) {
      log.warn({ err: reason }, 'the database could not be reached for a background write; it is retried later');
      return;
    }
    console.error('Unhandled promise rejection:', reason);
    process.exit(1);
  });
}
