import Fastify, { type FastifyInstance } from 'fastify';
import { createPasswordHasher, type ScryptCost } from './auth/passwords';
import { createHashingQueue } from './auth/hashing-queue';
import { createPasswordChecker, type PasswordChecker } from './auth/password-check';
import { shutdownDeadlineMs } from './process';
import { createAuthService } from './auth/service';
import { createLoginThrottle } from './auth/throttle';
import { createTokenService } from './auth/tokens';
import { ACCOUNT_CHANGES_CHANNEL, cachedUserLookups, type CachedUserRepository } from './auth/user-cache';
import { createUserRepository } from './auth/users';
import { createAccountDeletion } from './auth/account-deletion';
import { createMailer } from './auth/mail';
import { createPasswordResets } from './auth/password-resets';
import type { Config } from './config';
import { migrate } from './db/migrate';
import { openDatabase } from './db/open';
import type { Db } from './db/types';
import { environmentInfo } from './environment/info';
import { installCors } from './http/cross-origin';
import { installErrorHandler } from './http/errors';
import { acceptEmptyJsonBodies } from './http/json-body';
import { installRateLimit } from './http/rate-limit';
import { installSecurityHeaders } from './http/security-headers';
import { idleWhileWorking, serverOptions } from './http/server-options';
import { installNotFound, installSpa } from './http/spa';
import { createZodSerializerCompiler, zodValidatorCompiler } from './http/zod';
import { createListeningService, deriveMediaSecret } from './listening/service';
import { createFinishedBooks } from './listening/transcript';
import { createCoverService } from './listening/covers';
import { EncoderPool } from './audio/encoder-pool';
import { createPronunciationRepository } from './pronunciations/repository';
import { createPronunciationService } from './pronunciations/service';
import { createProgressRepository } from './progress/repository';
import { createProgressService } from './progress/service';
import { convertsNatively, createConversion, type Conversion, type ConversionOverrides } from './jobs/index';
import { createExports } from './exports/index';
import { createMediaTagger } from './exports/media-tags';
import { createFeedRepository } from './feeds/repository';
import { createFeedService, deriveFeedSecret } from './feeds/service';
import { createListCache, JOB_CHANGES_CHANNEL, listenForChanges, type ListCache } from './jobs/list-cache';
import { keepFinishedBooks } from './jobs/kept-books';
import { apiRoutes } from './routes/index';
import { publicFeedRoutes } from './routes/feeds';
import type { AccountDeps } from './routes/auth';
import { createListeningHistory } from './assistant/library';
import { createConversationRepository } from './assistant/conversations';
import { openAiEngines } from './assistant/openai';
import { createVoiceAssistant, offlineEngines, type AssistantEngines } from './assistant/service';
import type { TtsEngine } from './tts/types';
import { withModel, withoutModel } from './assistant/model';
import { openStorage, type FileStorage } from './storage/index';
import { createVoiceSamples } from './voices/samples';
import { conversionMetricsHook, readinessChecks } from './ops/checks';
import { createMetrics } from './ops/metrics';
import { loggerOptions, type LogDestination } from './ops/logger';
import { installOps, requestId, requestLogController } from './ops/routes';

export interface AppDeps {
  /** A database to use instead of opening the configured one; the caller keeps ownership (closes it). */
  db?: Db;
  /** The clock for timestamps, token expiry and throttling windows. */
  now?: () => Date;
  /**
   * Lower scrypt cost, FOR TESTS ONLY (hashing at OWASP cost takes ~0.3 s). Production never
   * passes it, so it hashes at OWASP parameters. Hashes record their cost, so they verify anywhere.
   */
  passwordCost?: ScryptCost;
  /** Stored files (uploads, audio); defaults to the configured store (STORAGE_URL, else STORAGE_DIR). */
  storage?: FileStorage;
  /** Conversion-engine knobs for tests and benches (timeouts, retry delays, voice options). */
  conversion?: ConversionOverrides;
  /** Where the log's lines go instead of standard output (tests read them), at LOG_LEVEL. */
  logDestination?: LogDestination;
  /**
   * A password-strength checker to use instead of one of the app's own (the test kit shares one
   * between the many apps of a test process); the caller keeps ownership (closes it).
   */
  passwordChecker?: PasswordChecker;
}

/** Places in the password hashing queue (running or waiting) one client address may hold. */
const HASHING_PLACES_PER_ADDRESS = 2;

/** Fastify's default; routes that take larger bodies set their own `bodyLimit`. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The database (unless given), closed with the app, and migrated. */
async function openAppDatabase(app: FastifyInstance, config: Config, deps: AppDeps): Promise<Db> {
  const db =
    deps.db ??
    (await openDatabase(config, (message, err) => app.log.warn({ err }, message), {
      baselineCompiler: convertsNatively(config),
    }));
  if (deps.db === undefined)
    app.addHook('onClose', async function closeDatabase() {
      await db.close();
    });
  try {
    await migrate(db);
  } catch (error) {
    await app.close();
    throw error;
  }
  return db;
}

/**
 * What is kept in memory until the database announces it changed (JOB_LIST_CACHE): job-list pages
 * and finished books (jobs/list-cache.ts), and the accounts requests are checked against
 * (auth/user-cache.ts). Each listens on a connection of its own until the app closes.
 */
async function keepUntilChanged(
  app: FastifyInstance,
  config: Config,
  db: Db,
  listCache: ListCache,
  users: CachedUserRepository,
): Promise<void> {
  if (!config.jobListCache) return;
  const stops = [
    await listenForChanges(db, JOB_CHANGES_CHANNEL, listCache),
    await listenForChanges(db, ACCOUNT_CHANGES_CHANNEL, users),
  ];
  app.addHook('preClose', async function stopChangeListeners() {
    await Promise.all(stops.map((stop) => stop()));
  });
}

/** Sign-up, sign-in and sessions: the users, their passwords' hashing and checks, their tokens. */
function createAuth(app: FastifyInstance, config: Config, deps: AppDeps, db: Db, now: () => Date) {
  const passwordChecker = deps.passwordChecker ?? createPasswordChecker();
  if (deps.passwordChecker === undefined) {
    app.addHook('onClose', async function stopPasswordChecker() {
      await passwordChecker.close();
    });
  }
  const users = cachedUserLookups(createUserRepository(db));
  const auth = createAuthService({
    users,
    resets: createPasswordResets(db, { ttlSeconds: config.passwordResetTtlSeconds, now }),
    passwordChecker,
    passwords: createPasswordHasher(deps.passwordCost),
    tokens: createTokenService({ secret: config.jwtSecret, ttlSeconds: config.tokenTtlSeconds, now }),
    throttle: createLoginThrottle({
      windowSeconds: config.loginWindowSeconds,
      maxAttempts: config.loginMaxAttempts,
      now,
    }),
    hashing: createHashingQueue({
      concurrency: config.passwordHashConcurrency,
      maxQueued: config.passwordHashQueue,
      maxPerAddress: HASHING_PLACES_PER_ADDRESS,
    }),
    signupEnabled: config.signupEnabled,
    now,
  });
  return { auth, users };
}

/** What every answer goes through: JSON bodies, zod, errors, security headers, CORS; the ops routes. */
async function installHttp(
  app: FastifyInstance,
  config: Config,
  parts: {
    metrics: ReturnType<typeof createMetrics>;
    db: Db;
    storage: FileStorage;
    conversion: Conversion;
    voiceAssistant: ReturnType<typeof createVoiceAssistant>;
  },
): Promise<void> {
  const { metrics, db, storage, conversion, voiceAssistant } = parts;
  // The API speaks JSON only: text/plain bodies get 415 instead of failing validation as strings.
  app.removeContentTypeParser('text/plain');
  acceptEmptyJsonBodies(app);
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(createZodSerializerCompiler({ strict: config.appEnv !== 'production', log: app.log }));
  installErrorHandler(app);
  installSecurityHeaders(app, { otherOriginsAllowed: config.corsOrigins.length > 0 });
  installNotFound(app, config.staticDir);
  await installCors(app, config);
  metrics.setSources({ voiceSessions: () => voiceAssistant.openConnections() });
  installOps(app, {
    metrics,
    metricsPublic: config.metricsPublic,
    ...(config.metricsToken !== undefined && { metricsToken: config.metricsToken }),
    ...readinessChecks(metrics, db, storage, conversion),
  });
}

/** The account routes' dependencies: deleting an account, preferences, voice checks, reset emails. */
function accountDeps(
  app: FastifyInstance,
  config: Config,
  parts: {
    users: ReturnType<typeof createAuth>['users'];
    auth: ReturnType<typeof createAuth>['auth'];
    conversion: Conversion;
    storage: FileStorage;
  },
): AccountDeps {
  const { users, auth, conversion, storage } = parts;
  const mailer = config.mail === null ? null : createMailer(config.mail.smtpUrl, config.mail.from);
  if (mailer !== null)
    app.addHook('onClose', async function closeMailer() {
      mailer.close();
    });
  return {
    deleteAccount: createAccountDeletion({
      users,
      jobs: conversion.repo.jobs,
      uploads: conversion.repo.uploads,
      storage,
      cancelJob: (userId, jobId) => conversion.service.cancel(userId, jobId),
      onDeleted: (userId) => auth.forget(userId),
      log: app.log,
    }),
    preferences: users,
    checkVoice: (provider, voiceId) => conversion.catalog.choose(provider, voiceId),
    resetMail:
      mailer === null || config.mail === null
        ? null
        : {
            mailer,
            origin: config.mail.origin,
            ttlSeconds: config.passwordResetTtlSeconds,
            perEmailPerHour: config.passwordResetsPerHour,
          },
  };
}

/**
 * The composition root: opens the database (unless given), migrates it, chooses every adapter
 * and registers the routes. It does not listen; main.ts (or a test with app.inject) does.
 */
export async function createApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const now = deps.now ?? (() => new Date());
  const app = Fastify({
    logger: loggerOptions(config.logLevel, deps.logDestination),
    bodyLimit: DEFAULT_BODY_LIMIT,
    ...serverOptions(config),
    // Request ids and the one-line-per-request log come from server/ops/routes.ts.
    genReqId: requestId,
    logController: requestLogController(),
    // Fastify gives each closing hook as long as a plugin gets to load (10 s by default). Handing
    // running jobs back waits up to SHUTDOWN_GRACE_SECONDS by design, so a hook may take that long:
    // closing is bounded by the process's own shutdown deadline instead (server/process.ts).
    pluginTimeout: shutdownDeadlineMs(config.shutdownGraceSeconds),
  });
  idleWhileWorking(app);

  const db = await openAppDatabase(app, config, deps);

  const { auth, users } = createAuth(app, config, deps, db, now);

  // One storage for every route: uploads, the pipeline's audio and the media URLs that serve it.
  const storage = deps.storage ?? (await openStorage(config));
  const listCache = createListCache();
  await keepUntilChanged(app, config, db, listCache, users);

  // The conversion engine (queue + in-process workers). preClose: running jobs stop (and resume
  // later) before the database closes.
  const metrics = createMetrics();
  const conversion = await createConversion(
    config,
    db,
    app.log,
    { ...deps.conversion, storage },
    conversionMetricsHook(metrics),
    now,
  );
  app.addHook('preClose', async function handBackRunningJobs() {
    await conversion.close();
  });

  // Books are read through server/books' reader, which the jobs module's repository (the table's one owner) implements.
  const books = conversion.repo.jobs;
  const progressRepository = createProgressRepository(db);
  // Finished books read once for a listener's stream answer and all their saves.
  const keptBooks = keepFinishedBooks(books, listCache);
  const progress = createProgressService({ repository: progressRepository, jobs: keptBooks, now });
  const listening = createListeningService({
    books: keptBooks,
    progress: progressRepository,
    storage,
    mediaSecret: deriveMediaSecret(config.jwtSecret),
    mediaUrlTtlSeconds: config.mediaUrlTtlSeconds,
    now,
  });

  // Voice samples are encoded by the conversion's encoders, or by one thread of their own where
  // this process converts nothing (WORKERS=none), started with the first sample made.
  let samplePool: EncoderPool | undefined;
  const samples = createVoiceSamples({
    voices: conversion.voices,
    storage,
    pool: () => conversion.encoderPool ?? (samplePool ??= new EncoderPool(1)),
  });
  app.addHook('onClose', async function stopSampleEncoder() {
    await samplePool?.close();
  });
  // Downloads (M4B, MP3, ZIP, EPUB) built on their own queue, and the private podcast feeds.
  const { transcripts, bookSource } = createFinishedBooks({ books: keptBooks, progress: progressRepository, storage });
  const exports = await createExports({ config, db, storage, books: bookSource, log: app.log, now });
  app.addHook('preClose', async function stopExports() {
    await exports.close();
  });
  const feeds = createFeedService({
    repo: createFeedRepository(db),
    books: exports.books,
    covers: exports.covers,
    storage,
    finishedVersions: (userId, jobId) => books.finishedVersions(userId, jobId),
    titles: (userId, jobIds) => books.titles(userId, jobIds),
    secret: deriveFeedSecret(config.jwtSecret),
  });
  // The streaming route's MP3s carry the same ID3 tags as the downloads once their book is finished.
  const mediaTags = createMediaTagger({
    jobs: books,
    books: exports.books,
    covers: exports.covers,
    changes: listCache,
    onError: (err, key) => app.log.warn({ err, key }, 'no ID3 tag for a streamed file'),
  });

  // The voice assistant: per-user sessions and their conversations (its websocket is a route).
  const voiceAssistant = createVoiceAssistant({
    books: bookSource,
    history: createListeningHistory(progressRepository, books),
    conversations: createConversationRepository(db),
    recapAfterMinutes: config.recapAfterMinutes,
    log: app.log,
    engines: assistantEngines(config, conversion.offlineVoice),
  });

  await installHttp(app, config, { metrics, db, storage, conversion, voiceAssistant });

  const account = accountDeps(app, config, { users, auth, conversion, storage });
  await installRateLimit(app);
  await app.register(
    apiRoutes({
      auth,
      authLimits: { perMinute: config.authRateLimitPerMinute, signupPerHour: config.signupRateLimitPerHour },
      account,
      environment: environmentInfo(config, conversion.voiceServer),
      storage,
      progress,
      listening,
      transcripts,
      exports: exports.service,
      mediaTags,
      feeds,
      covers: createCoverService({ books, storage }),
      jobs: conversion.service,
      reconverter: conversion.reconverter,
      cast: conversion.cast,
      voices: { catalog: conversion.catalog, samples },
      pronunciations: createPronunciationService(createPronunciationRepository(db)),
      voiceAssistant,
      urls: config,
      strictResponses: config.appEnv !== 'production',
      listCache,
    }),
    { prefix: '/api/v1' },
  );
  await app.register(publicFeedRoutes, {
    feeds,
    storage,
    urls: config,
    limits: { perFeed: config.feedRateLimitPerFeed, perAddress: config.feedRateLimitPerAddress },
  });
  if (config.staticDir !== undefined) await installSpa(app, config.staticDir);

  return app;
}

/**
 * The voice assistant's engines: offline by default; speech-to-text, a chat model and cloud speech
 * with an OpenAI key; answers from ASSISTANT_MODEL_URL when it is set (the offline brain stands in
 * when it fails).
 */
function assistantEngines(config: Config, offlineVoice: TtsEngine): AssistantEngines {
  const openaiKey = config.openaiApiKey;
  const openai = openaiKey !== undefined && openaiKey !== '';
  const base = openai
    ? openAiEngines({
        apiKey: openaiKey,
        ...(config.openaiBaseUrl !== undefined && { baseURL: config.openaiBaseUrl }),
      })
    : offlineEngines(offlineVoice);
  // No chat model at all: offline answers, and the client is told what they can do (NO_MODEL_NOTICE).
  if (config.assistantModel === undefined) return openai ? base : withoutModel(base);
  const { url, model, key, timeoutSeconds } = config.assistantModel;
  // The fallback is always the offline brain, whatever answers normally.
  return withModel(
    { ...base, brain: offlineEngines(offlineVoice).brain },
    { url, model, ...(key !== undefined && { key }), timeoutMs: timeoutSeconds * 1000 },
  );
}
