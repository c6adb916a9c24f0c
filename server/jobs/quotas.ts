import type { Config } from '../config';
import type { DbExecutor } from '../db/types';
import { DomainError } from '../errors';
import type { JobRepository, JobStore } from './repository';

/**
 * Per-user limits (QUOTA_* variables): storage, queued jobs and uploads per hour (the running
 * limit, QUOTA_RUNNING_JOBS, is the scheduler's: further jobs wait rather than being refused). A refused
 * request is told which limit it met and how to get under it; other users are never affected.
 *
 * Storage counts every byte the user's data holds (JobStore.storageUsed): uploads (their text,
 * cover and what was read of the book), each job's own text and cover, the audio and timing maps
 * of finished jobs (a book's joined audio and every chapter's), the covers made of finished books,
 * and downloads. Space is reserved before the work that writes it, not only checked: the row that
 * counts new bytes is written in the same transaction, under the user's lock, as the check. A
 * conversion reserves an estimate of its audio up front (./space.ts), replaced by the true size of
 * what it wrote when it finishes; failed, cancelled and deleted jobs hold no reservation.
 */
export interface QuotaLimits {
  storageBytes: number;
  /** Jobs one user may have waiting or converting (QUOTA_QUEUED_JOBS). */
  queuedJobs: number;
  uploadsPerHour: number;
}

/** The limits the configuration sets (QUOTA_STORAGE_BYTES, QUOTA_QUEUED_JOBS, QUOTA_UPLOADS_PER_HOUR). */
export function quotaLimits(
  config: Pick<Config, 'quotaStorageBytes' | 'quotaQueuedJobs' | 'quotaUploadsPerHour'>,
): QuotaLimits {
  return {
    storageBytes: config.quotaStorageBytes,
    queuedJobs: config.quotaQueuedJobs,
    uploadsPerHour: config.quotaUploadsPerHour,
  };
}

const HOUR_MS = 3600_000;

/** What a refusal speaks of: a book (chapters) or a single text. */
export type SpaceUser = 'book' | 'text';

export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1024) return `${(mb / 1024).toFixed(mb >= 10 * 1024 ? 0 : 1)} GB`;
  if (mb >= 1) return `${mb >= 10 ? Math.round(mb) : mb.toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function createQuotas(repo: JobRepository, limits: QuotaLimits, now: () => Date) {
  const storageUsed = (userId: string): Promise<number> => repo.storageUsed(userId);

  /** The refusal of a conversion (or a retry) that would pass the quota: the estimate and the space left, in words. */
  function conversionRefused(what: SpaceUser, needBytes: number, used: number): DomainError {
    const left = limits.storageBytes - used;
    const room = left > 0 ? `you have ${formatBytes(left)} left` : 'you have no space left';
    return new DomainError(
      'quota_exceeded',
      `This ${what} needs about ${formatBytes(needBytes)}; ${room} of your ${formatBytes(limits.storageBytes)} storage. Delete books you no longer need to make room`,
    );
  }

  function refuseStorage(used: number, extraBytes: number): void {
    if (used + extraBytes <= limits.storageBytes) return;
    const need = extraBytes > 0 ? ` and this needs ${formatBytes(extraBytes)} more` : '';
    throw new DomainError(
      'quota_exceeded',
      `Storage limit reached: you use ${formatBytes(used)} of your ${formatBytes(limits.storageBytes)} storage limit${need}. Delete books or uploaded files to free space`,
    );
  }

  return {
    limits,
    storageUsed,

    /** What the user's data holds (reservations included) and their quota, in bytes. */
    async storageUse(userId: string): Promise<{ usedBytes: number; quotaBytes: number }> {
      return { usedBytes: await storageUsed(userId), quotaBytes: limits.storageBytes };
    },

    /**
     * Reserves `extraBytes` of the user's storage quota, or refuses (413). Run it in the transaction
     * that inserts the row counting those bytes (the upload, or the job with its `source_bytes`):
     * it locks the user's quota until that transaction ends, so concurrent requests of one user are
     * counted one after the other and the sum accepted never exceeds the quota.
     */
    async reserveStorage(tx: JobStore, userId: string, extraBytes: number): Promise<void> {
      await tx.lockOwner(userId);
      refuseStorage(await tx.storageUsed(userId), extraBytes);
    },

    /**
     * Reserves a new conversion's `bytes` (its text and cover, and the estimate of the audio it
     * will write), or refuses it (413) with the estimate and the space left in words. Run it in
     * the transaction that inserts the job, which holds the reservation.
     */
    async reserveConversion(tx: JobStore, userId: string, bytes: number, what: SpaceUser): Promise<void> {
      await tx.lockOwner(userId);
      const used = await tx.storageUsed(userId);
      if (used + bytes > limits.storageBytes) throw conversionRefused(what, bytes, used);
    },

    /**
     * Makes `change` (which writes the rows holding new space: a retried job's reservation coming
     * back, a web page's text and estimate once read) under the user's lock, and refuses it (413,
     * rolling the transaction back) when it takes the user past the quota.
     */
    async keepWithin<T>(tx: JobStore, userId: string, what: SpaceUser, change: () => Promise<T>): Promise<T> {
      await tx.lockOwner(userId);
      const before = await tx.storageUsed(userId);
      const result = await change();
      const after = await tx.storageUsed(userId);
      if (after > limits.storageBytes && after > before) throw conversionRefused(what, after - before, before);
      return result;
    },

    /**
     * Runs `work` in a transaction holding the user's storage lock, for rows other modules own
     * (downloads): it gets the transaction's executor and `room()`, the bytes the user has left
     * now (negative past the quota), counted on that transaction.
     */
    withStorageLock<T>(userId: string, work: (x: DbExecutor, room: () => Promise<number>) => Promise<T>): Promise<T> {
      return repo.transaction(async (tx, x) => {
        await tx.lockOwner(userId);
        return work(x, async () => limits.storageBytes - (await tx.storageUsed(userId)));
      });
    },

    /**
     * Refuses (429) a new or retried job while the user has `queuedJobs` unfinished top-level jobs
     * (waiting in the queue or converting). Run it in the transaction that inserts the job: it
     * locks the user's quota, so concurrent requests of one user are counted one after the other.
     */
    async assertQueueRoom(tx: JobStore, userId: string): Promise<void> {
      await tx.lockOwner(userId);
      if ((await tx.jobs.activeTopLevelCount(userId)) < limits.queuedJobs) return;
      const n = limits.queuedJobs;
      throw new DomainError(
        'rate_limited',
        `Queue limit reached: you may have ${n} ${n === 1 ? 'job' : 'jobs'} waiting or converting at once. Wait for one to finish or cancel one`,
        { retryAfterSeconds: 30 },
      );
    },

    /** Counts an upload, or refuses it (429 with Retry-After) past the hourly limit; in the upload's transaction. */
    async takeUpload(tx: JobStore, userId: string): Promise<void> {
      const at = now();
      const since = new Date(at.getTime() - HOUR_MS);
      await tx.lockOwner(userId);
      const { count, oldest } = await tx.uploadEvents.since(userId, since);
      if (count >= limits.uploadsPerHour) {
        const wait = Math.max(1, Math.ceil(((oldest ?? at).getTime() + HOUR_MS - at.getTime()) / 1000));
        const minutes = Math.ceil(wait / 60);
        throw new DomainError(
          'rate_limited',
          `Upload limit reached: at most ${limits.uploadsPerHour} uploads per hour. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,
          { retryAfterSeconds: wait },
        );
      }
      await tx.uploadEvents.record(userId, at);
    },
  };
}

export type Quotas = ReturnType<typeof createQuotas>;
