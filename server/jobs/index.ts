import type { FastifyBaseLogger } from 'fastify';
import { EncoderPool } from '../audio/encoder-pool';
import { detectNativeLame } from '../audio/lame-native';
import type { Config } from '../config';
import type { Db } from '../db/types';
import { LocalFileStorage, openStorage } from '../storage/index';
import { createStorageHealth, type StorageHealth } from '../storage/health';
import { createScratch, lowestFreeBytes } from '../storage/scratch';
import {
  closeEspeakHosts,
  closeEspeakWasmPool,
  detectNativeEspeak,
  keepNativeEspeakRunning,
  useOfflineBackend,
} from '../tts/espeak';
import type { FileStorage } from '../storage/types';
import { createPronunciationRepository } from '../pronunciations/repository';
import type { VoiceSettings } from '../tts/select';
import { createVoiceServer, type VoiceServer, type VoiceServerOptions } from '../tts/voice-server';
import { createVoiceCatalog, type VoiceCatalog } from '../voices/catalog';
import { createPgBossQueue, type JobQueue } from './queue';
import { createJobRepository, type JobRepository } from './repository';
import { createRunner, type Runner } from './runner';
import type { JobEvent } from './step-run';
import { createQuotas, quotaLimits } from './quotas';
import { createReconverter, type Reconverter } from './reconvert';
import { createScheduler } from './scheduler';
import { createJobService, type JobService } from './service';
import { createFetchSlots } from './steps';

/** Knobs tests (and the bench) turn; production uses the defaults. */
export interface ConversionOverrides {
  /** Web-page download deadline (default 15 s). */
  fetchTimeoutMs?: number;
  stepAttempts?: number;
  stepRetryDelayMs?: number;
  /** The offline engine's options, e.g. a faster speaking rate. */
  voices?: Partial<VoiceSettings>;
  /** The voice server's retry delays, deadlines and how long its voice list is trusted. */
  voiceServer?: Pick<VoiceServerOptions, 'retry' | 'timeoutMs' | 'listTimeoutMs' | 'refreshMs'>;
  storage?: FileStorage;
}

export interface Conversion {
  service: JobService;
  /** The one repository of the jobs tables; other domains (listening, progress, the assistant, ops) read jobs through it. */
  repo: JobRepository;
  storage: FileStorage;
  queue: JobQueue;
  /** The file store's free-space floor: readiness and the 507 of new uploads and jobs. */
  storageHealth: StorageHealth;
  runner: Runner | null;
  /** The voices this process can read with (keys, the offline engine, the voice server). */
  voices: VoiceSettings;
  /** Every voice usable now, by source; the check of a new job's voice. */
  catalog: VoiceCatalog;
  /** The voice server beside Lectio (TTS_SERVER_URL), when there is one. */
  voiceServer: VoiceServer | undefined;
  /** Converts again the chapters of a finished book whose pronunciations changed. */
  reconverter: Reconverter;
  /** The MP3 encoders of this process's conversions (none when it only queues jobs). */
  encoderPool: EncoderPool | undefined;
  /** Stops workers (running jobs are handed back to the queue for another worker), the queue and the encoder threads. */
  close(): Promise<void>;
}

/**
 * Whether the offline voice and the MP3 encoder run as native programs (ESPEAK_ENGINE and
 * MP3_ENCODER not 'wasm', and the programs on PATH): then the process compiles no WebAssembly
 * that needs V8's optimising compiler, and the embedded database's may be compiled with the
 * baseline compiler only (server/db/pglite.ts).
 */
export function convertsNatively(config: Pick<Config, 'espeakEngine' | 'mp3Encoder'>): boolean {
  return (
    config.espeakEngine !== 'wasm' &&
    config.mp3Encoder !== 'wasm' &&
    detectNativeEspeak() !== null &&
    detectNativeLame() !== null
  );
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
  hooks: { onJobEvent?: (event: JobEvent) => void } = {},
  now: () => Date = () => new Date(),
): Promise<Conversion> {
  // ESPEAK_ENGINE=native without the binary stops the start here, saying so.
  const offlineVoice = useOfflineBackend(config.espeakEngine);
  if (offlineVoice.backend === 'native') {
    // eSpeak-NG kept running is built in the background (once, then cached); it needs a C
    // compiler and libespeak-ng's headers, and without them each request starts espeak-ng.
    void keepNativeEspeakRunning(config.espeakKeepRunning)?.then((build) => {
      if (build.binary === null) {
        log.warn(
          { reason: build.reason },
          'the offline voice starts espeak-ng for each request: eSpeak-NG cannot be kept running here',
        );
      } else if (!build.encodes) {
        log.info(
          'the eSpeak-NG hosts were built without LAME (no libmp3lame-dev): the speech is encoded by lame processes',
        );
      }
    });
  }
  const storage = overrides.storage ?? (await openStorage(config));
  const scratch = createScratch(storage, config.dataDir);
  // Half-written files and build scratch of a process that died (a crash, kill -9) are removed at
  // start (with local storage both live in its temp area). A storage that cannot be read does not
  // stop the start: /readyz reports it.
  try {
    const removed = await (storage instanceof LocalFileStorage
      ? storage.removeOrphanedTempFiles()
      : scratch.removeOrphaned());
    if (removed > 0) log.info({ removed }, 'removed half-written files left by a stopped process');
  } catch (error) {
    log.warn({ err: error }, 'could not clean half-written files from storage');
  }
  // Builds need room on the scratch disk as well as in the store: the floor holds for both.
  const storageHealth = createStorageHealth(
    { freeBytes: () => lowestFreeBytes(storage, scratch) },
    config.storageMinFreeBytes,
  );
  const repo = createJobRepository(db);
  const quotas = createQuotas(repo, quotaLimits(config), now);
  const embedded = config.databaseUrl === undefined;
  // A message may take a step's full time plus the quick steps around it (see runner.ts).
  const messageBudgetSeconds = config.jobStepTimeoutSeconds + 120;
  const queue = await createPgBossQueue(embedded ? { db } : { connectionString: config.databaseUrl! }, {
    expireInSeconds: messageBudgetSeconds,
    soleProcess: embedded,
    onError: (err) => log.warn({ err }, 'job queue error'),
  });

  // Each retry of a voice request is logged with its cause (the one retry policy, server/retry-policy.ts).
  const onRetry = (retry: object) => log.warn(retry, 'voice request failed; retrying');
  const voiceServer =
    config.voiceServer === undefined
      ? undefined
      : createVoiceServer({
          ...config.voiceServer,
          ...overrides.voiceServer,
          retry: { ...overrides.voiceServer?.retry, onRetry },
        });
  // The fair queue in front of the workers: per-user running limit, users in turn (scheduler.ts).
  const scheduler = createScheduler({ repo, queue, runningLimit: config.quotaRunningJobs, log });
  if (config.quotaActiveJobsDeprecated) {
    log.warn(
      { QUOTA_ACTIVE_JOBS: config.quotaQueuedJobs },
      'QUOTA_ACTIVE_JOBS is deprecated: it now sets QUOTA_QUEUED_JOBS (jobs a user may have waiting or converting); jobs past QUOTA_RUNNING_JOBS wait in the queue instead of being refused. Rename it to QUOTA_QUEUED_JOBS',
    );
  }

  const voices: VoiceSettings = {
    ...(voiceServer !== undefined && { voiceServer }),
    ...(config.openaiApiKey !== undefined && { openaiApiKey: config.openaiApiKey }),
    ...(config.openaiBaseUrl !== undefined && { openaiBaseUrl: config.openaiBaseUrl }),
    ...(config.elevenlabsApiKey !== undefined && { elevenlabsApiKey: config.elevenlabsApiKey }),
    ...(config.elevenlabsBaseUrl !== undefined && { elevenlabsBaseUrl: config.elevenlabsBaseUrl }),
    ...overrides.voices,
    ...(overrides.voices?.offline !== undefined && {
      offline: { backend: config.espeakEngine, ...overrides.voices.offline },
    }),
    retry: { ...overrides.voices?.retry, onRetry },
  };
  const catalog = createVoiceCatalog(voices);
  const pronunciations = createPronunciationRepository(db);
  const fetchTimeoutMs = overrides.fetchTimeoutMs ?? config.urlFetchTimeoutSeconds * 1000;
  let runner: Runner | null = null;
  let pool: EncoderPool | undefined;
  if (config.workers === 'in-process') {
    // Size 0 still gives a pool: it encodes in-process with WebAssembly, or with a native lame.
    pool = new EncoderPool(config.encoderThreads, { encoder: config.mp3Encoder });
    log.info(
      { offline_voice: `eSpeak-NG ${offlineVoice.backend}`, mp3_encoder: pool.describe() },
      'offline voice and MP3 encoder',
    );
    runner = createRunner({
      repo,
      storage,
      queue,
      steps: {
        voices,
        pronunciations,
        encoderPool: pool,
        allowLoopbackFetch: config.allowPrivateFetchForTests,
        fetchTimeoutMs,
        fetchSlots: createFetchSlots(config.urlFetchConcurrency),
        quotas,
      },
      chapterConcurrency: config.chapterConcurrency,
      concurrency: config.workerConcurrency,
      stepTimeoutSeconds: config.jobStepTimeoutSeconds,
      leaseSeconds: config.jobLeaseSeconds,
      messageBudgetSeconds,
      scheduler,
      ...(overrides.stepAttempts !== undefined && { stepAttempts: overrides.stepAttempts }),
      ...(overrides.stepRetryDelayMs !== undefined && { stepRetryDelayMs: overrides.stepRetryDelayMs }),
      log,
      ...(hooks.onJobEvent !== undefined && { onJobEvent: hooks.onJobEvent }),
    });
    const r = runner;
    if (embedded) {
      // Only one process can open the embedded database: whatever was running belonged to a dead one.
      await r.recoverAbandoned();
      const orphans = await queue.retryOrphans();
      if (orphans > 0) log.info({ orphans }, 'resuming jobs interrupted by the last shutdown');
    }
    await r.start();
    // Jobs that should be running but have no message (lost between a commit and a send) get one;
    // a duplicate message is harmless (the job's lease and step rows decide what runs).
    for (const id of await repo.jobs.runnableJobIds()) await queue.send(id);
    await scheduler.dispatch();
  }

  const service = createJobService({
    repo,
    storage,
    queue,
    voices,
    fetch: { allowLoopback: config.allowPrivateFetchForTests, timeoutMs: fetchTimeoutMs },
    quotas,
    chooseVoice: (provider, voiceId) => catalog.choose(provider, voiceId),
    scheduler,
    storageHealth,
    ...(runner !== null && { onCancelled: (ids: string[]) => runner.notifyCancelled(ids) }),
  });
  const reconverter = createReconverter({
    repo,
    storage,
    dispatch: () => scheduler.dispatch(),
    quotas,
    storageHealth,
    pronunciations,
  });

  let closed = false;
  return {
    service,
    repo,
    storage,
    queue,
    storageHealth,
    runner,
    voices,
    catalog,
    voiceServer,
    reconverter,
    encoderPool: pool,
    async close() {
      if (closed) return;
      closed = true;
      // Take no new messages, hand running jobs back to the queue for other workers, then stop.
      await queue.stopFetching().catch((err: unknown) => log.warn({ err }, 'could not stop fetching jobs'));
      await runner?.stop(config.shutdownGraceSeconds * 1000);
      await queue.stop();
      await pool?.close();
      await closeEspeakWasmPool();
      await closeEspeakHosts();
    },
  };
}
