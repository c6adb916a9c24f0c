import type { FastifyBaseLogger } from 'fastify';

/**
 * Closes gracefully on the first SIGINT or SIGTERM (new work is refused, running jobs are handed
 * back to the queue, in-flight requests finish), then exits: 0 when closing worked, 1 when it
 * failed. Closing is bounded: when it has not finished `graceSeconds` plus a margin after the
 * signal, the process exits anyway (1), and a second signal exits at once. A job interrupted that
 * way is not lost: its lease lapses and a live worker's sweep queues it again.
 */
export function exitOnSignals(
  log: FastifyBaseLogger,
  message: string,
  close: () => Promise<unknown>,
  graceSeconds = 10,
): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    log.info({ signal, graceSeconds }, message);
    const deadline = setTimeout(
      () => {
        log.error({ graceSeconds }, 'shutdown took too long: exiting now');
        process.exit(1);
      },
      (graceSeconds + 5) * 1000,
    );
    deadline.unref();
    close().then(
      () => {
        log.info('shutdown complete');
        process.exit(0);
      },
      (error: unknown) => {
        console.error('Error while shutting down:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
