/**
 * The only SQL of the `feeds` table (docs/data-model.md): a user's private podcast feeds, one per
 * book and one for the library. The token itself is never stored, only its SHA-256.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/types';
import { isUniqueViolation } from '../db/types';

export interface FeedRecord {
  id: string;
  userId: string;
  /** The book; null for the library's feed. */
  jobId: string | null;
  createdAt: Date;
}

interface Row {
  id: string;
  user_id: string;
  job_id: string | null;
  created_at: Date | string;
}

const toRecord = (row: Row): FeedRecord => ({
  id: row.id,
  userId: row.user_id,
  jobId: row.job_id,
  createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
});

export interface FeedRepository {
  /** The user's feed of `jobId` (null: the library's), if there is one. */
  find(userId: string, jobId: string | null): Promise<FeedRecord | null>;
  /**
   * Creates the feed with `id` and its token's hash, unless the user already has that feed (then
   * `created` is false and the existing one is answered).
   */
  create(input: { id: string; userId: string; jobId: string | null; tokenHash: string }): Promise<{
    feed: FeedRecord;
    created: boolean;
  }>;
  list(userId: string): Promise<FeedRecord[]>;
  byTokenHash(tokenHash: string): Promise<FeedRecord | null>;
  /** The feed with `id`, if it still exists (an episode link names its feed). */
  byId(id: string): Promise<FeedRecord | null>;
  /** False when there was no such feed of the user's. */
  delete(userId: string, id: string): Promise<boolean>;
}

export const newFeedId = () => randomUUID();

export function createFeedRepository(db: Db): FeedRepository {
  async function find(userId: string, jobId: string | null): Promise<FeedRecord | null> {
    const { rows } =
      jobId === null
        ? await db.query<Row>(
            'SELECT id, user_id, job_id, created_at FROM feeds WHERE user_id = $1 AND job_id IS NULL',
            [userId],
          )
        : await db.query<Row>('SELECT id, user_id, job_id, created_at FROM feeds WHERE user_id = $1 AND job_id = $2', [
            userId,
            jobId,
          ]);
    return rows[0] === undefined ? null : toRecord(rows[0]);
  }

  return {
    find,
    async create({ id, userId, jobId, tokenHash }) {
      try {
        const { rows } = await db.query<Row>(
          `INSERT INTO feeds (id, user_id, job_id, token_hash) VALUES ($1, $2, $3, $4)
           RETURNING id, user_id, job_id, created_at`,
          [id, userId, jobId, tokenHash],
        );
        return { feed: toRecord(rows[0]!), created: true };
      } catch (error) {
        // Two requests at once: the other one created it.
        if (!isUniqueViolation(error)) throw error;
        const existing = await find(userId, jobId);
        if (existing === null) throw error;
        return { feed: existing, created: false };
      }
    },
    async list(userId) {
      const { rows } = await db.query<Row>(
        'SELECT id, user_id, job_id, created_at FROM feeds WHERE user_id = $1 ORDER BY created_at DESC, id',
        [userId],
      );
      return rows.map(toRecord);
    },
    async byTokenHash(tokenHash) {
      const { rows } = await db.query<Row>('SELECT id, user_id, job_id, created_at FROM feeds WHERE token_hash = $1', [
        tokenHash,
      ]);
      return rows[0] === undefined ? null : toRecord(rows[0]);
    },
    async byId(id) {
      const { rows } = await db.query<Row>('SELECT id, user_id, job_id, created_at FROM feeds WHERE id = $1', [id]);
      return rows[0] === undefined ? null : toRecord(rows[0]);
    },
    async delete(userId, id) {
      const { rows } = await db.query<{ id: string }>('DELETE FROM feeds WHERE id = $1 AND user_id = $2 RETURNING id', [
        id,
        userId,
      ]);
      return rows.length === 1;
    },
  };
}
