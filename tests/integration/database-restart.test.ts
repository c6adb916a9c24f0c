import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, sentences, startProcess, until, workerIdOf, type Proc } from '../support/cluster';
import { freePort } from '../support/ports';
import { startPostgres, type TestPostgres } from '../support/postgres';

// PostgreSQL restarted (fast shutdown: every session terminated) under a running API and worker.
// The lease is 10 minutes: the job can only finish soon after the restart if its own worker
// resumed it, not because another took it over once a lease lapsed.

let postgres: TestPostgres;
let dir: string;
let api: Proc;
let worker: Proc;
let url: string;
let client: ReturnType<typeof apiClient>;

const logs = () => `API log:\n${api.log()}\nWorker log:\n${worker.log()}`;

/** One query on a connection of its own (the server restarts under these tests). */
async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: postgres.url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows as T[];
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  postgres = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'lectio-db-restart-'));
  const env = {
    DATABASE_URL: postgres.url,
    DATA_DIR: join(dir, 'data'),
    STORAGE_DIR: join(dir, 'files'),
    JWT_SECRET: 'db-restart-test-secret-0123456789abcdef',
    JOB_LEASE_SECONDS: '600',
    ENCODER_THREADS: '0',
    LOG_LEVEL: 'info',
  };
  const port = await freePort();
  api = startProcess('api', { ...env, PORT: String(port), HOST: '127.0.0.1', WORKERS: 'none', STATIC_DIR: '' });
  url = `http://127.0.0.1:${port}`;
  await until('the API', async () => ((await fetch(`${url}/api/v1/environment`)).ok ? true : undefined), 90_000, logs);
  worker = startProcess('worker', { ...env, WORKER_CONCURRENCY: '1' });
  await workerIdOf(worker);
  client = apiClient(url);
  await client.signUp('restart@example.com');
}, 180_000);

afterAll(() => {
  api?.child.kill('SIGKILL');
  worker?.child.kill('SIGKILL');
  postgres?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('PostgreSQL restarting under the API and a worker', () => {
  it('answers 503 with Retry-After during the outage, never 500, and the running job resumes and completes', async () => {
    const id = await client.createJob('Through the restart', sentences(150, 'harbour'));
    await until(
      'the job to be synthesized',
      async () => {
        const rows = await query<{ status: string }>(
          "SELECT status FROM job_steps WHERE job_id = $1 AND step_name = 'synthesize'",
          [id],
        );
        return rows[0]?.status === 'running' ? true : undefined;
      },
      120_000,
      logs,
    );

    postgres.shutDown();
    // While it is down, what readers and probes poll: the list, the job, readiness.
    const answers: { path: string; status: number; retryAfter: string | null; detail: unknown }[] = [];
    for (let i = 0; i < 10; i += 1) {
      for (const path of ['/api/v1/jobs', `/api/v1/jobs/${id}`]) {
        const res = await client.call('GET', path).catch(() => null);
        if (res === null) throw new Error(`the API stopped answering ${path}\n${logs()}`);
        answers.push({ path, status: res.status, retryAfter: res.retryAfterHeader, detail: res.body.detail });
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    // Never a 500: the list may come from its cache (200), anything that needs the database is 503.
    expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
    const unavailable = answers.filter((a) => a.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const a of unavailable) {
      expect(a).toMatchObject({
        retryAfter: '5',
        detail: 'The database is unavailable for a moment; try again shortly',
      });
    }
    expect((await fetch(`${url}/readyz`)).status).toBe(503);
    // Both processes are still there.
    expect(api.child.exitCode, logs()).toBeNull();
    expect(worker.child.exitCode, logs()).toBeNull();

    postgres.startAgain();
    await until(
      'the job to complete after the restart',
      async () => ((await client.status(id)) === 'COMPLETED' ? true : undefined),
      180_000,
      logs,
    );
    expect(worker.log()).toContain('database answers again; resuming its jobs');
    const stuck = await query<{ id: string }>("SELECT id FROM jobs WHERE status = 'PROCESSING'");
    expect(stuck).toEqual([]);
    expect(worker.child.exitCode, logs()).toBeNull();
    expect((await client.call('GET', '/api/v1/jobs')).status).toBe(200);
  }, 420_000);
});
