/**
 * Builds downloads from the export queue (its own pg-boss queue beside the conversion's). A
 * message names an `exports` row; the worker claims its lease (one builder at a time), builds the
 * file into an atomic storage writer while reporting progress, and records it. Like jobs:
 * - a cancel (the row removed) is seen within half a second: the build stops, the partial file is
 *   discarded by its writer;
 * - stopping the process releases running builds to the queue for another worker;
 * - a worker that dies stops renewing its lease; the sweep of any live worker queues the build
 *   again once the lease lapses (and queued builds whose message was lost).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../jobs/queue';
import { exportKey } from '../jobs/storage-keys';
import type { Scratch } from '../storage/scratch';
import type { FileStorage } from '../storage/types';
import type { BookSource } from './book';
import type { CoverMaker } from './cover';
import { buildEpub } from './epub';
import type { Ffmpeg } from './ffmpeg';
import { BUILDERS, EXTENSIONS, type BuildContext } from './formats';
import type { ExportRecord, ExportRepository } from './repository';

const SHUTDOWN = 'shutdown';
const CANCELLED = 'cancelled';

export interface ExportWorkerOptions {
  repo: ExportRepository;
  storage: FileStorage;
  books: BookSource;
  covers: CoverMaker;
  ffmpeg: () => Ffmpeg;
  scratch: Scratch;
  queue: Pick<JobQueue, 'send'>;
  leaseSeconds: number;
  log?: FastifyBaseLogger;
}

export function createExportWorker(options: ExportWorkerOptions) {
  const { repo, storage } = options;
  const workerId = randomUUID();
  const active = new Map<string, AbortController>();
  const inFlight = new Set<Promise<void>>();
  let watcher: NodeJS.Timeout | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  let stopping = false;

  async function build(record: ExportRecord, signal: AbortSignal): Promise<{ key: string; size: number }> {
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

  async function run(id: string): Promise<void> {
    if (active.has(id)) return;
    const record = await repo.claim(id, workerId, options.leaseSeconds);
    if (record === null) return;
    const controller = new AbortController();
    active.set(id, controller);
    const heartbeat = setInterval(
      () => void repo.renew(id, workerId, options.leaseSeconds).catch(() => undefined),
      (options.leaseSeconds * 1000) / 3,
    );
    const began = Date.now();
    try {
      const { key, size } = await build(record, controller.signal);
      if (!(await repo.complete(id, workerId, key, size))) {
        // Cancelled (or removed with its book) just as it finished: nothing may stay behind.
        await storage.delete(key).catch(() => undefined);
        return;
      }
      options.log?.info(
        { exportId: id, jobId: record.jobId, format: record.format, bytes: size, seconds: (Date.now() - began) / 1000 },
        'download built',
      );
    } catch (error) {
      if (controller.signal.reason === SHUTDOWN) {
        await repo.release(id, workerId).catch(() => undefined);
        await options.queue.send(id).catch(() => undefined);
        return;
      }
      if (controller.signal.reason === CANCELLED) return;
      const message = error instanceof Error && error.message ? error.message : 'The download could not be built';
      options.log?.warn({ exportId: id, jobId: record.jobId, format: record.format, err: error }, 'download failed');
      await repo.fail(id, workerId, message);
    } finally {
      clearInterval(heartbeat);
      active.delete(id);
    }
  }

  async function watchCancellations(): Promise<void> {
    const ids = [...active.keys()];
    if (ids.length === 0) return;
    for (const id of await repo.stoppedAmong(ids)) active.get(id)?.abort(CANCELLED);
  }

  async function sweep(): Promise<void> {
    for (const id of await repo.orphaned(options.leaseSeconds)) {
      if (!active.has(id)) await options.queue.send(id);
    }
  }

  return {
    workerId,
    /** The queue's handler. */
    async handle(id: string): Promise<void> {
      if (stopping) {
        await options.queue.send(id);
        return;
      }
      const p = run(id);
      inFlight.add(p);
      try {
        await p;
      } finally {
        inFlight.delete(p);
      }
    },
    /** The process that served a cancel stops the build at once. */
    notifyCancelled(id: string): void {
      active.get(id)?.abort(CANCELLED);
    },
    start(): void {
      watcher = setInterval(() => void watchCancellations().catch(() => undefined), 500);
      watcher.unref();
      sweeper = setInterval(
        () => void sweep().catch((err: unknown) => options.log?.warn({ err }, 'export sweep failed')),
        (options.leaseSeconds * 1000) / 2,
      );
      sweeper.unref();
    },
    async stop(): Promise<void> {
      stopping = true;
      clearInterval(watcher);
      clearInterval(sweeper);
      for (const controller of active.values()) controller.abort(SHUTDOWN);
      await Promise.allSettled([...inFlight]);
    },
    runningCount: () => active.size,
  };
}

export type ExportWorker = ReturnType<typeof createExportWorker>;
