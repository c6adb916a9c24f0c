/** What the quotas and the metrics count in the jobs table: unfinished jobs, bytes held and reserved, jobs by status. */
import type { DbExecutor } from '../../../db/types';
import { ACTIVE } from './sql';

export function jobUsage(x: DbExecutor) {
  return {
    /** The user's unfinished top-level jobs (the active-jobs quota). */
    async activeTopLevelCount(userId: string): Promise<number> {
      const { rows } = await x.query<{ n: string | number }>(
        `SELECT count(*) AS n FROM jobs WHERE user_id = $1 AND parent_job_id IS NULL AND ${ACTIVE}`,
        [userId],
      );
      return Number(rows[0]?.n ?? 0);
    },

    /**
     * Bytes the user's jobs hold (the storage quota): each job's own text and cover, the covers
     * made of a finished book (cover_jpeg_bytes, cover_svg_bytes), what each finished job wrote
     * (stored_bytes: its MP3 and timing map; a row finished before that column counts its MP3's
     * size), and while a job waits or converts, the space reserved for what it has yet to write.
     */
    async bytesHeld(userId: string): Promise<number> {
      const { rows } = await x.query<{ used: string | number }>(
        `SELECT COALESCE(sum(COALESCE(stored_bytes, (result_data->>'file_size_bytes')::bigint, 0)
                           + COALESCE((config->>'source_bytes')::bigint, 0)
                           + COALESCE((config->>'cover_bytes')::bigint, 0)
                           + COALESCE((config->>'cover_jpeg_bytes')::bigint, 0)
                           + COALESCE((config->>'cover_svg_bytes')::bigint, 0)
                           + CASE WHEN ${ACTIVE} THEN reserved_bytes ELSE 0 END), 0) AS used
         FROM jobs WHERE user_id = $1`,
        [userId],
      );
      return Number(rows[0]?.used ?? 0);
    },

    /** Sets the space the job holds for what it has yet to write (a web page's, once its text is read). */
    async reserve(jobId: string, bytes: number): Promise<void> {
      await x.query('UPDATE jobs SET reserved_bytes = $2 WHERE id = $1', [jobId, Math.max(0, Math.round(bytes))]);
    },

    /** Counts a cover kept for a finished book (the JPEG of downloads and feeds, or the drawn SVG) in its owner's storage. */
    async keepCoverBytes(jobId: string, kind: 'jpeg' | 'svg', bytes: number): Promise<void> {
      await x.query('UPDATE jobs SET config = config || jsonb_build_object($2::text, $3::bigint) WHERE id = $1', [
        jobId,
        `cover_${kind}_bytes`,
        bytes,
      ]);
    },

    /** Jobs by status, every user's (the metrics' gauge). */
    async countByStatus(): Promise<Record<string, number>> {
      const { rows } = await x.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM jobs GROUP BY status',
      );
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },
  };
}
