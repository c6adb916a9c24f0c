import type { FastifyBaseLogger } from 'fastify';

/**
 * Closes gracefully on the first SIGINT or SIGTERM (running jobs are stopped so they resume
 * later), then exits: 0 when closing worked, 1 when it failed.
 */
export function exitOnSignals(log: FastifyBaseLogger, message: string, close: () => Promise<unknown>): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, message);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Error while shutting down:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
