/** The job list: one page of summaries, filtered, searched and sorted, in one query. */
import type { DbExecutor } from '../../../db/types';
import { toSummary, type JobSummaryView, type SummaryRow } from '../rows';
import { ACTIVE, listenable } from './sql';

export interface ListFilter {
  userId: string;
  page: number;
  pageSize: number;
  status?: 'pending' | 'processing' | 'running' | 'listenable' | 'completed' | 'failed' | 'cancelled' | undefined;
  q?: string | undefined;
  sort: 'created_at' | 'updated_at' | 'title' | 'status';
  order: 'asc' | 'desc';
  topLevel: boolean;
}

const SORT_COLUMNS: Record<ListFilter['sort'], string> = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  title: 'lower(title)',
  status: 'status',
};

/** A job's title for sorting, a chapter's being its book's (jobs.parent_job_id names the book). */
const CHAPTER_AWARE_TITLE = 'lower(COALESCE((SELECT p.title FROM jobs p WHERE p.id = jobs.parent_job_id), title))';

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function jobList(x: DbExecutor) {
  return {
    /**
     * One page of the list in ONE query: the page's summary columns (JSON fields picked out by the
     * database, never the analysis), each book's chapter count and whether it can be played now (index
     * lookups per row of the page only) and the filter's total (a window count). A page past the end costs a second, count-only
     * query. Each sort has its index (migration 0004). `waiting` names the page's jobs still waiting
     * their turn in the fair queue (a page without any needs no queue-position query).
     */
    async listSummaries(filter: ListFilter): Promise<{ jobs: JobSummaryView[]; total: number; waiting: string[] }> {
      const where: string[] = ['user_id = $1'];
      const params: unknown[] = [filter.userId];
      if (filter.status === 'running') where.push(ACTIVE);
      else if (filter.status === 'listenable') {
        // What can be played now: finished jobs, and jobs still converting with a chapter or an opening ready.
        where.push(listenable('jobs'));
      } else if (filter.status !== undefined) {
        params.push(filter.status.toUpperCase());
        where.push(`status = $${params.length}`);
      }
      const q = filter.q?.trim();
      if (q) {
        params.push(`%${escapeLike(q)}%`);
        const titleParam = params.length;
        params.push(`${escapeLike(q.toLowerCase())}%`);
        where.push(`(title ILIKE $${titleParam} OR id::text LIKE $${params.length})`);
      }
      if (filter.topLevel) where.push('parent_job_id IS NULL');
      const whereSql = where.join(' AND ');
      const dir = filter.order === 'asc' ? 'ASC' : 'DESC';
      // A book's chapters are created at one instant: they follow their order (ascending, whatever
      // the direction), never their titles ("Chapter 10" after "Chapter 9"). By title, a chapter
      // sorts under its book's title, after the book, so a book and its chapters stay together.
      const withChapters = filter.sort === 'title' && !filter.topLevel;
      const sortTitle = withChapters ? CHAPTER_AWARE_TITLE : SORT_COLUMNS.title;
      const orderBy = (column: (name: string) => string) =>
        withChapters
          ? `${column('sort_title')} ${dir}, ${column('book_id')} ${dir}, ${column('parent_job_id')} ASC NULLS FIRST, ` +
            `${column('chapter_order')} ASC NULLS FIRST, ${column('created_at')} ${dir}, ${column('id')} ${dir}`
          : `${column(filter.sort === 'title' ? 'sort_title' : filter.sort)} ${dir}, ${column('created_at')} ${dir}, ` +
            `${column('chapter_order')} ASC NULLS FIRST, ${column('id')} ${dir}`;
      const inPage = (c: string) =>
        c === 'sort_title' ? sortTitle : c === 'book_id' ? 'COALESCE(parent_job_id, id)' : c;
      params.push(filter.pageSize, (filter.page - 1) * filter.pageSize);
      const { rows } = await x.query<SummaryRow>(
        `WITH page AS (
           SELECT id, user_id, parent_job_id, job_type, title, description, status, progress, error_message,
                  config->'voice_config' AS voice_config, config->>'provider' AS provider, config->>'author' AS author,
                  (result_data->>'duration')::double precision AS r_duration,
                  (result_data->>'duration_seconds')::double precision AS r_duration_seconds,
                  (result_data->>'file_size_bytes')::bigint AS r_file_size_bytes,
                  result_data->>'tts_engine' AS r_tts_engine,
                  input_file_key, output_file_key, duration, created_at, updated_at, started_at, completed_at,
                  chapter_order, ${sortTitle} AS sort_title, COALESCE(parent_job_id, id) AS book_id,
                  (parent_job_id IS NULL AND status = 'PENDING' AND enqueued_at IS NULL) AS waiting,
                  config->'opening' AS opening,
                  count(*) OVER () AS total
           FROM jobs WHERE ${whereSql}
           ORDER BY ${orderBy(inPage)}
           LIMIT $${params.length - 1} OFFSET $${params.length}
         )
         SELECT page.*, (SELECT count(*) FROM jobs c WHERE c.parent_job_id = page.id) AS chapter_count,
                (SELECT count(*) FROM jobs c WHERE c.parent_job_id = page.id AND c.status = 'COMPLETED') AS chapters_ready,
                ${listenable('page', 'page.opening')} AS listenable
         FROM page ORDER BY ${orderBy((c) => `page.${c}`)}`,
        params,
      );
      if (rows.length > 0) {
        const waiting = rows.filter((r) => r.waiting === true).map((r) => r.id);
        return { jobs: rows.map(toSummary), total: Number(rows[0]!.total), waiting };
      }
      const { rows: countRows } = await x.query<{ n: number | string }>(
        `SELECT count(*) AS n FROM jobs WHERE ${whereSql}`,
        params.slice(0, -2),
      );
      return { jobs: [], total: Number(countRows[0]?.n ?? 0), waiting: [] };
    },
  };
}
