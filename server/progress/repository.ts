import { randomUUID } from 'node:crypto';
import type { DbExecutor } from '../db/types';

/** What a save writes: the listener's place in one book. */
export interface ProgressWrite {
  userId: string;
  jobId: string;
  positionSeconds: number;
  durationSeconds: number | null;
  percentageComplete: number;
  currentChapterId: string | null;
  currentChapterPosition: number;
  isCompleted: boolean;
  at: Date;
}

/** A row of playback_progress (owned by this module; the job's title comes from the jobs module). */
export interface ProgressRecord extends Omit<ProgressWrite, 'at'> {
  id: string;
  lastPlayedAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProgressRepository {
  find(userId: string, jobId: string): Promise<ProgressRecord | null>;
  /** Inserts or replaces the one row of this user and job (a save that moves nothing writes nothing). */
  upsert(write: ProgressWrite): Promise<ProgressRecord>;
  delete(userId: string, jobId: string): Promise<void>;
  recent(userId: string, limit: number): Promise<ProgressRecord[]>;
}

interface ProgressRow {
  id: string;
  user_id: string;
  job_id: string;
  position_seconds: number;
  duration_seconds: number | null;
  percentage_complete: number;
  current_chapter_id: string | null;
  current_chapter_position: number;
  is_completed: boolean;
  last_played_at: Date | string;
  created_at: Date | string;
  updated_at: Date | string;
}

const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

function toProgress(row: ProgressRow): ProgressRecord {
  return {
    id: row.id,
    userId: row.user_id,
    jobId: row.job_id,
    positionSeconds: Number(row.position_seconds),
    durationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
    percentageComplete: Number(row.percentage_complete),
    currentChapterId: row.current_chapter_id,
    currentChapterPosition: Number(row.current_chapter_position),
    isCompleted: row.is_completed,
    lastPlayedAt: asDate(row.last_played_at),
    createdAt: asDate(row.created_at),
    updatedAt: asDate(row.updated_at),
  };
}

const COLUMNS = `p.id, p.user_id, p.job_id, p.position_seconds, p.duration_seconds,
  p.percentage_complete, p.current_chapter_id, p.current_chapter_position, p.is_completed,
  p.last_played_at, p.created_at, p.updated_at`;
const SELECT = `SELECT ${COLUMNS} FROM playback_progress p`;

/**
 * A save equal to the stored place rewrites the row only once its last_played_at is this old, so
 * "recently played" still moves for a listener who comes back to the same place.
 */
export const UNCHANGED_TOUCH_MS = 60_000;

export function createProgressRepository(db: DbExecutor): ProgressRepository {
  async function find(userId: string, jobId: string): Promise<ProgressRecord | null> {
    const { rows } = await db.query<ProgressRow>(`${SELECT} WHERE p.user_id = $1 AND p.job_id = $2`, [userId, jobId]);
    return rows[0] ? toProgress(rows[0]) : null;
  }

  return {
    find,
    async upsert(w) {
      const at = w.at.toISOString();
      // A save that moves nothing (a paused player, a retried request) leaves the row as it is,
      // unless its last_played_at is older than UNCHANGED_TOUCH_MS: no write, no dead row.
      const { rows } = await db.query<ProgressRow>(
        `INSERT INTO playback_progress AS p (id, user_id, job_id, position_seconds, duration_seconds, percentage_complete,
           current_chapter_id, current_chapter_position, is_completed, last_played_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $10)
         ON CONFLICT (user_id, job_id) DO UPDATE SET
           position_seconds = EXCLUDED.position_seconds,
           duration_seconds = EXCLUDED.duration_seconds,
           percentage_complete = EXCLUDED.percentage_complete,
           current_chapter_id = EXCLUDED.current_chapter_id,
           current_chapter_position = EXCLUDED.current_chapter_position,
           is_completed = EXCLUDED.is_completed,
           last_played_at = EXCLUDED.last_played_at,
           updated_at = EXCLUDED.updated_at
         WHERE (p.position_seconds, p.duration_seconds, p.percentage_complete, p.current_chapter_id,
                p.current_chapter_position, p.is_completed)
               IS DISTINCT FROM (EXCLUDED.position_seconds, EXCLUDED.duration_seconds, EXCLUDED.percentage_complete,
                EXCLUDED.current_chapter_id, EXCLUDED.current_chapter_position, EXCLUDED.is_completed)
            OR p.last_played_at < $11
         RETURNING ${COLUMNS}`,
        [
          randomUUID(),
          w.userId,
          w.jobId,
          w.positionSeconds,
          w.durationSeconds,
          w.percentageComplete,
          w.currentChapterId,
          w.currentChapterPosition,
          w.isCompleted,
          at,
          new Date(w.at.getTime() - UNCHANGED_TOUCH_MS).toISOString(),
        ],
      );
      if (rows[0]) return toProgress(rows[0]);
      // Nothing moved: the row as it stands is the answer.
      const saved = await find(w.userId, w.jobId);
      if (saved === null) throw new Error('Progress row vanished right after it was saved');
      return saved;
    },
    async delete(userId, jobId) {
      await db.query('DELETE FROM playback_progress WHERE user_id = $1 AND job_id = $2', [userId, jobId]);
    },
    async recent(userId, limit) {
      const { rows } = await db.query<ProgressRow>(
        `${SELECT} WHERE p.user_id = $1 ORDER BY p.last_played_at DESC, p.updated_at DESC LIMIT $2`,
        [userId, limit],
      );
      return rows.map(toProgress);
    },
  };
}
