/**
 * The only SQL of the `exports` table (docs/data-model.md): one row per book and download format,
 * its build's state, and the lease of the worker building it (restart-safe like jobs: a build whose
 * worker stopped renewing its lease is queued again).
 *
 * A row counts in its owner's storage quota while it exists: `size_bytes` is the kept file's size
 * once ready, and while the build is queued or building the space reserved for it (an estimate).
 * `exportsTable(x)` holds the queries that run inside the quota's transaction (its executor `x`):
 * the bytes held, asking for a build, and evicting older downloads to make room.
 */
import { randomUUID } from 'node:crypto';
import type { Db, DbExecutor } from '../db/types';

export const EXPORT_FORMATS = ['m4b', 'mp3', 'zip', 'epub'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ExportRowStatus = 'queued' | 'building' | 'ready' | 'failed';

export interface ExportRecord {
  id: string;
  jobId: string;
  userId: string;
  format: ExportFormat;
  status: ExportRowStatus;
  progress: number;
  sourceVersion: string;
  fileKey: string | null;
  sizeBytes: number | null;
  errorMessage: string | null;
  attempts: number;
  updatedAt: Date;
  completedAt: Date | null;
}

interface Row {
  id: string;
  job_id: string;
  user_id: string;
  format: ExportFormat;
  status: ExportRowStatus;
  progress: number;
  source_version: string;
  file_key: string | null;
  size_bytes: string | number | null;
  error_message: string | null;
  attempts: number;
  updated_at: Date | string;
  completed_at: Date | string | null;
}

const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

function toRecord(row: Row): ExportRecord {
  return {
    id: row.id,
    jobId: row.job_id,
    userId: row.user_id,
    format: row.format,
    status: row.status,
    progress: Number(row.progress),
    sourceVersion: row.source_version,
    fileKey: row.file_key,
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
    errorMessage: row.error_message,
    attempts: Number(row.attempts),
    updatedAt: asDate(row.updated_at),
    completedAt: row.completed_at === null ? null : asDate(row.completed_at),
  };
}

const COLUMNS = `id, job_id, user_id, format, status, progress, source_version, file_key, size_bytes, error_message,
  attempts, updated_at, completed_at`;

export interface ExportRepository {
  list(jobId: string): Promise<ExportRecord[]>;
  find(jobId: string, format: ExportFormat): Promise<ExportRecord | null>;
  get(id: string): Promise<ExportRecord | null>;
  /**
   * Takes a queued build, or one whose worker's lease lapsed (or `owner`'s own, kept through a
   * database outage: its worker makes sure it never builds one twice at once); null when another
   * worker holds it.
   */
  claim(id: string, owner: string, leaseSeconds: number): Promise<ExportRecord | null>;
  renew(id: string, owner: string, leaseSeconds: number): Promise<void>;
  progress(id: string, owner: string, progress: number): Promise<void>;
  /** Records the finished file; false when the build was cancelled (or taken over) meanwhile. */
  complete(id: string, owner: string, fileKey: string, sizeBytes: number): Promise<boolean>;
  /** Records why the build failed; its reserved space is free again. */
  fail(id: string, owner: string, message: string): Promise<void>;
  /** Lets go of a build this worker stops (shutdown): queued again for another worker, from 0 %. */
  release(id: string, owner: string): Promise<void>;
  /**
   * Embedded mode, at start: this process is the only one, so every build in progress was a dead
   * process's: queued again from 0 % (its file is built anew). Answers their ids.
   */
  releaseAbandoned(): Promise<string[]>;
  /** Cancels and forgets `format` of a book; answers the file key it had, to delete. */
  remove(jobId: string, format: ExportFormat): Promise<{ fileKey: string | null } | null>;
  /** Of `ids`, those no longer being built (cancelled or removed). */
  stoppedAmong(ids: string[]): Promise<Set<string>>;
  /** Builds waiting with no live worker: queued ones not touched for `idleSeconds`, and lapsed leases. */
  orphaned(idleSeconds: number): Promise<string[]>;
}

/** A request for a build of `format` from the book at `sourceVersion`, reserving `reservedBytes` for it. */
export interface ExportRequest {
  jobId: string;
  userId: string;
  format: ExportFormat;
  sourceVersion: string;
  reservedBytes: number;
}

/** A download evicted to make room: its row is gone, its file is to be deleted once the transaction commits. */
export interface EvictedExport {
  id: string;
  fileKey: string | null;
  sizeBytes: number;
}

/** The queries of the storage quota's transaction, on its executor `x` (which holds the owner's lock). */
export function exportsTable(x: DbExecutor) {
  return {
    /** Bytes the user's downloads hold: kept files, and the space reserved for builds under way. */
    async bytesHeld(userId: string): Promise<number> {
      const { rows } = await x.query<{ used: string | number }>(
        'SELECT COALESCE(sum(size_bytes), 0) AS used FROM exports WHERE user_id = $1',
        [userId],
      );
      return Number(rows[0]?.used ?? 0);
    },

    /**
     * Asks for a build: a new, stale or failed row becomes `queued` with `reservedBytes` reserved
     * (answered with `queued: true` and the file key it had, to delete); a row queued, building or
     * ready for this version is answered as it is. Run it in a transaction.
     */
    async request({ jobId, userId, format, sourceVersion, reservedBytes }: ExportRequest) {
      const { rows } = await x.query<Row>(
        `SELECT ${COLUMNS} FROM exports WHERE job_id = $1 AND format = $2 FOR UPDATE`,
        [jobId, format],
      );
      const current = rows[0] === undefined ? null : toRecord(rows[0]);
      const live = current !== null && current.sourceVersion === sourceVersion;
      if (live && (current.status === 'queued' || current.status === 'building' || current.status === 'ready')) {
        return { record: current, queued: false, staleFileKey: null };
      }
      const { rows: written } = await x.query<Row>(
        `INSERT INTO exports (id, job_id, user_id, format, status, progress, source_version, size_bytes)
         VALUES ($1, $2, $3, $4, 'queued', 0, $5, $6)
         ON CONFLICT (job_id, format) DO UPDATE SET status = 'queued', progress = 0, source_version = $5,
           file_key = NULL, size_bytes = $6, error_message = NULL, attempts = 0, lease_owner = NULL,
           lease_until = NULL, updated_at = now(), completed_at = NULL
         RETURNING ${COLUMNS}`,
        [randomUUID(), jobId, userId, format, sourceVersion, Math.max(0, Math.round(reservedBytes))],
      );
      return { record: toRecord(written[0]!), queued: true, staleFileKey: current?.fileKey ?? null };
    },

    /**
     * Deletes the user's kept downloads other than `keepId`, oldest first, until at least `bytes`
     * are freed (builds under way are left alone); answers those evicted, whose files are the
     * caller's to delete once the transaction commits.
     */
    async evict(userId: string, keepId: string, bytes: number): Promise<EvictedExport[]> {
      const { rows } = await x.query<{ id: string; file_key: string | null; size_bytes: string | number | null }>(
        `SELECT id, file_key, size_bytes FROM exports
          WHERE user_id = $1 AND id <> $2 AND status = 'ready'
          ORDER BY COALESCE(completed_at, updated_at), id FOR UPDATE`,
        [userId, keepId],
      );
      const evicted: EvictedExport[] = [];
      let freed = 0;
      for (const row of rows) {
        if (freed >= bytes) break;
        evicted.push({ id: row.id, fileKey: row.file_key, sizeBytes: Number(row.size_bytes ?? 0) });
        freed += Number(row.size_bytes ?? 0);
      }
      if (evicted.length > 0)
        await x.query('DELETE FROM exports WHERE id = ANY($1::uuid[])', [evicted.map((e) => e.id)]);
      return evicted;
    },
  };
}

export function createExportRepository(db: Db): ExportRepository {
  const one = async (sql: string, params: unknown[]) => {
    const { rows } = await db.query<Row>(sql, params);
    return rows[0] === undefined ? null : toRecord(rows[0]);
  };

  return {
    async list(jobId) {
      const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM exports WHERE job_id = $1`, [jobId]);
      return rows.map(toRecord);
    },
    find: (jobId, format) => one(`SELECT ${COLUMNS} FROM exports WHERE job_id = $1 AND format = $2`, [jobId, format]),
    get: (id) => one(`SELECT ${COLUMNS} FROM exports WHERE id = $1`, [id]),

    claim: (id, owner, leaseSeconds) =>
      one(
        `UPDATE exports SET status = 'building', lease_owner = $2, lease_until = now() + make_interval(secs => $3),
           attempts = attempts + 1, progress = 0, updated_at = now()
         WHERE id = $1 AND (status = 'queued'
           OR (status = 'building' AND (lease_until IS NULL OR lease_until < now() OR lease_owner = $2)))
         RETURNING ${COLUMNS}`,
        [id, owner, leaseSeconds],
      ),

    async renew(id, owner, leaseSeconds) {
      await db.query(
        `UPDATE exports SET lease_until = now() + make_interval(secs => $3)
          WHERE id = $1 AND lease_owner = $2 AND status = 'building'`,
        [id, owner, leaseSeconds],
      );
    },

    async progress(id, owner, progress) {
      await db.query(
        `UPDATE exports SET progress = GREATEST(progress, $3), updated_at = now()
          WHERE id = $1 AND lease_owner = $2 AND status = 'building'`,
        [id, owner, Math.max(0, Math.min(99, Math.floor(progress)))],
      );
    },

    async complete(id, owner, fileKey, sizeBytes) {
      const { rows } = await db.query<{ id: string }>(
        `UPDATE exports SET status = 'ready', progress = 100, file_key = $3, size_bytes = $4, error_message = NULL,
           lease_owner = NULL, lease_until = NULL, updated_at = now(), completed_at = now()
         WHERE id = $1 AND lease_owner = $2 AND status = 'building' RETURNING id`,
        [id, owner, fileKey, sizeBytes],
      );
      return rows.length === 1;
    },

    async fail(id, owner, message) {
      await db.query(
        `UPDATE exports SET status = 'failed', error_message = $3, size_bytes = NULL, lease_owner = NULL,
           lease_until = NULL, updated_at = now()
         WHERE id = $1 AND lease_owner = $2 AND status = 'building'`,
        [id, owner, message],
      );
    },

    async release(id, owner) {
      await db.query(
        `UPDATE exports SET status = 'queued', progress = 0, lease_owner = NULL, lease_until = NULL, updated_at = now()
          WHERE id = $1 AND lease_owner = $2 AND status = 'building'`,
        [id, owner],
      );
    },

    async releaseAbandoned() {
      const { rows } = await db.query<{ id: string }>(
        `UPDATE exports SET status = 'queued', progress = 0, lease_owner = NULL, lease_until = NULL, updated_at = now()
          WHERE status = 'building' RETURNING id`,
        [],
      );
      return rows.map((r) => r.id);
    },

    async remove(jobId, format) {
      const { rows } = await db.query<{ file_key: string | null }>(
        'DELETE FROM exports WHERE job_id = $1 AND format = $2 RETURNING file_key',
        [jobId, format],
      );
      return rows[0] === undefined ? null : { fileKey: rows[0].file_key };
    },

    async stoppedAmong(ids) {
      if (ids.length === 0) return new Set();
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM exports WHERE id = ANY($1::uuid[]) AND status = 'building'`,
        [ids],
      );
      const building = new Set(rows.map((r) => r.id));
      return new Set(ids.filter((id) => !building.has(id)));
    },

    async orphaned(idleSeconds) {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM exports
          WHERE (status = 'queued' AND updated_at < now() - make_interval(secs => $1))
             OR (status = 'building' AND lease_until < now())`,
        [idleSeconds],
      );
      return rows.map((r) => r.id);
    },
  };
}
