/**
 * Downloads of a finished book, as the routes see them: each format's state, starting a build,
 * cancelling it, and what to send for a download (202 while it builds, the kept file once ready).
 * A download is the owner's: asked with their token, or through a link signed for them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../errors';
import type { JobQueue } from '../jobs/queue';
import type { Quotas } from '../jobs/quotas';
import type { FileStorage } from '../storage/types';
import type { BookSource, ExportBook } from '../books/source';
import { contentDisposition, safeName } from './filename';
import { CONTENT_TYPES, EXTENSIONS } from './download-formats';
import { EXPORT_FORMATS, type ExportFormat, type ExportRecord, type ExportRepository } from './repository';
import { estimateExportBytes, reserveExport } from './space';

export type ExportState = 'none' | 'queued' | 'building' | 'ready' | 'failed';

export interface ExportView {
  format: ExportFormat;
  status: ExportState;
  progress: number;
  filename: string;
  sizeBytes: number | null;
  /** A signed path to the ready file (GET /audio/{jobId}/download?...). */
  downloadPath: string | null;
  errorMessage: string | null;
  updatedAt: Date | null;
}

export type Download =
  | { kind: 'building'; status: ExportState; progress: number; retryAfterSeconds: number }
  | { kind: 'ready'; key: string; size: number; contentType: string; disposition: string };

export interface ExportService {
  list(userId: string, jobId: string): Promise<ExportView[]>;
  start(userId: string, jobId: string, format: ExportFormat): Promise<ExportView>;
  cancel(userId: string, jobId: string, format: ExportFormat): Promise<void>;
  /** With the owner's id (bearer token) or a signed link's `expires` and `sig`. */
  download(
    who: { userId: string } | { expires: string | undefined; sig: string | undefined },
    jobId: string,
    format: ExportFormat,
  ): Promise<Download>;
}

/** How long a client waits before asking again about a download being built. */
export const RETRY_AFTER_SECONDS = 3;

function signature(secret: Buffer, jobId: string, format: string, expires: string): string {
  return createHmac('sha256', secret).update(`download\n${jobId}\n${format}\n${expires}`).digest('base64url');
}

export function createExportService(deps: {
  repo: ExportRepository;
  books: BookSource;
  storage: FileStorage;
  queue: Pick<JobQueue, 'send'>;
  /** The owner's storage quota: a build reserves its size, evicting older downloads to make room (./space.ts). */
  quotas: Pick<Quotas, 'withStorageLock'>;
  /** Signs download links (derived from the token secret, like media links). */
  secret: Buffer;
  linkTtlSeconds: number;
  now: () => Date;
  onCancelled?: (exportId: string) => void;
}): ExportService {
  const { repo, books } = deps;

  function signedPath(jobId: string, format: ExportFormat): string {
    const expires = String(Math.floor(deps.now().getTime() / 1000) + deps.linkTtlSeconds);
    const sig = signature(deps.secret, jobId, format, expires);
    return `/api/v1/audio/${jobId}/download?format=${format}&expires=${expires}&sig=${sig}`;
  }

  function view(book: ExportBook, format: ExportFormat, record: ExportRecord | null): ExportView {
    const live = record !== null && record.sourceVersion === book.version;
    const status: ExportState = live ? (record.status as ExportState) : 'none';
    return {
      format,
      status,
      progress: status === 'ready' ? 100 : live ? record.progress : 0,
      filename: `${safeName(book.title)}.${EXTENSIONS[format]}`,
      sizeBytes: status === 'ready' ? record!.sizeBytes : null,
      downloadPath: status === 'ready' ? signedPath(book.id, format) : null,
      errorMessage: status === 'failed' ? record!.errorMessage : null,
      updatedAt: live ? record.updatedAt : null,
    };
  }

  async function start(book: ExportBook, format: ExportFormat): Promise<ExportRecord> {
    const { record, queued, freedKeys } = await reserveExport(deps.quotas, {
      jobId: book.id,
      userId: book.userId,
      format,
      sourceVersion: book.version,
      reservedBytes: await estimateExportBytes(deps.storage, book, format),
    });
    for (const key of freedKeys) await deps.storage.delete(key).catch(() => undefined);
    if (queued) await deps.queue.send(record.id);
    return record;
  }

  function verify(jobId: string, format: ExportFormat, expires: string | undefined, sig: string | undefined): void {
    if (expires === undefined || sig === undefined || !/^(0|[1-9][0-9]{0,15})$/.test(expires)) {
      throw new DomainError('unauthenticated', 'Sign in, or use a download link from the app');
    }
    const expected = Buffer.from(signature(deps.secret, jobId, format, expires));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new DomainError('forbidden', 'Invalid link');
    }
    if (Math.floor(deps.now().getTime() / 1000) >= Number(expires)) {
      throw new DomainError('forbidden', 'This link has expired');
    }
  }

  return {
    async list(userId, jobId) {
      const book = await books.book(userId, jobId);
      const records = await repo.list(book.id);
      return EXPORT_FORMATS.map((format) => view(book, format, records.find((r) => r.format === format) ?? null));
    },

    async start(userId, jobId, format) {
      const book = await books.book(userId, jobId);
      return view(book, format, await start(book, format));
    },

    async cancel(userId, jobId, format) {
      const book = await books.book(userId, jobId);
      const existing = await repo.find(book.id, format);
      const removed = await repo.remove(book.id, format);
      if (existing !== null) deps.onCancelled?.(existing.id);
      if (removed?.fileKey) await deps.storage.delete(removed.fileKey).catch(() => undefined);
    },

    async download(who, jobId, format) {
      let userId: string;
      if ('userId' in who) userId = who.userId;
      else {
        verify(jobId, format, who.expires, who.sig);
        const signedFor = (await repo.find(jobId, format))?.userId;
        if (signedFor === undefined) throw new DomainError('not_found', 'This download is no longer kept');
        userId = signedFor;
      }
      const book = await books.book(userId, jobId);
      let record = await repo.find(book.id, format);
      if (record === null || record.sourceVersion !== book.version || record.status === 'failed') {
        record = await start(book, format);
      }
      if (record.status === 'ready' && record.fileKey !== null) {
        const stat = await deps.storage.stat(record.fileKey);
        if (stat !== null) {
          return {
            kind: 'ready',
            key: record.fileKey,
            size: stat.size,
            contentType: CONTENT_TYPES[format],
            disposition: contentDisposition(book.title, EXTENSIONS[format]),
          };
        }
        // The kept file is gone (storage wiped): build it again.
        await repo.remove(book.id, format);
        record = await start(book, format);
      }
      return {
        kind: 'building',
        status: record.status as ExportState,
        progress: record.progress,
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      };
    },
  };
}
