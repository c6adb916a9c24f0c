import type { FastifyBaseLogger } from 'fastify';
import { EncoderPool } from '../audio/encoder-pool';
import type { Config } from '../config';
import type { Db } from '../db/types';
import { LocalFileStorage } from '../storage/local';
import type { FileStorage } from '../storage/types';
import type { VoiceSettings } from '../voices/select';
import { createPgBossQueue, type JobQueue } from './queue';
import { createJobRepository } from './repository';
import { createRunner, type Runner } from './runner';
import { createJobService, type JobService } from './service';

/** Knobs tests (and the bench) turn; production uses the defaults. */
export interface ConversionOverrides {
  /** Web-page download deadline (default 15 s). */
  fetchTimeoutMs?: number;
  stepAttempts?: number;
  stepRetryDelayMs?: number;
  /** The offline engine's options, e.g. a faster speaking rate. */
  voices?: Partial<VoiceSettings>;
  storage?: FileStorage;
}

export interface Conversion {
  service: JobService;
  storage: FileStorage;
  queue: JobQueue;
  runner: Runner | null;
  /** Stops workers (running jobs resume later), the queue and the encoder threads. */
  close(): Promise<void>;
}

/**
 * Assembles the conversion engine: storage, the pg-boss queue on the app's database, the job
 * service for the routes and, with WORKERS=in-process, the runner that converts jobs here.
 */
export async function createConversion(
  config: Config,
  db: Db,
  log: FastifyBaseLogger,
  overrides: ConversionOverrides = {},
): Promise<Conversion> {
  const storage = overrides.storage ?? new LocalFileStorage(config.storageDir);
  const repo = createJobRepository(db);
  const embedded = config.databaseUrl === undefined;
  // A message may take a step's full time plus the quick steps around it (see runner.ts).
  const messageBudgetSeconds = config.jobStepTimeoutSeconds + 120;
  const queue = await createPgBossQueue(embedded ? { db } : { connectionString: config.databaseUrl! }, {
    expireInSeconds: messageBudgetSeconds,
    onError: (err) => log.warn({ err }, 'job queue error'),
  });

  let runner: Runner | null = null;
  let pool: EncoderPool | undefined;
  if (config.workers === 'in-process') {
    // Size 0 still gives a pool: it encodes in-process with WebAssembly, or with a native lame.
    pool = new EncoderPool(config.encoderThreads, { encoder: config.mp3Encoder });
    runner = createRunner({
      repo,
      storage,
      queue,
      steps: {
        voices: {
          ...(config.openaiApiKey !== undefined && { openaiApiKey: config.openaiApiKey }),
          ...(config.openaiBaseUrl !== undefined && { openaiBaseUrl: config.openaiBaseUrl }),
          ...(config.elevenlabsApiKey !== undefined && { elevenlabsApiKey: config.elevenlabsApiKey }),
          ...(config.elevenlabsBaseUrl !== undefined && { elevenlabsBaseUrl: config.elevenlabsBaseUrl }),
          ...overrides.voices,
        },
        encoderPool: pool,
        allowLoopbackFetch: config.allowPrivateFetchForTests,
        fetchTimeoutMs: overrides.fetchTimeoutMs ?? 15_000,
      },
      chapterConcurrency: config.chapterConcurrency,
      stepTimeoutSeconds: config.jobStepTimeoutSeconds,
      leaseSeconds: config.jobLeaseSeconds,
      messageBudgetSeconds,
      ...(overrides.stepAttempts !== undefined && { stepAttempts: overrides.stepAttempts }),
      ...(overrides.stepRetryDelayMs !== undefined && { stepRetryDelayMs: overrides.stepRetryDelayMs }),
      log,
    });
    const r = runner;
    if (embedded) {
      // Only one process can open the embedded database: whatever was running belonged to a dead one.
      await repo.clearAllLeases();
      const orphans = await queue.retryOrphans();
      if (orphans > 0) log.info({ orphans }, 'resuming jobs interrupted by the last shutdown');
    }
    r.start();
    await queue.work(config.workerConcurrency, (jobId) => r.handle(jobId));
    // Jobs that should be running but have no message (lost between a commit and a send) get one;
    // a duplicate message is harmless (the job's lease and step rows decide what runs).
    for (const id of await repo.runnableJobIds()) await queue.send(id);
  }

  const service = createJobService({
    repo,
    storage,
    queue,
    ...(runner !== null && { onCancelled: (ids: string[]) => runner.notifyCancelled(ids) }),
  });

  let closed = false;
  return {
    service,
    storage,
    queue,
    runner,
    async close() {
      if (closed) return;
      closed = true;
      await runner?.stop();
      await queue.stop();
      await pool?.close();
    },
  };
}
