// `npm run bench -- scale-out`: the scale-out figures, printed (never asserted).
//   1. An API (WORKERS=none) and 1, then 2, `npm run worker` processes on PostgreSQL with S3
//      storage (s3rver on loopback): a 3-chapter book and 20 short jobs from 10 users, all
//      complete; wall time for each.
//   2. Takeover: a worker converting a chapter gets SIGTERM; time until the other worker holds it.
//   3. 200 simulated listeners saving progress every 10 s for 60 s while 5 conversions run:
//      progress-save p50/p99 and the error count (target: p99 under 100 ms, 0 errors).
// Needs PostgreSQL server binaries (as the integration tests do). Every loop is bounded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildServerIfStale } from '../scripts/build-server.mjs';
import { apiClient, book, sentences, startProcess, until, workerIdOf, type Proc } from '../tests/support/cluster';
import { freePort } from '../tests/support/ports';
import { startPostgres } from '../tests/support/postgres';
import { startS3 } from '../tests/support/s3';

const LISTENERS = 200;
const SAVE_EVERY_MS = 10_000;
const LISTEN_FOR_MS = 60_000;

const postgres = await startPostgres();
const s3 = await startS3('lectio-bench');
const dir = mkdtempSync(join(tmpdir(), 'lectio-bench-scale-'));
const db = new pg.Client({ connectionString: postgres.url });
await db.connect();
const procs: Proc[] = [];

const env = (extra: Record<string, string> = {}) => ({
  DATABASE_URL: postgres.url,
  DATA_DIR: join(dir, 'data'),
  JWT_SECRET: 'bench-scale-secret-0123456789abcdefgh',
  JOB_LEASE_SECONDS: '20',
  LOG_LEVEL: 'warn',
  SKIP_BUILD: '1',
  // Every simulated reader signs up and in from 127.0.0.1: one address, many people.
  SIGNUP_RATE_LIMIT_PER_HOUR: '1000',
  AUTH_RATE_LIMIT_PER_MINUTE: '1000',
  ...s3.env('bench'),
  ...extra,
});

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function stop(proc: Proc): Promise<void> {
  proc.child.kill('SIGTERM');
  await Promise.race([proc.exited, new Promise((r) => setTimeout(r, 20_000))]);
  proc.child.kill('SIGKILL');
}

async function startApi(): Promise<string> {
  const port = await freePort();
  const api = startProcess(
    'compiled-api',
    env({ PORT: String(port), HOST: '127.0.0.1', WORKERS: 'none', STATIC_DIR: '' }),
  );
  procs.push(api);
  const url = `http://127.0.0.1:${port}`;
  await until('the API', async () => ((await fetch(`${url}/healthz`)).ok ? true : undefined), 120_000, api.log);
  return url;
}

async function startWorkers(n: number): Promise<{ procs: Proc[]; ids: string[] }> {
  const started: Proc[] = [];
  // LOG_LEVEL=info: a worker says it is ready (with its id) at info.
  for (let i = 0; i < n; i += 1)
    started.push(startProcess('compiled-worker', env({ WORKER_CONCURRENCY: '2', LOG_LEVEL: 'info' })));
  procs.push(...started);
  const ids = await Promise.all(started.map((p) => workerIdOf(p, 120_000)));
  return { procs: started, ids };
}

async function topLevelDone(ids: string[]): Promise<boolean> {
  const { rows } = await db.query<{ status: string }>('SELECT status FROM jobs WHERE id = ANY($1::uuid[])', [ids]);
  const bad = rows.filter((r) => r.status === 'FAILED' || r.status === 'CANCELLED');
  if (bad.length > 0) throw new Error(`${bad.length} job(s) failed`);
  return rows.length === ids.length && rows.every((r) => r.status === 'COMPLETED');
}

/** Figure 1: a book and 20 short jobs from 10 users; wall time until all are COMPLETED. */
async function workload(
  apiUrl: string,
  tag: string,
): Promise<{ seconds: number; clients: ReturnType<typeof apiClient>[]; ids: string[] }> {
  const clients = Array.from({ length: 10 }, () => apiClient(apiUrl));
  await Promise.all(clients.map((c, i) => c.signUp(`${tag}-user${i}@example.com`)));
  const began = performance.now();
  const ids = [await clients[0]!.createJob(`${tag} book`, book(3, 8))];
  for (let i = 0; i < 20; i += 1)
    ids.push(await clients[i % 10]!.createJob(`${tag} short ${i + 1}`, sentences(3, `brook ${i + 1}`)));
  await until('every job to complete', async () => ((await topLevelDone(ids)) ? true : undefined), 900_000);
  return { seconds: (performance.now() - began) / 1000, clients, ids };
}

try {
  // Compile dist-server/ once, before any worker starts (workers run with SKIP_BUILD=1).
  await buildServerIfStale();
  const apiUrl = await startApi();

  const one = await startWorkers(1);
  const single = await workload(apiUrl, 'w1');
  for (const p of one.procs) await stop(p);
  console.log(
    `1 worker : 3-chapter book + 20 short jobs from 10 users, all COMPLETED in ${single.seconds.toFixed(1)} s`,
  );

  const two = await startWorkers(2);
  const double = await workload(apiUrl, 'w2');
  console.log(
    `2 workers: 3-chapter book + 20 short jobs from 10 users, all COMPLETED in ${double.seconds.toFixed(1)} s (${(single.seconds / double.seconds).toFixed(2)}x the 1-worker speed)`,
  );

  // Figure 2: takeover after SIGTERM.
  const taker = apiClient(apiUrl);
  await taker.signUp('takeover@example.com');
  const bookId = await taker.createJob('Takeover book', book(3, 25));
  const running = await until(
    'a chapter to be synthesized',
    async () => {
      const { rows } = await db.query<{ id: string; lease_owner: string }>(
        `SELECT j.id, j.lease_owner FROM jobs j JOIN job_steps s ON s.job_id = j.id
          WHERE j.parent_job_id = $1 AND s.step_name = 'synthesize' AND s.status = 'running' AND j.lease_owner IS NOT NULL`,
        [bookId],
      );
      return rows[0];
    },
    300_000,
  );
  const victim = two.procs[two.ids.indexOf(running.lease_owner)]!;
  const other = two.ids.find((id) => id !== running.lease_owner)!;
  const killedAt = performance.now();
  victim.child.kill('SIGTERM');
  await until(
    'the other worker to take the chapter',
    async () => {
      const { rows } = await db.query<{ lease_owner: string | null }>('SELECT lease_owner FROM jobs WHERE id = $1', [
        running.id,
      ]);
      return rows[0]?.lease_owner === other ? true : undefined;
    },
    120_000,
  );
  const takeoverMs = performance.now() - killedAt;
  await until('the book to complete', async () => ((await topLevelDone([bookId])) ? true : undefined), 600_000);
  console.log(
    `takeover : SIGTERM to the other worker holding the chapter in ${takeoverMs.toFixed(0)} ms (lease 20 s); the book completed`,
  );
  await victim.exited;
  await startWorkers(1); // back to two workers for the conversions below

  // Figure 3: 200 listeners saving progress every 10 s while 5 conversions run.
  const owners = double.clients.map((c, i) => ({ client: c, jobId: double.ids[i + 1]! }));
  const conversions: string[] = [];
  for (let i = 0; i < 5; i += 1)
    conversions.push(await owners[i]!.client.createJob(`During listening ${i + 1}`, sentences(20, `creek ${i + 1}`)));
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + LISTEN_FOR_MS;
  await Promise.all(
    Array.from({ length: LISTENERS }, async (_, n) => {
      const { client, jobId } = owners[n % owners.length]!;
      await new Promise((r) => setTimeout(r, Math.random() * SAVE_EVERY_MS));
      for (let position = 10; Date.now() < end; position += 10) {
        const t0 = performance.now();
        try {
          const res = await client.call('PUT', `/api/v1/progress/${jobId}`, {
            position_seconds: (position % 100) / 100,
            duration_seconds: 2,
          });
          if (res.status !== 200) errors += 1;
        } catch {
          errors += 1;
        }
        latencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, SAVE_EVERY_MS));
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM jobs WHERE id = ANY($1::uuid[]) AND status = 'COMPLETED'",
    [conversions],
  );
  console.log(
    `listeners: ${LISTENERS} saving every ${SAVE_EVERY_MS / 1000} s for ${LISTEN_FOR_MS / 1000} s + 5 conversions (${rows[0]?.n ?? 0} finished meanwhile): ` +
      `${latencies.length} saves, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ${errors} errors (target: p99 < 100 ms, 0 errors)`,
  );
} finally {
  for (const p of procs) p.child.kill('SIGKILL');
  await db.end();
  await s3.destroy();
  postgres.stop();
  rmSync(dir, { recursive: true, force: true });
}
