import { DomainError } from '../errors';
import type { JobRepository, JobStore } from './repository';

/**
 * Per-user limits (QUOTA_* variables): storage, queued jobs and uploads per hour (the running
 * limit, QUOTA_RUNNING_JOBS, is the scheduler's: further jobs wait rather than being refused). A refused
 * request is told which limit it met and how to get under it; other users are never affected.
 *
 * Storage counts what the user's data holds on disk: uploaded files, each job's own text
 * (`config.source_bytes`) and each finished job's audio (`result_data.file_size_bytes`, for a book
 * its joined audio plus every chapter's). Audio still being made counts once its job finishes; the
 * active-jobs limit bounds how much that can be. Space is reserved, not only checked: the row that
 * counts new bytes is inserted in the same transaction, under the user's lock, as the check.
 */
export interface QuotaLimits {
  storageBytes: number;
  /** Jobs one user may have waiting or converting (QUOTA_QUEUED_JOBS). */
  queuedJobs: number;
  uploadsPerHour: number;
}

const HOUR_MS = 3600_000;

export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1024) return `${(mb / 1024).toFixed(mb >= 10 * 1024 ? 0 : 1)} GB`;
  if (mb >= 1) return `${mb >= 10 ? Math.round(mb) : mb.toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function createQuotas(repo: JobRepository, limits: QuotaLimits, now: () => Date) {
  const storageUsed = (userId: string): Promise<number> => repo.storageUsed(userId);

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
     * Refuses (429) a new or retried job while the user has `queuedJobs` unfinished top-level jobs
     * (waiting in the queue or converting). Run it in the transaction that inserts the job: it
     * locks the user's quota, so concurrent requests of one user are counted one after the other.
     */
    async assertQueueRoom(tx: JobStore, userId: string): Promise<void> {
      await tx.lockOwner(userId);
      if ((await tx.activeTopLevelCount(userId)) < limits.queuedJobs) return;
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
      const { count, oldest } = await tx.uploadsSince(userId, since);
      if (count >= limits.uploadsPerHour) {
        const wait = Math.max(1, Math.ceil(((oldest ?? at).getTime() + HOUR_MS - at.getTime()) / 1000));
        const minutes = Math.ceil(wait / 60);
        throw new DomainError(
          'rate_limited',
          `Upload limit reached: at most ${limits.uploadsPerHour} uploads per hour. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,
          { retryAfterSeconds: wait },
        );
      }
      await tx.recordUpload(userId, at);
    },
  };
}

export type Quotas = ReturnType<typeof createQuotas>;
