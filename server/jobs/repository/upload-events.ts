/**
 * The upload_events table's repository: the ONLY code that reads or writes `upload_events` (one row
 * per accepted upload in the last hour, for the hourly upload quota).
 */
import type { DbExecutor } from '../../db/types';

/** The upload_events table's queries on one executor (the database, or one transaction). */
export function uploadEventsTable(x: DbExecutor) {
  return {
    /** Forgets the user's uploads up to `since`; answers how many remain after it and the oldest one's time. */
    async since(userId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
      await x.query('DELETE FROM upload_events WHERE user_id = $1 AND created_at <= $2', [userId, since.toISOString()]);
      const { rows } = await x.query<{ n: string | number; oldest: Date | string | null }>(
        'SELECT count(*) AS n, min(created_at) AS oldest FROM upload_events WHERE user_id = $1',
        [userId],
      );
      const oldest = rows[0]?.oldest ?? null;
      return { count: Number(rows[0]?.n ?? 0), oldest: oldest === null ? null : new Date(oldest) };
    },

    async record(userId: string, at: Date): Promise<void> {
      await x.query('INSERT INTO upload_events (user_id, created_at) VALUES ($1, $2)', [userId, at.toISOString()]);
    },
  };
}
