/**
 * Composition of the downloads (called from app.ts; server/worker.ts runs the builder alone): the
 * `exports` repository, the export queue (pg-boss, its own queue on the app's database) and, with
 * WORKERS=in-process, the worker that builds files here.
 */
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/types';
import { createPgBossQueue, type JobQueue } from '../jobs/queue';
import { createQuotas, quotaLimits } from '../jobs/quotas';
import { createJobRepository } from '../jobs/repository';
import { createScratch } from '../storage/scratch';
import type { FileStorage } from '../storage/types';
import type { BookSource } from '../books/source';
import { createCoverMaker, type CoverMaker } from './cover';
import { locateFfmpeg, type Ffmpeg } from './ffmpeg';
import { createExportRepository } from './repository';
import { createExportService, type ExportService } from './service';
import { createExportWorker, type ExportWorker } from './worker';

export const EXPORT_QUEUE = 'lectio-export';

export interface Exports {
  service: ExportService;
  books: BookSource;
  covers: CoverMaker;
  worker: ExportWorker | null;
  close(): Promise<void>;
}

/** Download links are signed with a key derived from the token secret (never the secret itself). */
export function deriveDownloadSecret(jwtSecret: Uint8Array): Buffer {
  return createHmac('sha256', Buffer.from(jwtSecret)).update('lectio download links v1').digest();
}

export async function createExports(deps: {
  config: Config;
  db: Db;
  storage: FileStorage;
  /** Finished books as downloads are made from them (server/books). */
  books: BookSource;
  log: FastifyBaseLogger;
  now?: () => Date;
}): Promise<Exports> {
  const { config, db, storage, log } = deps;
  const repo = createExportRepository(db);
  // Downloads count in their reader's storage quota, and so do the covers made for them.
  const jobs = createJobRepository(db);
  const quotas = createQuotas(jobs, quotaLimits(config), deps.now ?? (() => new Date()));
  const { books } = deps;
  let ffmpeg: Ffmpeg | undefined;
  // Looked up on first use: a server that never builds a download never needs one.
  const findFfmpeg = () => (ffmpeg ??= locateFfmpeg(config.exportFfmpeg));
  const scratch = createScratch(storage, config.dataDir);
  const covers = createCoverMaker({
    storage,
    ffmpeg: findFfmpeg,
    scratch,
    kept: (bookId, bytes) => jobs.jobs.keepCoverBytes(bookId, 'jpeg', bytes),
  });
  const embedded = config.databaseUrl === undefined;
  const queue: JobQueue = await createPgBossQueue(embedded ? { db } : { connectionString: config.databaseUrl! }, {
    name: EXPORT_QUEUE,
    expireInSeconds: config.jobStepTimeoutSeconds + 120,
    soleProcess: embedded,
    onError: (err) => log.warn({ err }, 'export queue error'),
  });
  let worker: ExportWorker | null = null;
  if (config.workers === 'in-process') {
    worker = createExportWorker({
      repo,
      storage,
      books,
      covers,
      ffmpeg: findFfmpeg,
      scratch,
      queue,
      // One build at a time per process: a build keeps a core busy (ffmpeg) or streams a whole book.
      concurrency: 1,
      leaseSeconds: config.jobLeaseSeconds,
      log,
    });
    if (embedded) {
      // Builds a stopped process left half-done start again now, from 0 %, not once their lease lapses.
      await worker.recoverAbandoned();
      await queue.retryOrphans();
    }
    await worker.start();
  }
  const service = createExportService({
    repo,
    books,
    storage,
    queue,
    quotas,
    secret: deriveDownloadSecret(config.jwtSecret),
    linkTtlSeconds: config.mediaUrlTtlSeconds,
    now: deps.now ?? (() => new Date()),
    ...(worker !== null && { onCancelled: (id: string) => worker.notifyCancelled(id) }),
  });
  let closed = false;
  return {
    service,
    books,
    covers,
    worker,
    async close() {
      if (closed) return;
      closed = true;
      await queue.stopFetching().catch(() => undefined);
      await worker?.stop();
      await queue.stop();
    },
  };
}
