import type { Db, DbExecutor } from '../db/types';
import { DomainError } from '../errors';

/**
 * Per-user limits (QUOTA_* variables): storage, unfinished jobs and uploads per hour. A refused
 * request is told which limit it met and how to get under it; other users are never affected.
 *
 * Storage counts what the user's data holds on disk: uploaded files, each job's own text
 * (`config.source_bytes`) and each finished job's audio (`result_data.file_size_bytes`, for a book
 * its joined audio plus every chapter's). Audio still being made counts once its job finishes; the
 * active-jobs limit bounds how much that can be.
 */
export interface QuotaLimits {
  storageBytes: number;
  activeJobs: number;
  uploadsPerHour: number;
}

const HOUR_MS = 3600_000;

export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1024) return `${(mb / 1024).toFixed(mb >= 10 * 1024 ? 0 : 1)} GB`;
  if (mb >= 1) return `${mb >= 10 ? Math.round(mb) : mb.toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function createQuotas(db: Db, limits: QuotaLimits, now: () => Date) {
  async function storageUsed(userId: string, tx: DbExecutor = db): Promise<number> {
    const { rows } = await tx.query<{ used: string | number }>(
      `SELECT (SELECT COALESCE(sum(size_bytes), 0) FROM uploaded_files WHERE user_id = $1)
            + (SELECT COALESCE(sum(COALESCE((result_data->>'file_size_bytes')::bigint, 0)
                                 + COALESCE((config->>'source_bytes')::bigint, 0)), 0)
               FROM jobs WHERE user_id = $1) AS used`,
      [userId],
    );
    return Number(rows[0]?.used ?? 0);
  }

  return {
    limits,
    storageUsed,

    /** Refuses (413) when `extraBytes` more would take the user past the storage quota. */
    async assertStorage(userId: string, extraBytes: number): Promise<void> {
      const used = await storageUsed(userId);
      if (used + extraBytes <= limits.storageBytes) return;
      const need = extraBytes > 0 ? ` and this needs ${formatBytes(extraBytes)} more` : '';
      throw new DomainError(
        'quota_exceeded',
        `Storage limit reached: you use ${formatBytes(used)} of your ${formatBytes(limits.storageBytes)} storage limit${need}. Delete books or uploaded files to free space`,
      );
    },

    /**
     * Refuses (429) a new or retried job while the user has `activeJobs` unfinished top-level jobs.
     * Run it in the transaction that inserts the job: it locks the user's row, so concurrent
     * requests of one user are counted one after the other.
     */
    async assertActiveJobs(tx: DbExecutor, userId: string): Promise<void> {
      await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
      const { rows } = await tx.query<{ n: string | number }>(
        `SELECT count(*) AS n FROM jobs WHERE user_id = $1 AND parent_job_id IS NULL AND status IN ('PENDING', 'PROCESSING')`,
        [userId],
      );
      if (Number(rows[0]?.n ?? 0) < limits.activeJobs) return;
      const n = limits.activeJobs;
      throw new DomainError(
        'rate_limited',
        `Active job limit reached: you may have ${n} ${n === 1 ? 'job' : 'jobs'} pending or processing at once. Wait for one to finish or cancel one`,
        { retryAfterSeconds: 30 },
      );
    },

    /** Counts an upload, or refuses it (429 with Retry-After) past the hourly limit. */
    async takeUpload(userId: string): Promise<void> {
      const at = now();
      const since = new Date(at.getTime() - HOUR_MS);
      await db.transaction(async (tx) => {
        await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
        await tx.query('DELETE FROM upload_events WHERE user_id = $1 AND created_at <= $2', [userId, since.toISOString()]);
        const { rows } = await tx.query<{ n: string | number; oldest: Date | string | null }>(
          'SELECT count(*) AS n, min(created_at) AS oldest FROM upload_events WHERE user_id = $1',
          [userId],
        );
        const count = Number(rows[0]?.n ?? 0);
        if (count >= limits.uploadsPerHour) {
          const oldest = rows[0]?.oldest ? new Date(rows[0].oldest) : at;
          const wait = Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - at.getTime()) / 1000));
          const minutes = Math.ceil(wait / 60);
          throw new DomainError(
            'rate_limited',
            `Upload limit reached: at most ${limits.uploadsPerHour} uploads per hour. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,
            { retryAfterSeconds: wait },
          );
        }
        await tx.query('INSERT INTO upload_events (user_id, created_at) VALUES ($1, $2)', [userId, at.toISOString()]);
      });
    },
  };
}

export type Quotas = ReturnType<typeof createQuotas>;
