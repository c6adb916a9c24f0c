import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, book, sentences, startProcess, until, workerIdOf, type Entry, type Proc } from '../support/cluster';
import { freePort } from '../support/ports';
import { startPostgres, type TestPostgres } from '../support/postgres';

// A worker stopped with SIGTERM hands its running jobs back at once. The lease is 10 minutes
// here, far longer than these tests wait: a job only moves to the other worker if the stopping
// worker really handed it back (released its lease and queued it again), not because a lease
// lapsed.

let postgres: TestPostgres;
let db: pg.Client;
let dir: string;
let api: Proc;
let workers: Proc[] = [];
let client: ReturnType<typeof apiClient>;
let apiPort: number;

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: postgres.url,
    DATA_DIR: join(dir, 'data'),
    STORAGE_DIR: join(dir, 'files'),
    JWT_SECRET: 'shutdown-test-secret-0123456789abcdef',
    JOB_LEASE_SECONDS: '600',
    ENCODER_THREADS: '0',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

/**
 * Each worker runs in a process group of its own, as a shell's job does: `afterEach` kills the
 * whole group, so the node process under `npm run worker`'s launcher never outlives its test and
 * takes the next test's job.
 */
function startWorker(entry: Entry = 'worker', extra: Record<string, string> = {}): Proc {
  const proc = startProcess(entry, env({ WORKER_CONCURRENCY: '1', ...extra }), { group: true });
  workers.push(proc);
  return proc;
}

const logs = () => `API log:\n${api.log()}\nWorker logs:\n${workers.map((w) => w.log()).join('\n---\n')}`;

async function jobRow(id: string) {
  const { rows } = await db.query<{ status: string; lease_owner: string | null }>(
    'SELECT status, lease_owner FROM jobs WHERE id = $1',
    [id],
  );
  return rows[0];
}

async function stepRows(id: string) {
  const { rows } = await db.query<{ step_name: string; status: string; attempts: number }>(
    'SELECT step_name, status, attempts FROM job_steps WHERE job_id = $1 ORDER BY step_order',
    [id],
  );
  return rows;
}

beforeAll(async () => {
  postgres = await startPostgres();
  db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  dir = mkdtempSync(join(tmpdir(), 'lectio-shutdown-'));
  const port = await freePort();
  apiPort = port;
  api = startProcess('api', env({ PORT: String(port), HOST: '127.0.0.1', WORKERS: 'none', STATIC_DIR: '' }));
  const url = `http://127.0.0.1:${port}`;
  await until('the API', async () => ((await fetch(`${url}/api/v1/environment`)).ok ? true : undefined), 90_000, logs);
  client = apiClient(url);
  await client.signUp('shutdown@example.com');
}, 120_000);

afterEach(() => {
  for (const w of workers) {
    if (w.child.exitCode !== null || w.child.signalCode !== null) continue;
    try {
      process.kill(-w.child.pid!, 'SIGKILL'); // its whole group, when it has one
    } catch {
      w.child.kill('SIGKILL');
    }
  }
  workers = [];
});

afterAll(async () => {
  api?.child.kill('SIGKILL');
  await db?.end();
  postgres?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the API process', () => {
  it("listens with room for a crowd's connections arriving at once (the kernel's queue, not Node's 511)", () => {
    // `ss` shows a listening socket's backlog as its Send-Q (iproute2, on every Debian).
    const line = execFileSync('ss', ['-Hltn', `sport = :${apiPort}`], { encoding: 'utf8' }).trim();
    const backlog = Number(line.split(/\s+/)[2]);
    const cap = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    expect(backlog, line).toBe(Math.min(4096, cap));
  });
});

describe('SIGTERM on a worker', () => {
  it('hands a job in its synthesize step to the other worker at once', async () => {
    const a = startWorker();
    const b = startWorker();
    const ids = new Map([
      [await workerIdOf(a), a],
      [await workerIdOf(b), b],
    ]);
    // Long enough that its voice is still reading when the signal comes: about 6 s of native
    // synthesis (200 sentences took under 2 s, and a step that ends before the signal arrives
    // completes instead of running again).
    const id = await client.createJob('Short story', sentences(600, 'river'));

    const owner = await until(
      'the synthesize step to run',
      async () => {
        const reading = (await stepRows(id)).some((s) => s.step_name === 'synthesize' && s.status === 'running');
        const row = await jobRow(id);
        return reading && row?.lease_owner ? row.lease_owner : undefined;
      },
      60_000,
      logs,
    );
    const stopped = ids.get(owner)!;
    const other = [...ids].find(([wid]) => wid !== owner)!;
    stopped.child.kill('SIGTERM');

    // The other worker holds the job next, and finishes it.
    await until(
      'the other worker to take the job',
      async () => ((await jobRow(id))?.lease_owner === other[0] ? true : undefined),
      60_000,
      logs,
    );
    expect(await stopped.exited).toBe(0);
    expect(stopped.log()).toContain('job handed back for another worker');
    await until(
      'the job to complete',
      async () => ((await client.status(id)) === 'COMPLETED' ? true : undefined),
      120_000,
      logs,
    );
    const steps = await stepRows(id);
    expect(steps.every((s) => s.status === 'completed')).toBe(true);
    // The interrupted step ran again, once, in the other worker.
    expect(steps.find((s) => s.step_name === 'synthesize')?.attempts, logs()).toBe(2);
    // The worker lets go of the finished job.
    await until(
      'the lease to be released',
      async () => ((await jobRow(id))?.lease_owner === null ? true : undefined),
      10_000,
      logs,
    );

    // Logs at info: one line per state change with the job and its user; polling stays at debug.
    // Three processes' logs, in the order the lines were written.
    const lines = [...workers, api]
      .flatMap((p) => p.log().split('\n'))
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .sort((a, b) => Number(a.time) - Number(b.time));
    const changes = lines.filter((l) => l.jobId === id && typeof l.status === 'string').map((l) => [l.msg, l.status]);
    expect(changes).toEqual([
      ['job processing', 'PROCESSING'],
      ['job completed', 'COMPLETED'],
    ]);
    expect(lines.filter((l) => l.jobId === id && l.status === 'COMPLETED')[0]?.userId).toMatch(/^[0-9a-f-]{36}$/);
    const requests = lines.filter((l) => l.msg === 'request completed');
    expect(requests.some((l) => l.method === 'POST' && l.url === '/api/v1/jobs' && l.status === 201)).toBe(true);
    expect(requests.filter((l) => l.method === 'GET')).toEqual([]);
  }, 240_000);

  it('lets the other compiled worker (npm run worker) finish a book whose chapter was running', async () => {
    const a = startWorker('compiled-worker');
    const aId = await workerIdOf(a, 120_000); // the first one compiles dist-server/ when it is stale
    const b = startWorker('compiled-worker', { OPS_PORT: '0', HOST: '127.0.0.1', METRICS_PUBLIC: 'true' });
    const bId = await workerIdOf(b);
    // A worker with OPS_PORT serves readiness and its own metrics.
    const opsUrl = /"opsUrl":"(http:\/\/[^"]+)"/.exec(b.log())?.[1];
    expect(opsUrl).toBeDefined();
    const ready = await fetch(`${opsUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok', queue: 'ok' } });
    expect(await (await fetch(`${opsUrl}/metrics`)).text()).toContain('lectio_jobs_running 0');
    const id = await client.createJob('Three rivers', book(3, 12));

    // A chapter is being synthesized by one worker: stop that worker.
    const { chapter, owner } = await until(
      'a chapter to be synthesized',
      async () => {
        const { rows } = await db.query<{ id: string; lease_owner: string }>(
          `SELECT j.id, j.lease_owner FROM jobs j JOIN job_steps s ON s.job_id = j.id
            WHERE j.parent_job_id = $1 AND s.step_name = 'synthesize' AND s.status = 'running' AND j.lease_owner IS NOT NULL`,
          [id],
        );
        return rows[0] ? { chapter: rows[0].id, owner: rows[0].lease_owner } : undefined;
      },
      90_000,
      logs,
    );
    const [stopped, survivor] = owner === aId ? [a, bId] : [b, aId];
    stopped.child.kill('SIGTERM');
    expect(await stopped.exited).toBe(0);
    expect(stopped.log()).toContain('job handed back for another worker');

    await until(
      'the book to complete',
      async () => ((await client.status(id)) === 'COMPLETED' ? true : undefined),
      180_000,
      logs,
    );
    const { rows } = await db.query<{ status: string }>('SELECT status FROM jobs WHERE parent_job_id = $1', [id]);
    expect(rows.map((r) => r.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
    const synth = (await stepRows(chapter)).find((s) => s.step_name === 'synthesize');
    expect(synth).toMatchObject({ status: 'completed', attempts: 2 });
    expect(survivor).not.toBe(owner);
  }, 360_000);

  it('kill -TERM to the process group of `npm run worker` is one graceful shutdown: the job moves on at once', async () => {
    // npm passes its SIGTERM on to the worker, which got its own from the group: two signals, one request.
    const a = startWorker('npm-worker');
    const aId = await workerIdOf(a, 120_000);
    // Long enough to be still converting once the second worker has started.
    const id = await client.createJob('Long river', sentences(200, 'meadow'));
    await until(
      'the first worker to run the job',
      async () => ((await jobRow(id))?.lease_owner === aId ? true : undefined),
      60_000,
      logs,
    );
    const b = startWorker();
    const bId = await workerIdOf(b);
    process.kill(-a.child.pid!, 'SIGTERM');
    await a.exited; // npm itself ends by the signal, once the worker has exited
    // Handed back, not abandoned: with a 10-minute lease the job only moves on if it was.
    await until(
      'the other worker to take the job',
      async () => ((await jobRow(id))?.lease_owner === bId ? true : undefined),
      60_000,
      logs,
    );
    expect(a.log()).toContain('job handed back for another worker');
    expect(a.log()).toContain('shutdown complete');
    expect(a.log()).not.toContain('second signal: exiting now');
    await until(
      'the job to complete',
      async () => ((await client.status(id)) === 'COMPLETED' ? true : undefined),
      120_000,
      logs,
    );
  }, 300_000);
});
