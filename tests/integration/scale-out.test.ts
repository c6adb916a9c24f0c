import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports';
import { startPostgres, type TestPostgres } from '../support/postgres';
import { id3Length } from '../../server/testing/readers';

// Scale-out for real: one API process with no workers of its own, and separate `npm run worker`
// processes, all on one PostgreSQL server and one storage directory.

interface Proc {
  child: ChildProcess;
  log: () => string;
}

let postgres: TestPostgres;
let db: pg.Client;
let dir: string;
let api: Proc;
let apiUrl: string;
const workers: Proc[] = [];
let headers: Record<string, string>;

function sentences(n: number, topic: string): string {
  return Array.from(
    { length: n },
    (_, i) => `Sentence ${i + 1} tells of the ${topic} that ran past the old mill in the valley.`,
  ).join(' ');
}

function start(script: string, env: Record<string, string>): Proc {
  let log = '';
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: {
      ...process.env,
      DATABASE_URL: postgres.url,
      DATA_DIR: join(dir, 'data'),
      STORAGE_DIR: join(dir, 'files'),
      JWT_SECRET: 'scale-out-test-secret-0123456789abcdef',
      JOB_LEASE_SECONDS: '4',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c) => (log += c));
  child.stderr?.on('data', (c) => (log += c));
  return { child, log: () => log };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(
        `Timed out waiting for ${what}.\nAPI log:\n${api.log()}\nWorker logs:\n${workers.map((w) => w.log()).join('\n---\n')}`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function call(method: string, path: string, body?: object) {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body && { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function createJob(title: string, content: string): Promise<string> {
  const { status, body } = await call('POST', '/api/v1/jobs', { title, content });
  expect(status).toBe(201);
  return String(body.id);
}

const statusOf = async (id: string) => String((await call('GET', `/api/v1/jobs/${id}`)).body.status);

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
  dir = mkdtempSync(join(tmpdir(), 'lectio-scale-'));
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  // Six jobs at once: more than one reader's default limit of unfinished jobs (QUOTA_ACTIVE_JOBS).
  api = start('server/main.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    WORKERS: 'none',
    STATIC_DIR: '',
    QUOTA_ACTIVE_JOBS: '100',
  });
  await until('the API', async () => ((await fetch(`${apiUrl}/api/v1/environment`)).ok ? true : undefined));
  const credentials = { email: 'scale@example.com', password: 'correct-horse' };
  headers = {};
  expect((await call('POST', '/api/v1/auth/register', credentials)).status).toBe(201);
  headers = { authorization: `Bearer ${(await call('POST', '/api/v1/auth/login', credentials)).body.access_token}` };
}, 120_000);

afterAll(async () => {
  for (const p of [...workers, api]) p?.child.kill('SIGKILL');
  await db?.end();
  postgres?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('separate worker processes on PostgreSQL', () => {
  it('lets a second worker finish the job of a worker killed mid-synthesis', async () => {
    workers.push(start('server/worker.ts', { WORKER_CONCURRENCY: '1' }));
    const id = await createJob('Takeover', sentences(120, 'river'));
    // Only worker A exists: it is the one synthesizing.
    await until('synthesis to start', async () =>
      (await stepRows(id)).some((s) => s.step_name === 'synthesize' && s.status === 'running') ? true : undefined,
    );
    workers.push(start('server/worker.ts', { WORKER_CONCURRENCY: '1' }));
    workers[0]!.child.kill('SIGKILL');

    await until(
      'the job to complete in the other worker',
      async () => ((await statusOf(id)) === 'COMPLETED' ? true : undefined),
      120_000,
    );
    const steps = await stepRows(id);
    expect(steps.map((s) => s.step_name)).toEqual([
      'acquire_content',
      'split_chapters',
      'synthesize',
      'analyze',
      'finalize',
    ]);
    expect(steps.every((s) => s.status === 'completed')).toBe(true);
    // The interrupted step ran again from its start, once, in the surviving worker.
    expect(steps.find((s) => s.step_name === 'synthesize')?.attempts).toBe(2);

    const { body } = await call('GET', `/api/v1/audio/${id}/stream`);
    // The streaming URL is absolute (built from the request's own address).
    const audio = await fetch(new URL(String(body.streaming_url), apiUrl));
    expect(audio.status).toBe(200);
    const result = (await call('GET', `/api/v1/jobs/${id}`)).body.result_data as { file_size_bytes: number };
    // The stored MP3 with its ID3 tag in front.
    const served = Buffer.from(await audio.arrayBuffer());
    expect(served.byteLength).toBe(id3Length(served) + result.file_size_bytes);
  }, 240_000);

  it('processes every job exactly once with two workers sharing the queue', async () => {
    workers.push(start('server/worker.ts', { WORKER_CONCURRENCY: '2' }));
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) ids.push(await createJob(`Batch ${i + 1}`, sentences(4, `stream ${i + 1}`)));
    for (const id of ids) {
      await until(`job ${id}`, async () => ((await statusOf(id)) === 'COMPLETED' ? true : undefined), 120_000);
    }
    for (const id of ids) {
      const steps = await stepRows(id);
      expect(steps).toHaveLength(5);
      expect(steps.every((s) => s.status === 'completed' && s.attempts === 1)).toBe(true);
    }
  }, 240_000);
});
