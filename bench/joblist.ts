/**
 * Job list bench: `npm run bench -- joblist` (node --import tsx bench/joblist.ts).
 *
 * What every open browser does: poll GET /api/v1/jobs. An account holds 200 jobs (40 of them books
 * with 5 chapters and a tutoring analysis, as finished books have); the bench asks for a page of 20,
 * as the Jobs screen would, and prints its requests per second as a ratio to GET /api/v1/environment
 * (a route with no database work) measured the same way in the same run — target at least 25 %.
 * Pages are cached until their owner's jobs change (server/jobs/list-cache.ts), so each database
 * is measured twice: as shipped (a poll that finds the list unchanged reads no database — the
 * usual case, a reader's jobs change only while one converts) and with JOB_LIST_CACHE=off (every
 * poll reads its page: one query, compiled serialization), the cost of a poll after a change. It
 * also prints the rate of unchanged polls answered 304 (If-None-Match), and how long a lone
 * /environment request takes while /jobs is under load (the event loop is not blocked).
 *
 * Both databases: the embedded one (PGlite in DATA_DIR) and PostgreSQL (a throwaway server from
 * the Debian binaries, as the tests start it; skipped with a message when they are missing). The
 * server is the compiled one `npm start` runs, in its own process, with APP_ENV=production.
 * Figures are printed, never asserted. BENCH_SECONDS sets each measurement's length (default 5).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createPasswordHasher } from '../server/auth/passwords';
import { migrate } from '../server/db/migrate';
import { openPglite } from '../server/db/pglite';
import { openPostgres } from '../server/db/postgres';
import type { Db } from '../server/db/types';
import { startPostgres } from '../tests/support/postgres';
import { apiClient, startOnFreePort, untilServing } from './compiled-server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const JOBS = 200;
const BOOKS = 40;
const CHAPTERS = 5;
const EMAIL = 'bench@example.com';
const PASSWORD = 'bench password for the job list';
const LIST_PATH = '/api/v1/jobs?page=1&page_size=20';

const analysis = {
  themes: ['memory', 'the sea', 'solitude', 'duty'],
  characters: Array.from({ length: 12 }, (_, i) => ({
    name: `Character ${i + 1}`,
    role: i === 0 ? 'protagonist' : 'supporting',
  })),
  setting: { time: 'the 1890s', place: 'a lighthouse on a northern coast' },
  discussion_questions: Array.from(
    { length: 8 },
    (_, i) => `Question ${i + 1}: what does the keeper learn about himself in this part of the story?`,
  ),
  content_type: 'novel',
  analyzed_at: '2025-02-01T10:05:00Z',
};

/** One account with 200 top-level jobs (and the books' chapter jobs), written straight to the database. */
async function seed(db: Db): Promise<void> {
  await migrate(db);
  const userId = randomUUID();
  const hash = await createPasswordHasher().hash(PASSWORD);
  await db.query('INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3)', [userId, EMAIL, hash]);
  const insert = async (job: {
    id: string;
    parent: string | null;
    order: number | null;
    type: string;
    title: string;
    status: string;
    progress: number;
    config: object;
    result: object;
    created: Date;
  }) =>
    db.query(
      `INSERT INTO jobs (id, user_id, parent_job_id, chapter_order, job_type, title, status, progress, config, result_data,
         input_file_key, output_file_key, duration, created_at, updated_at, started_at, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11, $12, $13, $14, $14, $14,
         CASE WHEN $7 = 'COMPLETED' THEN $14::timestamptz END)`,
      [
        job.id,
        userId,
        job.parent,
        job.order,
        job.type,
        job.title,
        job.status,
        job.progress,
        JSON.stringify(job.config),
        JSON.stringify(job.result),
        `jobs/${job.id}/source.txt`,
        job.status === 'COMPLETED' ? `jobs/${job.id}/audio.mp3` : null,
        job.status === 'COMPLETED' ? 600 : null,
        job.created.toISOString(),
      ],
    );
  const voice = { voice_config: { provider: 'openai', voice_id: 'alloy' }, provider: 'openai', source: 'content' };
  const start = Date.now() - JOBS * 60_000;
  for (let i = 0; i < JOBS; i += 1) {
    const id = randomUUID();
    const book = i < BOOKS;
    const status = i % 20 === 0 ? 'PROCESSING' : i % 17 === 0 ? 'FAILED' : 'COMPLETED';
    const chapterIds = book ? Array.from({ length: CHAPTERS }, () => randomUUID()) : [];
    const done = status === 'COMPLETED';
    await insert({
      id,
      parent: null,
      order: null,
      type: book ? 'book_processing' : 'text_to_audio',
      title: `Story number ${i + 1}: the lighthouse keeper`,
      status,
      progress: done ? 100 : 40,
      config: { ...voice, tutoring_analysis: analysis },
      result: done
        ? {
            duration: 600,
            duration_seconds: 600,
            file_size_bytes: 4_800_000,
            format: 'mp3',
            tts_engine: 'espeak-ng',
            output_file_key: `jobs/${id}/audio.mp3`,
            timing_file_key: `jobs/${id}/audio.mp3.timing.json`,
            ...(book && {
              chapters: chapterIds.map((cid, n) => ({
                title: `Chapter ${n + 1}`,
                order: n + 1,
                duration: 120,
                file_key: `jobs/${cid}/audio.mp3`,
                job_id: cid,
              })),
              child_job_ids: chapterIds,
            }),
          }
        : {},
      created: new Date(start + i * 60_000),
    });
    for (const [n, cid] of chapterIds.entries()) {
      await insert({
        id: cid,
        parent: id,
        order: n + 1,
        type: 'text_to_audio',
        title: `Story number ${i + 1} - Chapter ${n + 1}`,
        status: done ? 'COMPLETED' : 'PENDING',
        progress: done ? 100 : 0,
        config: voice,
        result: done ? { duration: 120, duration_seconds: 120, file_size_bytes: 960_000, format: 'mp3' } : {},
        created: new Date(start + i * 60_000 - 1000),
      });
    }
  }
}

async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  if (result.non2xx > 0 && !headers['if-none-match']) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
  return result;
}

/** Sequential /environment requests while `during` runs: the worst one shows a blocked event loop. */
async function probe(base: string, during: Promise<unknown>): Promise<{ median: number; max: number }> {
  let running = true;
  void during.finally(() => (running = false));
  const times: number[] = [];
  while (running) {
    const t0 = performance.now();
    await fetch(`${base}/api/v1/environment`).then((r) => r.arrayBuffer());
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 50));
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? 0, max: times.at(-1) ?? 0 };
}

async function measure(label: string, env: Record<string, string>): Promise<void> {
  const { server, url: base } = await startOnFreePort({
    APP_ENV: 'production',
    SIGNUP_ENABLED: 'true',
    WORKERS: 'none',
    ...env,
  });
  try {
    await untilServing(base);
    const token = await apiClient(base).signIn(EMAIL, PASSWORD);
    const auth = { authorization: `Bearer ${token}` };
    const first = await fetch(`${base}${LIST_PATH}`, { headers: auth });
    const body = await first.text();
    const etag = first.headers.get('etag') ?? '';
    const page = JSON.parse(body) as { jobs: unknown[]; total: number };

    await load(`${base}/api/v1/environment`); // warm-up
    await load(`${base}${LIST_PATH}`, auth);
    const environment = await load(`${base}/api/v1/environment`);
    const jobsRun = load(`${base}${LIST_PATH}`, auth);
    const lone = await probe(base, jobsRun);
    const jobs = await jobsRun;
    const unchanged = await load(`${base}${LIST_PATH}`, { ...auth, 'if-none-match': etag });

    const ratio = (jobs.requests.average / environment.requests.average) * 100;
    console.log(
      `\n${label}: account with ${page.total} jobs (${JOBS} top-level), page of ${page.jobs.length}, ${(body.length / 1024).toFixed(1)} KB`,
    );
    console.log(
      `  GET /environment            ${environment.requests.average.toFixed(0).padStart(6)} req/s   p99 ${environment.latency.p99} ms`,
    );
    console.log(
      `  GET /jobs (page of 20)      ${jobs.requests.average.toFixed(0).padStart(6)} req/s   p99 ${jobs.latency.p99} ms`,
    );
    console.log(
      `  GET /jobs, unchanged (304)  ${unchanged.requests.average.toFixed(0).padStart(6)} req/s   (${unchanged['3xx'] ?? 0} answered 304)`,
    );
    console.log(
      `  a lone /environment while /jobs is loaded: median ${lone.median.toFixed(1)} ms, worst ${lone.max.toFixed(1)} ms`,
    );
    console.log(`  => /jobs is ${ratio.toFixed(1)} % of /environment (target >= 25 %)`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

console.log(
  `${CONNECTIONS} connections, ${SECONDS} s per measurement; server: dist-server (APP_ENV=production, WORKERS=none)`,
);

// The embedded database: seeded, closed, then opened by the server (it has one owner).
const dataDir = mkdtempSync(join(tmpdir(), 'lectio-bench-joblist-'));
try {
  const pglite = await openPglite(join(dataDir, 'db'));
  await seed(pglite);
  await pglite.close();
  await measure('Embedded database (PGlite)', { DATA_DIR: dataDir });
  await measure('Embedded database (PGlite), JOB_LIST_CACHE=off', { DATA_DIR: dataDir, JOB_LIST_CACHE: 'off' });
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

let postgres: Awaited<ReturnType<typeof startPostgres>> | undefined;
try {
  postgres = await startPostgres();
} catch (error) {
  console.log(`\nPostgreSQL: skipped (${(error as Error).message})`);
}
if (postgres !== undefined) {
  const pgData = mkdtempSync(join(tmpdir(), 'lectio-bench-joblist-pg-'));
  try {
    const db = await openPostgres(postgres.url);
    await seed(db);
    await db.close();
    await measure('PostgreSQL', { DATABASE_URL: postgres.url, DATA_DIR: pgData });
    await measure('PostgreSQL, JOB_LIST_CACHE=off', {
      DATABASE_URL: postgres.url,
      DATA_DIR: pgData,
      JOB_LIST_CACHE: 'off',
    });
  } finally {
    postgres.stop();
    rmSync(pgData, { recursive: true, force: true });
  }
}
