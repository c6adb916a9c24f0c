import type { FastifyBaseLogger } from 'fastify';
import { EncoderPool } from '../audio/encoder-pool';
import type { Config } from '../config';
import type { Db } from '../db/types';
import { LocalFileStorage, openStorage } from '../storage/index';
import { createStorageHealth, type StorageHealth } from '../storage/health';
import { createScratch, lowestFreeBytes } from '../storage/scratch';
import { createEspeakEngine, type EspeakEngine, type EspeakOptions } from '../tts/espeak';
import { nativeSpeechLikely } from '../tts/espeak-host-build';
import { chooseSpeechPath, type SpeechPath } from '../tts/speech-paths';
import type { FileStorage } from '../storage/types';
import { createPronunciationRepository, type PronunciationRepository } from '../pronunciations/repository';
import type { VoiceSettings } from '../tts/select';
import { createVoiceServer, type VoiceServer, type VoiceServerOptions } from '../tts/voice-server';
import { createVoiceCatalog, type VoiceCatalog } from '../voices/catalog';
import { attributeInThread } from '../cast/attribute-in-thread';
import { castModelCheck } from '../cast/model-check';
import { createCastService, type CastService } from '../cast/service';
import { createPgBossQueue, type JobQueue } from './queue';
import { createJobRepository, type JobRepository } from './repository';
import { createRunner, type Runner } from './runner';
import type { JobEvent } from './step-run';
import { createQuotas, quotaLimits, type Quotas } from './quotas';
import { createReconverter, type Reconverter } from './reconvert';
import { createScheduler, type Scheduler } from './scheduler';
import { createJobService, type JobService } from './service';
import { createFetchSlots } from './steps';

/** Knobs tests (and the bench) turn; production uses the defaults. */
export interface ConversionOverrides {
  /** Web-page download deadline (default 15 s). */
  fetchTimeoutMs?: number;
  stepAttempts?: number;
  stepRetryDelayMs?: number;
  /** The cloud voices' settings (keys, addresses, retries). */
  voices?: Partial<Omit<VoiceSettings, 'offline'>>;
  /** The offline engine's options, e.g. a faster speaking rate. */
  offlineVoice?: Pick<EspeakOptions, 'rate' | 'maxCharsPerRequest'>;
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
  /** Full-cast books: who speaks each quote and in which voice, and the listener's corrections. */
  cast: CastService;
  /** The MP3 encoders of this process's conversions (none when it only queues jobs). */
  encoderPool: EncoderPool | undefined;
  /** How the offline voice speaks and encodes here, chosen once at start (ESPEAK_ENGINE). */
  speech: SpeechPath;
  /** The offline voice (eSpeak-NG on that path): conversions, stand-ins, the voice assistant. */
  offlineVoice: EspeakEngine;
  /** Stops workers (running jobs are handed back to the queue for another worker), the queue and the encoder threads. */
  close(): Promise<void>;
}

/**
 * Whether the offline voice will take its native path (ESPEAK_ENGINE not 'portable', and its host
 * built or buildable here): then the offline voice compiles no WebAssembly that needs V8's
 * optimising compiler, and the embedded database's may be compiled with the baseline compiler
 * only (server/db/pglite.ts).
 */
export function convertsNatively(config: Pick<Config, 'espeakEngine'>): boolean {
  return config.espeakEngine !== 'portable' && nativeSpeechLikely();
}

/** The file store, its half-written files of a stopped process cleaned, and its free-space floor. */
async function openConversionStorage(
  config: Config,
  log: FastifyBaseLogger,
  overrides: ConversionOverrides,
): Promise<{ storage: FileStorage; storageHealth: StorageHealth }> {
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
  return { storage, storageHealth };
}

/** The voices this process reads with: the cloud voices' keys, the voice server, the offline voice. */
function conversionVoices(
  config: Config,
  log: FastifyBaseLogger,
  overrides: ConversionOverrides,
  offlineVoice: EspeakEngine,
): { voices: VoiceSettings; voiceServer: VoiceServer | undefined } {
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
  const voices: VoiceSettings = {
    ...(voiceServer !== undefined && { voiceServer }),
    ...(config.openaiApiKey !== undefined && { openaiApiKey: config.openaiApiKey }),
    ...(config.openaiBaseUrl !== undefined && { openaiBaseUrl: config.openaiBaseUrl }),
    ...(config.elevenlabsApiKey !== undefined && { elevenlabsApiKey: config.elevenlabsApiKey }),
    ...(config.elevenlabsBaseUrl !== undefined && { elevenlabsBaseUrl: config.elevenlabsBaseUrl }),
    ...overrides.voices,
    offline: offlineVoice,
    retry: { ...overrides.voices?.retry, onRetry },
  };
  return { voices, voiceServer };
}

/**
 * WORKERS=in-process: the MP3 encoders and the runner that converts jobs here, started; jobs a dead
 * process left are resumed and jobs without a message get one.
 */
async function startRunner(deps: {
  config: Config;
  log: FastifyBaseLogger;
  overrides: ConversionOverrides;
  hooks: { onJobEvent?: (event: JobEvent) => void };
  speech: SpeechPath;
  repo: JobRepository;
  storage: FileStorage;
  queue: JobQueue;
  scheduler: Scheduler;
  quotas: Quotas;
  embedded: boolean;
  messageBudgetSeconds: number;
  steps: { voices: VoiceSettings; pronunciations: PronunciationRepository; fetchTimeoutMs: number; cast: CastService };
}): Promise<{ runner: Runner; pool: EncoderPool }> {
  const { config, log, overrides, hooks, speech, repo, storage, queue, scheduler, quotas, embedded } = deps;
  const { messageBudgetSeconds, steps } = deps;
  // Size 0 still gives a pool: it encodes in-process with the same LAME WebAssembly.
  const pool = new EncoderPool(config.encoderThreads);
  log.info(
    {
      offline_voice: `eSpeak-NG, ${speech.name} path`,
      offline_encoder: speech.encoder,
      mp3_encoder: pool.describe(),
    },
    'offline voice and MP3 encoder',
  );
  const runner = createRunner({
    repo,
    storage,
    queue,
    steps: {
      ...steps,
      encoderPool: pool,
      allowLoopbackFetch: config.allowPrivateFetchForTests,
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
  if (embedded) {
    // Only one process can open the embedded database: whatever was running belonged to a dead one.
    await runner.recoverAbandoned();
    const orphans = await queue.retryOrphans();
    if (orphans > 0) log.info({ orphans }, 'resuming jobs interrupted by the last shutdown');
  }
  await runner.start();
  // Jobs that should be running but have no message (lost between a commit and a send) get one;
  // a duplicate message is harmless (the job's lease and step rows decide what runs).
  for (const id of await repo.jobs.runnableJobIds()) await queue.send(id);
  await scheduler.dispatch();
  return { runner, pool };
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
  // The offline voice's path, once: ESPEAK_ENGINE=native where its host cannot be built stops the
  // start here, saying why; 'auto' takes the portable path then and says why in the log.
  const speech = await chooseSpeechPath(config.espeakEngine, (reason) =>
    log.warn({ reason }, 'the offline voice takes the portable path (WebAssembly): the native one cannot run here'),
  );
  const offlineVoice = createEspeakEngine({ path: speech, ...overrides.offlineVoice });
  const { storage, storageHealth } = await openConversionStorage(config, log, overrides);
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

  const { voices, voiceServer } = conversionVoices(config, log, overrides, offlineVoice);
  // The fair queue in front of the workers: per-user running limit, users in turn (scheduler.ts).
  const scheduler = createScheduler({ repo, queue, runningLimit: config.quotaRunningJobs, log });
  if (config.quotaActiveJobsDeprecated) {
    log.warn(
      { QUOTA_ACTIVE_JOBS: config.quotaQueuedJobs },
      'QUOTA_ACTIVE_JOBS is deprecated: it now sets QUOTA_QUEUED_JOBS (jobs a user may have waiting or converting); jobs past QUOTA_RUNNING_JOBS wait in the queue instead of being refused. Rename it to QUOTA_QUEUED_JOBS',
    );
  }

  const catalog = createVoiceCatalog(voices);
  const pronunciations = createPronunciationRepository(db);
  const fetchTimeoutMs = overrides.fetchTimeoutMs ?? config.urlFetchTimeoutSeconds * 1000;
  const reconverter = createReconverter({
    repo,
    storage,
    dispatch: () => scheduler.dispatch(),
    quotas,
    storageHealth,
    pronunciations,
  });
  const cast = createCastService({
    storage,
    catalog,
    repo,
    reconverter,
    attribute: attributeInThread,
    checkWithModel: castModelCheck(config, log),
  });
  let runner: Runner | null = null;
  let pool: EncoderPool | undefined;
  if (config.workers === 'in-process') {
    ({ runner, pool } = await startRunner({
      config,
      log,
      overrides,
      hooks,
      speech,
      repo,
      storage,
      queue,
      scheduler,
      quotas,
      embedded,
      messageBudgetSeconds,
      steps: { voices, pronunciations, fetchTimeoutMs, cast },
    }));
  }

  const service = createJobService({
    repo,
    storage,
    queue,
    voices,
    fetch: { allowLoopback: config.allowPrivateFetchForTests, timeoutMs: fetchTimeoutMs },
    quotas,
    chooseVoice: (provider, voiceId) => catalog.choose(provider, voiceId),
    catalog,
    scheduler,
    storageHealth,
    ...(runner !== null && { onCancelled: (ids: string[]) => runner.notifyCancelled(ids) }),
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
    cast,
    encoderPool: pool,
    speech,
    offlineVoice,
    async close() {
      if (closed) return;
      closed = true;
      // Take no new messages, hand running jobs back to the queue for other workers, then stop.
      await queue.stopFetching().catch((err: unknown) => log.warn({ err }, 'could not stop fetching jobs'));
      await runner?.stop(config.shutdownGraceSeconds * 1000);
      await queue.stop();
      await pool?.close();
      await speech.close();
    },
  };
}
