/** What the SQL of the jobs table shares. */
import type { DbExecutor } from '../../../db/types';
import type { JobRecord } from '../../types';
import { JOB_COLUMNS, toJob, type JobRow } from '../rows';

/** The jobs that match `where` (a condition, and its ORDER BY and LIMIT), as typed records. */
export async function selectJobs(x: DbExecutor, where: string, params: unknown[]): Promise<JobRecord[]> {
  const { rows } = await x.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE ${where}`, params);
  return rows.map(toJob);
}

/** An unfinished job. */
export const ACTIVE = `status IN ('PENDING', 'PROCESSING')`;

/** `opening` (a jsonb expression, a job's config->'opening') is written: the first minutes play. */
const hasOpening = (opening: string) => `jsonb_typeof(${opening}) = 'object'`;

/** The chapter jobs (alias `c`) of the job `row` (a table name or alias with id and user_id). */
const chaptersOf = (row: string) =>
  `SELECT 1 FROM jobs c WHERE c.parent_job_id = ${row}.id AND c.user_id = ${row}.user_id`;

/** A converting chapter of the book `row` has its opening written (docs/listening.md). */
export const openingReady = (row: string) =>
  `EXISTS (${chaptersOf(row)} AND c.status IN ('PENDING', 'PROCESSING') AND ${hasOpening(`c.config->'opening'`)})`;

/**
 * The job `row` can be played now: it is COMPLETED, or it still converts and has something to
 * play, a converted chapter, a converting chapter's opening (a book's first minutes) or its own
 * opening (that first chapter itself). `opening` is the row's config->'opening', for a row that
 * carries it under another name. The list's `listenable` and its LISTENABLE filter.
 */
export const listenable = (row: string, opening = `${row}.config->'opening'`) =>
  `(${row}.status = 'COMPLETED' OR (${row}.status IN ('PENDING', 'PROCESSING') AND (${hasOpening(opening)}
     OR EXISTS (${chaptersOf(row)} AND (c.status = 'COMPLETED'
       OR (c.status IN ('PENDING', 'PROCESSING') AND ${hasOpening(`c.config->'opening'`)}))))))`;

export const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
