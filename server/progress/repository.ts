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
  /**
   * Inserts or replaces the one row of each write's user and book (a save that moves nothing
   * writes nothing), in one statement; the rows in the order given. At most one write per user and book.
   */
  upsertMany(writes: ProgressWrite[]): Promise<ProgressRecord[]>;
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

  async function upsertMany(writes: ProgressWrite[]): Promise<ProgressRecord[]> {
    if (writes.length === 0) return [];
    const column = <T>(pick: (w: ProgressWrite) => T) => writes.map(pick);
    // A save that moves nothing (a paused player, a retried request) leaves the row as it is,
    // unless its last_played_at is older than UNCHANGED_TOUCH_MS: no write, no dead row; the row
    // as it stands is its answer, read by the same statement. One statement for all, whatever
    // their number (its text does not change, so it is planned once).
    const { rows } = await db.query<ProgressRow>(
      `WITH w AS (
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::float8[], $5::float8[], $6::float8[], $7::text[],
                              $8::float8[], $9::boolean[], $10::timestamptz[])
           AS w(id, user_id, job_id, position_seconds, duration_seconds, percentage_complete, current_chapter_id,
                current_chapter_position, is_completed, at)
       ), saved AS (
       INSERT INTO playback_progress AS p (id, user_id, job_id, position_seconds, duration_seconds, percentage_complete,
         current_chapter_id, current_chapter_position, is_completed, last_played_at, created_at, updated_at)
       SELECT w.id, w.user_id, w.job_id, w.position_seconds, w.duration_seconds, w.percentage_complete,
              w.current_chapter_id, w.current_chapter_position, w.is_completed, w.at, w.at, w.at
         FROM w
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
          OR p.last_played_at < EXCLUDED.last_played_at - make_interval(secs => $11)
       RETURNING ${COLUMNS}
       )
       SELECT * FROM saved
       UNION ALL
       -- Each standing row by its unique index (LIMIT 1 keeps the planner from joining by a scan of the table).
       SELECT ${COLUMNS} FROM w
         CROSS JOIN LATERAL (SELECT * FROM playback_progress q
                              WHERE q.user_id = w.user_id AND q.job_id = w.job_id LIMIT 1) AS p
        WHERE NOT EXISTS (SELECT 1 FROM saved s WHERE s.user_id = w.user_id AND s.job_id = w.job_id)`,
      [
        writes.map(() => randomUUID()),
        column((w) => w.userId),
        column((w) => w.jobId),
        column((w) => w.positionSeconds),
        column((w) => w.durationSeconds),
        column((w) => w.percentageComplete),
        column((w) => w.currentChapterId),
        column((w) => w.currentChapterPosition),
        column((w) => w.isCompleted),
        column((w) => w.at.toISOString()),
        UNCHANGED_TOUCH_MS / 1000,
      ],
    );
    const key = (userId: string, jobId: string) => `${userId}/${jobId}`;
    const saved = new Map(rows.map((r) => [key(r.user_id, r.job_id), toProgress(r)]));
    // A row first written by another process after this statement's snapshot was taken, with the
    // same values (so not written again): read as it stands now.
    const unchanged = writes.filter((w) => !saved.has(key(w.userId, w.jobId)));
    if (unchanged.length > 0) {
      const { rows: standing } = await db.query<ProgressRow>(
        `SELECT ${COLUMNS} FROM unnest($1::uuid[], $2::uuid[]) AS w(user_id, job_id)
           CROSS JOIN LATERAL (SELECT * FROM playback_progress q
                                WHERE q.user_id = w.user_id AND q.job_id = w.job_id LIMIT 1) AS p`,
        [unchanged.map((w) => w.userId), unchanged.map((w) => w.jobId)],
      );
      for (const r of standing) saved.set(key(r.user_id, r.job_id), toProgress(r));
    }
    return writes.map((w) => {
      const row = saved.get(key(w.userId, w.jobId));
      if (row === undefined) throw new Error('Progress row vanished right after it was saved');
      return row;
    });
  }

  return {
    find,
    upsertMany,
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
