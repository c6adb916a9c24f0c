/**
 * The only SQL of the `exports` table (docs/data-model.md): one row per book and download format,
 * its build's state, and the lease of the worker building it (restart-safe like jobs: a build whose
 * worker stopped renewing its lease is queued again).
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/types';

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
   * Asks for a build of `format` from the book at `sourceVersion`: a new, stale or failed
   * row becomes `queued` (answered with `queued: true` and the file key it had, to delete); a row
   * queued, building or ready for this version is answered as it is.
   */
  request(input: {
    jobId: string;
    userId: string;
    format: ExportFormat;
    sourceVersion: string;
  }): Promise<{ record: ExportRecord; queued: boolean; staleFileKey: string | null }>;
  /** Takes a queued build, or one whose worker's lease lapsed; null when another worker holds it. */
  claim(id: string, owner: string, leaseSeconds: number): Promise<ExportRecord | null>;
  renew(id: string, owner: string, leaseSeconds: number): Promise<void>;
  progress(id: string, owner: string, progress: number): Promise<void>;
  /** Records the finished file; false when the build was cancelled (or taken over) meanwhile. */
  complete(id: string, owner: string, fileKey: string, sizeBytes: number): Promise<boolean>;
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

    async request({ jobId, userId, format, sourceVersion }) {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<Row>(
          `SELECT ${COLUMNS} FROM exports WHERE job_id = $1 AND format = $2 FOR UPDATE`,
          [jobId, format],
        );
        const current = rows[0] === undefined ? null : toRecord(rows[0]);
        const live = current !== null && current.sourceVersion === sourceVersion;
        if (live && (current.status === 'queued' || current.status === 'building' || current.status === 'ready')) {
          return { record: current, queued: false, staleFileKey: null };
        }
        const { rows: written } = await tx.query<Row>(
          `INSERT INTO exports (id, job_id, user_id, format, status, progress, source_version)
           VALUES ($1, $2, $3, $4, 'queued', 0, $5)
           ON CONFLICT (job_id, format) DO UPDATE SET status = 'queued', progress = 0, source_version = $5,
             file_key = NULL, size_bytes = NULL, error_message = NULL, attempts = 0, lease_owner = NULL,
             lease_until = NULL, updated_at = now(), completed_at = NULL
           RETURNING ${COLUMNS}`,
          [randomUUID(), jobId, userId, format, sourceVersion],
        );
        return { record: toRecord(written[0]!), queued: true, staleFileKey: current?.fileKey ?? null };
      });
    },

    claim: (id, owner, leaseSeconds) =>
      one(
        `UPDATE exports SET status = 'building', lease_owner = $2, lease_until = now() + make_interval(secs => $3),
           attempts = attempts + 1, progress = 0, updated_at = now()
         WHERE id = $1 AND (status = 'queued' OR (status = 'building' AND (lease_until IS NULL OR lease_until < now())))
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
        `UPDATE exports SET status = 'failed', error_message = $3, lease_owner = NULL, lease_until = NULL,
           updated_at = now()
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
