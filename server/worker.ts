import Fastify from 'fastify';
import { ConfigError, loadConfig, type Config } from './config';
import { migrate } from './db/migrate';
import { openDatabase } from './db/open';
import { convertsNatively, createConversion } from './jobs/index';
import { createExports } from './exports/index';
import { createFinishedBooks } from './listening/transcript';
import { createProgressRepository } from './progress/repository';
import { conversionMetricsHook, readinessChecks } from './ops/checks';
import { createMetrics } from './ops/metrics';
import { loggerOptions } from './ops/logger';
import { installOps, requestId, requestLogController } from './ops/routes';
import { exitOnSignals, surviveDatabaseOutages } from './process';
import { openStorage } from './storage/index';

/**
 * A conversion worker without the HTTP API: `npm run worker` (scripts/worker.mjs runs it compiled, dist-server/worker.mjs).
 * Runs jobs and download builds from the shared queues, each under a lease (server/work/leased-worker.ts); needs DATABASE_URL, because the embedded database can only be
 * opened by one process (the server, which then converts jobs itself with WORKERS=in-process).
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = { ...loadConfig(), workers: 'in-process' as const };
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Lectio worker cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  if (config.databaseUrl === undefined) {
    console.error(
      "Lectio worker cannot start: set DATABASE_URL to the server's PostgreSQL database. The embedded database (DATA_DIR/db) can only be opened by one process; without DATABASE_URL the server converts jobs itself (WORKERS=in-process).",
    );
    process.exit(1);
  }
  // Fastify (pino) logs in the API's format; it listens only with OPS_PORT, for /healthz, /readyz and /metrics.
  const ops = Fastify({
    logger: loggerOptions(config.logLevel),
    genReqId: requestId,
    logController: requestLogController(),
  });
  const log = ops.log;
  surviveDatabaseOutages(log);
  const db = await openDatabase(config, (message, err) => log.warn({ err }, message), {
    baselineCompiler: convertsNatively(config),
  });
  await migrate(db);
  const metrics = createMetrics();
  const storage = await openStorage(config);
  const conversion = await createConversion(config, db, log, { storage }, conversionMetricsHook(metrics));
  // Downloads (M4B, MP3, ZIP, EPUB) are built here too, from finished books as server/books reads them.
  const books = conversion.repo.jobs;
  const exports = await createExports({
    config,
    db,
    storage,
    books: createFinishedBooks({ books, progress: createProgressRepository(db), storage }).bookSource,
    log,
  });
  let opsUrl: string | undefined;
  if (config.opsPort !== undefined) {
    installOps(ops, {
      metrics,
      metricsPublic: config.metricsPublic,
      ...(config.metricsToken !== undefined && { metricsToken: config.metricsToken }),
      ...readinessChecks(metrics, db, storage, conversion),
    });
    opsUrl = await ops.listen({ port: config.opsPort, host: config.host });
  }
  log.info(
    {
      concurrency: config.workerConcurrency,
      workerId: conversion.runner?.workerId,
      exportWorkerId: exports.worker?.workerId,
      opsUrl,
    },
    'Lectio worker is running',
  );

  exitOnSignals(
    log,
    'worker shutting down: handing running jobs and download builds back to the queue',
    () =>
      ops
        .close()
        .then(() => exports.close())
        .then(() => conversion.close())
        .then(() => db.close()),
    config.shutdownGraceSeconds,
  );
}

main().catch((error: unknown) => {
  console.error('Lectio worker failed to start:', error);
  process.exit(1);
});
