/**
 * Builds downloads from the export queue (its own pg-boss queue beside the conversion's). A
 * message names an `exports` row; the worker claims its lease (one builder at a time), builds the
 * file into an atomic storage writer while reporting progress, and records it. The lease's loop is
 * the leased worker's (../work/leased-worker.ts), the conversion runner's too; so, like jobs:
 * - a cancel (the row removed) is seen within half a second: the build stops, the partial file is
 *   discarded by its writer;
 * - stopping the process hands running builds back to the queue for another worker (from 0 %);
 * - a store that is down is waited out (the build is queued again later), and so is a database
 *   that does not answer (the worker keeps the lease and builds again once it answers);
 * - a worker that dies stops renewing its lease; the sweep of any live worker queues the build
 *   again once the lease lapses (and queued builds whose message was lost); in embedded mode,
 *   builds a stopped process left half-done are queued again at start (`recoverAbandoned`).
 */
import type { FastifyBaseLogger } from 'fastify';
import { exportKey } from '../jobs/storage-keys';
import type { Scratch } from '../storage/scratch';
import type { FileStorage } from '../storage/types';
import { createLeasedWorker, type LeasedWork, type WorkQueue } from '../work/leased-worker';
import type { BookSource } from '../books/source';
import type { CoverMaker } from './cover';
import { buildEpub } from './epub';
import type { Ffmpeg } from './ffmpeg';
import { BUILDERS, EXTENSIONS, type BuildContext } from './download-formats';
import type { ExportRecord, ExportRepository } from './repository';

export interface ExportWorkerOptions {
  repo: ExportRepository;
  storage: FileStorage;
  books: BookSource;
  covers: CoverMaker;
  ffmpeg: () => Ffmpeg;
  scratch: Scratch;
  queue: WorkQueue;
  /** Builds run at once in this process. */
  concurrency: number;
  leaseSeconds: number;
  log?: FastifyBaseLogger;
}

export function createExportWorker(options: ExportWorkerOptions) {
  const { repo, storage, log } = options;

  async function build(
    record: ExportRecord,
    signal: AbortSignal,
    workerId: string,
  ): Promise<{ key: string; size: number }> {
    const book = await options.books.book(record.userId, record.jobId);
    if (book.version !== record.sourceVersion)
      throw new Error('The book was converted again; ask for the download again');
    const cover = await options.covers.jpeg(book, signal);
    const key = exportKey(record.jobId, record.format, EXTENSIONS[record.format]);
    const writer = await storage.createWriter(key);
    let last = { at: 0, progress: 0 };
    const ctx: BuildContext = {
      book,
      storage,
      writer,
      cover,
      ffmpeg: options.ffmpeg,
      scratch: options.scratch,
      books: options.books,
      signal,
      async report(fraction) {
        const progress = Math.floor(Math.max(0, Math.min(1, fraction)) * 100);
        const now = Date.now();
        if (progress <= last.progress || (now - last.at < 500 && progress - last.progress < 5)) return;
        last = { at: now, progress };
        await repo.progress(record.id, workerId, progress);
      },
    };
    try {
      await (record.format === 'epub' ? buildEpub(ctx) : BUILDERS[record.format](ctx));
      signal.throwIfAborted();
      const { size } = await writer.commit();
      return { key, size };
    } catch (error) {
      await writer.abort().catch(() => undefined);
      throw error;
    }
  }

  const work: LeasedWork<ExportRecord> = {
    noun: 'download build',
    fields: (exportId, record) => ({
      exportId,
      ...(record !== undefined && { jobId: record.jobId, userId: record.userId, format: record.format }),
    }),
    claim: (id, owner, seconds) => repo.claim(id, owner, seconds),
    renew: (id, owner, seconds) => repo.renew(id, owner, seconds),
    release: (id, owner) => repo.release(id, owner),
    async run(id, record, signal, owner) {
      const began = Date.now();
      const { key, size } = await build(record, signal, owner);
      if (!(await repo.complete(id, owner, key, size))) {
        // Cancelled (or removed with its book) just as it finished: nothing may stay behind.
        await storage.delete(key).catch(() => undefined);
        return;
      }
      log?.info(
        { exportId: id, jobId: record.jobId, format: record.format, bytes: size, seconds: (Date.now() - began) / 1000 },
        'download built',
      );
    },
    async failed(id, record, error, owner) {
      const message = error instanceof Error && error.message ? error.message : 'The download could not be built';
      log?.warn({ exportId: id, jobId: record.jobId, format: record.format, err: error }, 'download failed');
      await repo.fail(id, owner, message);
    },
    stoppedAmong: (ids) => repo.stoppedAmong(ids),
    // Lapsed leases and queued builds untouched for a lease period (a lost message) alike.
    abandoned: () => repo.orphaned(options.leaseSeconds),
    releaseAbandoned: () => repo.releaseAbandoned(),
    probe: () => repo.orphaned(options.leaseSeconds),
  };

  const worker = createLeasedWorker({
    work,
    queue: options.queue,
    concurrency: options.concurrency,
    leaseSeconds: options.leaseSeconds,
    ...(log !== undefined && { log }),
  });

  return {
    workerId: worker.workerId,
    /** The queue's handler. */
    handle: worker.handle,
    /** Embedded mode, before `start`: builds a stopped process left half-done are queued again now. */
    recoverAbandoned: worker.recoverAbandoned,
    /** Starts the cancel watch and the sweep, and takes the queue's messages. */
    start: worker.start,
    /** The process that served a cancel stops the build at once. */
    notifyCancelled: (id: string) => worker.notifyCancelled([id]),
    /** Hands running builds back to the queue and waits up to `graceMs` for them to stop. */
    stop: worker.stop,
    runningCount: worker.runningCount,
  };
}

export type ExportWorker = ReturnType<typeof createExportWorker>;
