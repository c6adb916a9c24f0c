/**
 * The job_steps table's repository: the ONLY code that reads or writes `job_steps` (one row per
 * step of a job, keyed (job_id, step_name); a completed step never runs again).
 */
import { randomUUID } from 'node:crypto';
import type { DbExecutor } from '../../db/types';
import type { StepName, StepRecord, StepStatus } from '../types';
import { MANY_ROWS, STEP_COLUMNS, toStep, type StepRow } from './rows';

export interface StepFields {
  status?: StepStatus;
  progress?: number;
  errorMessage?: string | null;
  metadata?: Record<string, unknown>;
  /**
   * The step starts now: started_at is set, completed_at cleared. A step already running keeps its
   * start (a book's synthesize_chapters is woken again and again while its chapters convert; its
   * duration is the whole wait, not the last wake).
   */
  start?: boolean;
  complete?: boolean;
  countAttempt?: boolean;
}

/** The job_steps table's queries on one executor (the database, or one transaction). */
export function jobStepsTable(x: DbExecutor) {
  return {
    /** The same pending steps, in order from 1, for each of many new jobs (a book's chapters), a few statements in all. */
    async insertForJobs(jobIds: readonly string[], names: readonly string[]): Promise<void> {
      const rows = jobIds.flatMap((jobId) => names.map((name, i) => ({ jobId, name, order: i + 1 })));
      for (let at = 0; at < rows.length; at += MANY_ROWS) {
        const batch = rows.slice(at, at + MANY_ROWS);
        await x.query(
          `INSERT INTO job_steps (id, job_id, step_name, step_order, status)
           SELECT id, job_id, step_name, step_order, 'pending'
           FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::integer[]) AS t(id, job_id, step_name, step_order)`,
          [
            batch.map(() => randomUUID()),
            batch.map((r) => r.jobId),
            batch.map((r) => r.name),
            batch.map((r) => r.order),
          ],
        );
      }
    },

    /** Adds pending steps from `firstOrder` on; a step the job has already moves to its new place. */
    async insert(jobId: string, names: readonly string[], firstOrder: number): Promise<void> {
      for (const [i, name] of names.entries()) {
        await x.query(
          `INSERT INTO job_steps (id, job_id, step_name, step_order, status) VALUES ($1, $2, $3, $4, 'pending')
           ON CONFLICT (job_id, step_name) DO UPDATE SET step_order = EXCLUDED.step_order`,
          [randomUUID(), jobId, name, firstOrder + i],
        );
      }
    },

    /** The steps of these jobs, each job's in run order. */
    async ofJobs(jobIds: string[]): Promise<StepRecord[]> {
      if (jobIds.length === 0) return [];
      const { rows } = await x.query<StepRow>(
        `SELECT ${STEP_COLUMNS} FROM job_steps WHERE job_id = ANY($1::uuid[]) ORDER BY job_id, step_order`,
        [jobIds],
      );
      return rows.map(toStep);
    },

    async update(jobId: string, stepName: StepName, fields: StepFields): Promise<void> {
      const sets = ['updated_at = now()'];
      const params: unknown[] = [jobId, stepName];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        sets.push(sql.replace('?', `$${params.length}`));
      };
      if (fields.status !== undefined) add('status = ?', fields.status);
      if (fields.progress !== undefined) add('progress = ?', Math.max(0, Math.min(100, fields.progress)));
      if (fields.errorMessage !== undefined) add('error_message = ?', fields.errorMessage);
      if (fields.metadata !== undefined)
        add('step_metadata = step_metadata || ?::jsonb', JSON.stringify(fields.metadata));
      if (fields.start)
        sets.push(
          `started_at = CASE WHEN job_steps.status = 'running' AND job_steps.started_at IS NOT NULL
             THEN job_steps.started_at ELSE now() END`,
          'completed_at = NULL',
        );
      if (fields.complete) sets.push('completed_at = now()');
      if (fields.countAttempt) sets.push('attempts = attempts + 1');
      await x.query(`UPDATE job_steps SET ${sets.join(', ')} WHERE job_id = $1 AND step_name = $2`, params);
    },

    async remove(jobId: string, stepName: StepName): Promise<void> {
      await x.query('DELETE FROM job_steps WHERE job_id = $1 AND step_name = $2', [jobId, stepName]);
    },

    /** The progress of the job's step `stepName` while it runs. */
    async setRunningProgress(jobId: string, stepName: StepName, progress: number): Promise<void> {
      await x.query(
        `UPDATE job_steps SET progress = $3::double precision, updated_at = now()
         WHERE job_id = $1 AND step_name = $2 AND status = 'running'`,
        [jobId, stepName, progress],
      );
    },

    /** Failed and interrupted steps of these jobs back to pending, for a retry. */
    async resetUnfinished(jobIds: string[]): Promise<void> {
      await x.query(
        `UPDATE job_steps SET status = 'pending', error_message = NULL, progress = 0, started_at = NULL, completed_at = NULL, updated_at = now()
         WHERE job_id = ANY($1::uuid[]) AND status IN ('failed', 'running')`,
        [jobIds],
      );
    },

    /** The named steps of these jobs back to pending, whatever their state (a part converted again). */
    async resetNamed(jobIds: readonly string[], names: readonly string[]): Promise<void> {
      await x.query(
        `UPDATE job_steps SET status = 'pending', error_message = NULL, progress = 0, started_at = NULL, completed_at = NULL, updated_at = now()
         WHERE job_id = ANY($1::uuid[]) AND step_name = ANY($2::text[])`,
        [jobIds, names],
      );
    },

    /** The running steps of these jobs fail with `message` (a cancel). */
    async failRunning(jobIds: string[], message: string): Promise<void> {
      await x.query(
        `UPDATE job_steps SET status = 'failed', error_message = $2, completed_at = now(), updated_at = now()
         WHERE job_id = ANY($1::uuid[]) AND status = 'running'`,
        [jobIds, message],
      );
    },
  };
}
