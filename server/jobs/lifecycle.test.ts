import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/pglite';
import { LocalFileStorage } from '../storage/local';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, getJob, longText, signIn, waitForJob } from '../testing/jobs';
import { createConversion } from './index';

const opened: TestApp[] = [];
afterAll(async () => {
  for (const t of opened) await t.close().catch(() => undefined);
});

const synthesizing = (j: { steps: { step_name: string; status: string }[]; progress: number }) =>
  j.steps.some((s) => s.step_name === 'synthesize' && s.status === 'RUNNING') && j.progress > 9;

describe('cancel', () => {
  it('stops a job mid-synthesis within seconds and leaves no audio', { timeout: 120_000 }, async () => {
    const t = await createTestApp({ env: { ENCODER_THREADS: '0' } });
    opened.push(t);
    const headers = await signIn(t, 'cancel@example.com');
    const id = ((await createJob(t, headers, { title: 'Long', content: longText(150) })).json() as { id: string }).id;
    await waitForJob(t, headers, id, synthesizing, 60_000);

    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${id}`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('CANCELLED');
    const stoppedBy = Date.now() + 3000;
    let step = (await getJob(t, headers, id)).steps.find((s) => s.step_name === 'synthesize')!;
    expect(step).toMatchObject({ status: 'FAILED', error_message: 'Cancelled' });
    // The runner lets go of the job (its lease) once the work has stopped.
    for (;;) {
      const { rows } = await t.db.query<{ lease_owner: string | null }>('SELECT lease_owner FROM jobs WHERE id = $1', [
        id,
      ]);
      if (rows[0]?.lease_owner === null) break;
      expect(Date.now()).toBeLessThan(stoppedBy);
      await new Promise((r) => setTimeout(r, 100));
    }
    const job = await getJob(t, headers, id);
    expect(job.status).toBe('CANCELLED');
    expect(job.output_file_key).toBeNull();
    step = job.steps.find((s) => s.step_name === 'synthesize')!;
    expect(step.status).toBe('FAILED');
    const storage = new LocalFileStorage(t.config.storageDir);
    expect(await storage.stat(`jobs/${id}/audio.mp3`)).toBeNull();
    expect(job.steps.find((s) => s.step_name === 'finalize')?.status).toBe('PENDING');
  });
});

describe('a lease', () => {
  it('is let go by a worker that finds the job it still holds ended', { timeout: 120_000 }, async () => {
    const t = await createTestApp({ env: { ENCODER_THREADS: '0' } });
    opened.push(t);
    const headers = await signIn(t, 'lease@example.com');
    const id = ((await createJob(t, headers, { title: 'Short', content: longText(2) })).json() as { id: string }).id;
    expect((await waitForJob(t, headers, id, undefined, 60_000)).status).toBe('COMPLETED');
    // A second worker on the same database, as after a database outage: it kept its lease to
    // resume the job, whose last step had gone through before a later query failed.
    const other = await createConversion(t.config, t.db, t.app.log);
    try {
      await t.db.query("UPDATE jobs SET lease_owner = $2, lease_until = now() + interval '10 minutes' WHERE id = $1", [
        id,
        other.runner!.workerId,
      ]);
      await other.runner!.handle(id); // its resumed run
      const { rows } = await t.db.query<{ lease_owner: string | null }>('SELECT lease_owner FROM jobs WHERE id = $1', [
        id,
      ]);
      expect(rows[0]?.lease_owner).toBeNull();
      expect((await getJob(t, headers, id)).status).toBe('COMPLETED');
    } finally {
      await other.close();
    }
  });
});

describe('restart', () => {
  it(
    'a job interrupted by a shutdown completes after the next start, one row per step',
    { timeout: 150_000 },
    async () => {
      const dbDir = mkdtempSync(path.join(tmpdir(), 'lectio-restart-db-'));
      const env = {
        ENCODER_THREADS: '0',
        LOG_LEVEL: process.env.TEST_LOG ?? 'silent',
        STORAGE_DIR: mkdtempSync(path.join(tmpdir(), 'lectio-restart-files-')),
      };
      const dbA = await openPglite(dbDir);
      const a = await createTestApp({ env, db: dbA });
      const headers = await signIn(a, 'restart@example.com');
      const id = (
        (await createJob(a, headers, { title: 'Interrupted', content: longText(40) })).json() as { id: string }
      ).id;
      await waitForJob(a, headers, id, synthesizing, 60_000);
      // Crash-like stop: the work in flight is abandoned mid-step.
      await a.app.close();
      await dbA.close();

      const dbB = await openPglite(dbDir);
      const b = await createTestApp({ env, db: dbB });
      opened.push({
        ...b,
        close: async () => {
          await b.close();
          await dbB.close();
        },
      });
      const job = await waitForJob(b, headers, id, undefined, 120_000);
      expect(job.status, job.error_message ?? '').toBe('COMPLETED');
      expect(job.steps.map((s) => [s.step_name, s.status])).toEqual([
        ['acquire_content', 'COMPLETED'],
        ['split_chapters', 'COMPLETED'],
        ['synthesize', 'COMPLETED'],
        ['analyze', 'COMPLETED'],
        ['finalize', 'COMPLETED'],
      ]);
      const { rows } = await dbB.query<{ step_name: string; attempts: number }>(
        'SELECT step_name, attempts FROM job_steps WHERE job_id = $1 ORDER BY step_order',
        [id],
      );
      expect(rows.map((r) => r.step_name)).toEqual([
        'acquire_content',
        'split_chapters',
        'synthesize',
        'analyze',
        'finalize',
      ]);
      expect(rows.find((r) => r.step_name === 'analyze')?.attempts).toBe(1);
      expect(rows.find((r) => r.step_name === 'synthesize')?.attempts).toBe(2);
      const storage = new LocalFileStorage(env.STORAGE_DIR);
      expect((await storage.stat(job.output_file_key!))?.size).toBe(job.result_data.file_size_bytes);
    },
  );
});

describe('a lost queue message', () => {
  it(
    'does not strand a job: a live worker queues a job that has no lease and no message',
    { timeout: 150_000 },
    async () => {
      const t = await createTestApp({ env: { ENCODER_THREADS: '0', WORKER_CONCURRENCY: '1', JOB_LEASE_SECONDS: '3' } });
      opened.push(t);
      const headers = await signIn(t, 'lost@example.com');
      // The only worker slot is busy with a long job; a second job waits in the queue.
      const busy = ((await createJob(t, headers, { title: 'Busy', content: longText(150) })).json() as { id: string })
        .id;
      await waitForJob(t, headers, busy, synthesizing, 60_000);
      const waiting = (
        (await createJob(t, headers, { title: 'Waiting', content: longText(2) })).json() as { id: string }
      ).id;
      // Its message is lost (as when a process dies between its database commit and the queue) and
      // it has not moved for an hour.
      await t.db.query(`DELETE FROM pgboss.job WHERE data->>'jobId' = $1`, [waiting]);
      await t.db.query(`UPDATE jobs SET status = 'PROCESSING', updated_at = now() - interval '1 hour' WHERE id = $1`, [
        waiting,
      ]);
      expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${busy}`, headers })).statusCode).toBe(200);

      const job = await waitForJob(t, headers, waiting, undefined, 90_000);
      expect(job.status, job.error_message ?? '').toBe('COMPLETED');
      expect(job.steps.every((s) => s.status === 'COMPLETED')).toBe(true);
    },
  );
});
