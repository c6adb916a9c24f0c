// `npm run bench -- crowd`: a crowd on two machines' worth of processes, printed (never asserted).
// PostgreSQL and an S3-compatible store (s3rver, a process of its own) started here, two API
// processes (WORKERS=none, the simulated clients spread over both), worker processes, and the
// test suite's fast speech server of the OpenAI protocol: the queue and the API are measured.
//   1. Queue: one worker converts 100 jobs of 10 readers (jobs per minute); then with two workers
//      one reader submits 300 jobs and 30 readers 10 each: all 600 complete exactly once (the
//      database's rows and the speech server's log agree), every light reader's first job completes
//      before the heavy reader's 100th, and jobs per minute.
//   2. Listeners: 2,000, then 4,000 simulated listeners (accounts and books seeded in the database,
//      tokens signed with the API's secret), each saving progress every 5 s and reading a 64 KB
//      range of its book's audio every 20 s for 60 s: p50/p99 of saves and of range reads, errors,
//      and what the machine did meanwhile (load, CPU of each process, database connections, the
//      APIs' event-loop lag), so a p99 past its target says why.
//   3. Sizes: rows and bytes in PostgreSQL and in the store per reader and per hour of audio.
// BENCH_QUICK=1 runs it small (checks that it runs); BENCH_LISTENERS=2000,4000 picks the crowds,
// BENCH_CROWD_QUEUE=0 skips the queue; BENCH_CROWD_PROFILE=<dir> writes a CPU profile of each API
// there (node --cpu-prof; open it in Chrome's DevTools), the APIs then stopped gracefully.
// Needs PostgreSQL server binaries. Every loop is bounded; every process started here is stopped.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { Agent, request } from 'undici';
import { buildServerIfStale, SERVER_NODE_FLAGS } from '../scripts/build-server.mjs';
import { startFakeVoiceServer } from '../server/testing/voice-server';
import { apiClient, startProcess, stopGracefully, until, workerIdOf, type Proc } from '../tests/support/cluster';
import { freePort } from '../tests/support/ports';
import { startPostgres } from '../tests/support/postgres';
import { startS3 } from '../tests/support/s3';
import {
  cpuOfChangingTree,
  cpuSeconds,
  dbBytes,
  fmt,
  kb,
  load,
  mb,
  metric,
  parentOf,
  percentile,
  scanStats,
  latencyReport,
  sequentialScans,
  statements,
  storeBytes,
  tableStats,
} from './crowd-measure';
import { seedListeners, signedUp, signUpAll, type Listener } from './crowd-seed';
import { processTree } from './process-tree';

const QUICK = process.env.BENCH_QUICK === '1';
/** BENCH_CROWD_QUEUE=0 leaves the queue's figures out (the listeners' alone). */
const WITH_QUEUE = process.env.BENCH_CROWD_QUEUE !== '0';
const CROWDS = (process.env.BENCH_LISTENERS ?? (QUICK ? '200' : '2000,4000')).split(',').map(Number);
const LISTEN_MS = QUICK ? 20_000 : 60_000;
const SAVE_EVERY_MS = 5_000;
const READ_EVERY_MS = 20_000;
const RANGE_BYTES = 64 * 1024;
const ONE_WORKER_JOBS = QUICK ? 20 : 100;
const HEAVY_JOBS = QUICK ? 30 : 300;
const LIGHT_READERS = QUICK ? 6 : 30;
const LIGHT_JOBS = QUICK ? 3 : 10;
/** Every light reader's first job completes before the heavy reader's job of this rank. */
const FAIR_RANK = QUICK ? 10 : 100;
const JWT_SECRET = 'bench-crowd-secret-0123456789abcdefghij';
const METRICS_TOKEN = 'bench-crowd-metrics-token';
const STORE_PREFIX = 'crowd';
/** BENCH_CROWD_PROFILE: where each API writes its CPU profile when it stops. */
const PROFILE_DIR = process.env.BENCH_CROWD_PROFILE;
/**
 * BENCH_CROWD_DB=tcp: the processes reach PostgreSQL over loopback TCP instead of its Unix-domain
 * socket, as they would a database on another host.
 */
const OVER_TCP = process.env.BENCH_CROWD_DB === 'tcp';

const postgres = await startPostgres({ statementStats: true });
const s3 = await startS3('lectio-crowd', { ownProcess: true });
const voice = await startFakeVoiceServer({ voices: ['af_heart'] });
const dir = mkdtempSync(join(tmpdir(), 'lectio-bench-crowd-'));
const db = new pg.Client({ connectionString: postgres.url });
await db.connect();
const procs: Proc[] = [];
const apiProcs: Proc[] = [];
const http = new Agent({ connections: 4096, keepAliveTimeout: 30_000, pipelining: 1 });

/** Stops every process started here and removes what they wrote; also on Ctrl-C or SIGTERM. */
let cleaned: Promise<void> | null = null;
function cleanUp(): Promise<void> {
  cleaned ??= (async () => {
    // A profiled API writes its profile as it exits: stopped gracefully first, as an operator would.
    if (PROFILE_DIR) await Promise.all(apiProcs.map((p) => stopGracefully(p, 20_000)));
    // A worker runs under its start script: its whole process tree goes.
    for (const pid of procs.flatMap((p) => (p.child.pid === undefined ? [] : processTree(p.child.pid))).reverse()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await Promise.all(procs.map((p) => p.exited));
    await http.close().catch(() => undefined);
    await db.end().catch(() => undefined);
    await voice.close().catch(() => undefined);
    await s3.destroy().catch(() => undefined);
    postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  })();
  return cleaned;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void cleanUp().finally(() => process.exit(1)));

const env = (extra: Record<string, string> = {}) => ({
  DATABASE_URL: OVER_TCP ? postgres.url : postgres.socketUrl,
  DATA_DIR: join(dir, 'data'),
  JWT_SECRET,
  METRICS_TOKEN,
  LOG_LEVEL: 'warn',
  SKIP_BUILD: '1',
  TTS_SERVER_URL: voice.url,
  TTS_SERVER_NAME: 'Bench voice',
  // One address, many people: the simulated readers all come from 127.0.0.1.
  SIGNUP_RATE_LIMIT_PER_HOUR: '10000',
  AUTH_RATE_LIMIT_PER_MINUTE: '10000',
  QUOTA_QUEUED_JOBS: '1000',
  ...s3.env(STORE_PREFIX),
  ...extra,
});

async function startApi(): Promise<{ url: string; proc: Proc }> {
  const port = await freePort();
  // The APIs' Node flags, as `npm start` passes them (scripts/bench.mjs), and the profiler's.
  if (PROFILE_DIR && !process.env.LECTIO_SERVER_NODE_FLAGS?.includes('--cpu-prof'))
    process.env.LECTIO_SERVER_NODE_FLAGS = `${process.env.LECTIO_SERVER_NODE_FLAGS ?? SERVER_NODE_FLAGS.join(' ')} --cpu-prof --cpu-prof-dir=${PROFILE_DIR}`;
  const proc = startProcess(
    'compiled-api',
    env({ PORT: String(port), HOST: '127.0.0.1', WORKERS: 'none', STATIC_DIR: '' }),
  );
  procs.push(proc);
  apiProcs.push(proc);
  const url = `http://127.0.0.1:${port}`;
  await until('the API', async () => ((await fetch(`${url}/healthz`)).ok ? true : undefined), 120_000, proc.log);
  return { url, proc };
}

async function startWorker(): Promise<Proc> {
  // LOG_LEVEL=info: a worker says it is ready (with its id) at info.
  const proc = startProcess('compiled-worker', env({ LOG_LEVEL: 'info' }));
  procs.push(proc);
  await workerIdOf(proc, 120_000);
  return proc;
}

/** A job's text: its first line is unique, so the speech server's log tells which job it came from. */
const jobLine = (reader: string, n: number) =>
  `Reader ${reader} job ${n} walks along the quiet brook. The evening is calm by the old mill, and the water runs slow.`;
const SPOKEN = /^Reader (\S+) job (\d+) walks/;

async function createJobs(client: ReturnType<typeof apiClient>, reader: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 1; n <= count; n += 1) {
    const { status, body } = await client.call('POST', '/api/v1/jobs', {
      title: `${reader} ${n}`,
      content: jobLine(reader, n),
      voice_config: { provider: 'openai_compatible', voice_id: 'af_heart' },
    });
    if (status !== 201) throw new Error(`create job: ${status} ${JSON.stringify(body)}`);
    ids.push(String(body.id));
  }
  return ids;
}

async function allDone(ids: string[]): Promise<boolean> {
  const { rows } = await db.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM jobs WHERE id = ANY($1::uuid[]) GROUP BY status',
    [ids],
  );
  const bad = rows.filter((r) => r.status === 'FAILED' || r.status === 'CANCELLED');
  if (bad.length > 0) throw new Error(`${bad.map((r) => `${r.n} ${r.status}`).join(', ')} job(s)`);
  return rows.find((r) => r.status === 'COMPLETED')?.n === ids.length;
}

/** Figure 1: the queue. */
async function queue(apiUrls: string[]) {
  // One worker: 100 jobs of 10 readers.
  const few = await signUpAll(10, (i) => [apiUrls[i % 2]!, `solo${i}@example.com`]);
  let began = performance.now();
  const soloIds = (
    await Promise.all(few.map((c, i) => createJobs(c, `solo${i}`, ONE_WORKER_JOBS / few.length)))
  ).flat();
  await until('the one-worker jobs', async () => ((await allDone(soloIds)) ? true : undefined), 1_800_000);
  const oneWorker = (soloIds.length / (performance.now() - began)) * 60_000;
  console.log(
    `queue, 1 worker : ${soloIds.length} two-sentence jobs of 10 readers in ${fmt((performance.now() - began) / 1000)} s: ${fmt(oneWorker)} jobs/min (${load()})`,
  );

  await startWorker();
  const heavy = await signedUp(apiUrls[0]!, 'heavy@example.com');
  const light = await signUpAll(LIGHT_READERS, (i) => [apiUrls[(i + 1) % 2]!, `light${i}@example.com`]);
  const spokenBefore = voice.spoken().length;
  began = performance.now();
  const heavyIds = await createJobs(heavy, 'heavy', HEAVY_JOBS);
  const heavySubmitted = (performance.now() - began) / 1000;
  const lightIds = await Promise.all(light.map((c, i) => createJobs(c, `light${i}`, LIGHT_JOBS)));
  const all = [...heavyIds, ...lightIds.flat()];
  const cpuBefore = cpuSeconds(procs.flatMap((p) => processTree(p.child.pid!)));
  await until('the 600 jobs', async () => ((await allDone(all)) ? true : undefined), 3_600_000);
  const seconds = (performance.now() - began) / 1000;
  const cpu = cpuSeconds(procs.flatMap((p) => processTree(p.child.pid!))) - cpuBefore;

  const { rows } = await db.query<{ id: string; status: string; completed_at: Date }>(
    'SELECT id, status, completed_at FROM jobs WHERE id = ANY($1::uuid[])',
    [all],
  );
  const done = new Map(rows.map((r) => [r.id, r]));
  const completed = rows.filter((r) => r.status === 'COMPLETED').length;
  // The speech server's log: each job's one line, spoken once.
  const times = new Map<string, number>();
  for (const text of voice.spoken().slice(spokenBefore)) {
    const match = SPOKEN.exec(text);
    if (match) times.set(`${match[1]}/${match[2]}`, (times.get(`${match[1]}/${match[2]}`) ?? 0) + 1);
  }
  const expected = [
    ...heavyIds.map((_, i) => `heavy/${i + 1}`),
    ...light.flatMap((_, r) => Array.from({ length: LIGHT_JOBS }, (_, i) => `light${r}/${i + 1}`)),
  ];
  const never = expected.filter((k) => !times.has(k)).length;
  const twice = expected.filter((k) => (times.get(k) ?? 0) > 1).length;
  const heavyMark = done.get(heavyIds[FAIR_RANK - 1]!)!.completed_at.getTime();
  const firsts = lightIds.map((ids) => done.get(ids[0]!)!.completed_at.getTime());
  const late = firsts.filter((t) => t >= heavyMark).length;
  const lastFirst = Math.max(...firsts);
  const heavyDoneBefore = heavyIds.filter((id) => done.get(id)!.completed_at.getTime() < lastFirst).length;
  console.log(
    `queue, 2 workers: 1 reader x ${HEAVY_JOBS} then ${LIGHT_READERS} readers x ${LIGHT_JOBS} (heavy submitted in ${fmt(heavySubmitted)} s): ` +
      `${completed}/${all.length} COMPLETED in ${fmt(seconds)} s, ${fmt((all.length / seconds) * 60)} jobs/min; ` +
      `speech server: ${never} never spoken, ${twice} spoken more than once (target: all complete, 0 and 0) ` +
      `(${fmt(cpu / seconds, 2)} cores busy on average, ${load()})`,
  );
  console.log(
    `queue fairness  : ${LIGHT_READERS - late}/${LIGHT_READERS} light readers' first jobs completed before the heavy reader's ${FAIR_RANK}th ` +
      `(the last one after ${heavyDoneBefore} heavy jobs) (target: all)`,
  );
  return { oneWorker, twoWorkers: (all.length / seconds) * 60, jobIds: [...soloIds, ...all] };
}

async function call(url: string, init: { method: string; headers: Record<string, string>; body?: string }) {
  const res = await request(url, { ...init, dispatcher: http });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, body };
}

/** Figure 2: `listeners` listeners for LISTEN_MS; what they saw and what the machine did. */
async function listen(listeners: Listener[], apis: { url: string; proc: Proc }[], fileBytes: number) {
  // All, and those started once every listener has started (after the first two save periods).
  const [saves, reads, steadySaves, steadyReads]: [number[], number[], number[], number[]] = [[], [], [], []];
  /** Saves by the save period they started in: how the start-up burst drains. */
  const byWindow: number[][] = [];
  const errors = new Map<string, number>();
  const fail = (what: string) => errors.set(what, (errors.get(what) ?? 0) + 1);
  const lag = monitorEventLoopDelay({ resolution: 10 });
  const apiPids = apis.map((a) => processTree(a.proc.child.pid!));
  const { rows: backends } = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const postmaster = parentOf(backends[0]!.pid);
  const scans0 = await scanStats(db);
  await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await db.query('SELECT pg_stat_statements_reset()'); // the statements of this crowd only
  for (const api of apis) await metric(api.url, METRICS_TOKEN, 'nodejs_eventloop_lag_p99_seconds'); // starts its window
  const cpu0 = { apis: apiPids.map(cpuSeconds), store: cpuSeconds(processTree(s3.pid()!)), bench: process.cpuUsage() };
  const pgCpu = cpuOfChangingTree(postmaster);
  const samples: { active: number; waiting: number; total: number; load: number }[] = [];
  const sampler = setInterval(() => {
    pgCpu.sample();
    void db
      .query<{ active: number; waiting: number; total: number }>(
        `SELECT count(*) FILTER (WHERE state = 'active')::int AS active,
                count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS waiting, count(*)::int AS total
           FROM pg_stat_activity WHERE backend_type = 'client backend'`,
      )
      .then(({ rows }) => samples.push({ ...rows[0]!, load: loadavg()[0]! }))
      .catch(() => undefined);
  }, 1000);
  lag.enable();
  const began = performance.now();
  const end = Date.now() + LISTEN_MS;
  await Promise.all(
    listeners.map(async (l) => {
      const headers = { authorization: `Bearer ${l.token}`, 'content-type': 'application/json' };
      await new Promise((r) => setTimeout(r, Math.random() * SAVE_EVERY_MS));
      const stream = await call(`${l.api}/api/v1/audio/${l.jobId}/stream`, { method: 'GET', headers }).catch(
        () => null,
      );
      if (stream?.status !== 200) return fail(`stream info ${stream?.status ?? 'network'}`);
      const mediaUrl = String((JSON.parse(stream.body.toString()) as { streaming_url: string }).streaming_url);
      let position = Math.random() * 60;
      let nextRead = Date.now() + Math.random() * READ_EVERY_MS;
      while (Date.now() < end) {
        const t0 = performance.now();
        position += SAVE_EVERY_MS / 1000;
        try {
          const res = await call(`${l.api}/api/v1/progress/${l.jobId}`, {
            method: 'PUT',
            headers,
            body: JSON.stringify({ position_seconds: position }),
          });
          if (res.status !== 200) fail(`save ${res.status}`);
        } catch {
          fail('save network');
        }
        for (const list of t0 - began >= 2 * SAVE_EVERY_MS ? [saves, steadySaves] : [saves])
          list.push(performance.now() - t0);
        const window = Math.floor((t0 - began) / SAVE_EVERY_MS);
        (byWindow[window] ??= []).push(performance.now() - t0);
        if (Date.now() >= nextRead) {
          nextRead += READ_EVERY_MS;
          const from = Math.floor(Math.random() * Math.max(1, fileBytes - RANGE_BYTES));
          const t1 = performance.now();
          try {
            const res = await call(mediaUrl, {
              method: 'GET',
              headers: { range: `bytes=${from}-${from + RANGE_BYTES - 1}` },
            });
            if (res.status !== 206 || res.body.length !== RANGE_BYTES) fail(`range ${res.status}`);
          } catch {
            fail('range network');
          }
          for (const list of t1 - began >= 2 * SAVE_EVERY_MS ? [reads, steadyReads] : [reads])
            list.push(performance.now() - t1);
        }
        const wait = t0 + SAVE_EVERY_MS - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    }),
  );
  const wall = (performance.now() - began) / 1000;
  clearInterval(sampler);
  lag.disable();
  const apiCpu = apiPids.map((pids, i) => (cpuSeconds(pids) - cpu0.apis[i]!) / wall);
  const pgCores = pgCpu.seconds() / wall;
  const benchUsage = process.cpuUsage(cpu0.bench);
  const benchCpu = (benchUsage.user + benchUsage.system) / 1e6 / wall;
  const scans = sequentialScans(scans0, await scanStats(db));
  const apiLag = await Promise.all(apis.map((a) => metric(a.url, METRICS_TOKEN, 'nodejs_eventloop_lag_p99_seconds')));
  const peak = samples.reduce((m, s) => (s.active > m.active ? s : m), { active: 0, waiting: 0, total: 0, load: 0 });
  const maxLoad = Math.max(0, ...samples.map((s) => s.load));
  console.log(
    latencyReport(
      { listeners: listeners.length, saves, reads, steadySaves, steadyReads, byWindow, errors },
      SAVE_EVERY_MS,
    ),
  );
  console.log(
    `  meanwhile: ${fmt(saves.length / wall, 0)} saves/s over ${apis.length} APIs; CPU (cores) API ${apiCpu.map((c) => fmt(c, 2)).join(' + ')}, ` +
      `PostgreSQL ${fmt(pgCores, 2)}, the object store ${fmt((cpuSeconds(processTree(s3.pid()!)) - cpu0.store) / wall, 2)}, this bench (clients and speech server) ${fmt(benchCpu, 2)}; ` +
      `API event-loop lag p99 ${apiLag.map((s) => fmt(s * 1000)).join(' / ')} ms, the bench's ${fmt(lag.percentile(99) / 1e6)} ms; ` +
      `database connections: peak ${peak.active} active of ${peak.total} (${peak.waiting} waiting on locks); ` +
      `peak 1-min load ${fmt(maxLoad, 2)}, ${load()}`,
  );
  console.log(`  sequential scans meanwhile: ${scans}`);
  console.log(`  statements meanwhile, most run first:\n${await statements(db)}`);
  return { p99Save: percentile(saves, 99), p99Read: percentile(reads, 99), errors: errors.size };
}

try {
  await buildServerIfStale();
  const apis = [await startApi(), await startApi()];
  const apiUrls = apis.map((a) => a.url);
  await startWorker();
  console.log(`crowd: 2 APIs (WORKERS=none), workers, PostgreSQL, s3rver and a fast speech server; ${load()}`);

  const sizes0 = { db: await dbBytes(db), store: await storeBytes(s3) };
  const q = WITH_QUEUE ? await queue(apiUrls) : { oneWorker: NaN, twoWorkers: NaN, jobIds: [] };
  const { rows: audio } = await db.query<{ hours: number }>(
    'SELECT coalesce(sum(duration), 0)::float / 3600 AS hours FROM jobs WHERE id = ANY($1::uuid[])',
    [q.jobIds],
  );
  const sizes1 = { db: await dbBytes(db), store: await storeBytes(s3) };
  const hours = audio[0]!.hours;

  // The listeners' book: some 50 s of audio, converted through the queue; each listener has a copy.
  const template = await signedUp(apiUrls[0]!, 'template@example.com');
  const templateId = (
    await template.call('POST', '/api/v1/jobs', {
      title: 'The crowd book',
      content: Array.from({ length: 20 }, (_, i) => `Line ${i + 1} of the crowd book runs past the mill.`).join(' '),
      voice_config: { provider: 'openai_compatible', voice_id: 'af_heart' },
    })
  ).body.id as string;
  await until('the crowd book', async () => ((await allDone([templateId])) ? true : undefined), 600_000);
  const { rows: tpl } = await db.query<{ user_id: string }>('SELECT user_id FROM jobs WHERE id = $1', [templateId]);
  // Played once before it is copied, as a real book has been by the time it is listened to: its
  // cover (the tag's picture, made on the first play) is among the files each copy gets.
  const streamUrl = String((await template.call('GET', `/api/v1/audio/${templateId}/stream`)).body.streaming_url);
  const firstPlay = await fetch(streamUrl, { headers: { range: 'bytes=0-65535' } });
  if (firstPlay.status !== 206) throw new Error(`first play: ${firstPlay.status}`);
  await firstPlay.arrayBuffer();
  const meta = (await template.call('GET', `/api/v1/audio/${templateId}/metadata`)).body;
  const fileBytes = Number(meta.file_size);
  const bookSeconds = Number(meta.duration);
  console.log(`listeners' book: ${fmt(bookSeconds, 0)} s of audio, ${kb(fileBytes)}; each listener has a copy`);

  let seeded: Listener[] = [];
  const beforeListeners = await tableStats(db);
  const dbBeforeListeners = await dbBytes(db);
  const storeBeforeListeners = await storeBytes(s3);
  const results: { n: number; p99Save: number; p99Read: number; errors: number }[] = [];
  for (const n of CROWDS) {
    if (seeded.length < n)
      seeded = seeded.concat(
        await seedListeners({
          db,
          s3,
          prefix: STORE_PREFIX,
          count: n - seeded.length,
          template: { userId: tpl[0]!.user_id, jobId: templateId },
          apiUrls,
          jwtSecret: JWT_SECRET,
        }),
      );
    results.push({ n, ...(await listen(seeded.slice(0, n), apis, fileBytes)) });
  }
  const afterListeners = await tableStats(db);
  const dbAfterListeners = await dbBytes(db);
  const storeAfterListeners = await storeBytes(s3);

  // Figure 3: sizes.
  const readers = seeded.length;
  const lines: string[] = [];
  for (const [name, after] of afterListeners) {
    const before = beforeListeners.get(name) ?? { rows: 0, bytes: 0 };
    if (after.rows === before.rows && after.bytes === before.bytes) continue;
    lines.push(`${name} +${after.rows - before.rows} rows +${kb(after.bytes - before.bytes)}`);
  }
  const storePerReader = (storeAfterListeners.bytes - storeBeforeListeners.bytes) / readers;
  console.log(
    `sizes, readers   : ${readers} readers with one book each and its progress: PostgreSQL +${mb(dbAfterListeners - dbBeforeListeners)} ` +
      `(${kb((dbAfterListeners - dbBeforeListeners) / readers)} per reader, ${mb(((dbAfterListeners - dbBeforeListeners) / readers) * 1000)} per 1,000 readers); ${lines.join('; ')}; ` +
      `store ${kb(storePerReader)} per reader (a copy of a ${fmt(bookSeconds, 0)} s book, ${mb(storePerReader * 1000)} per 1,000 readers)`,
  );
  if (WITH_QUEUE)
    console.log(
      `sizes, audio     : ${q.jobIds.length} jobs, ${fmt(hours * 60)} minutes of audio: PostgreSQL +${mb(sizes1.db - sizes0.db)} ` +
        `(${mb((sizes1.db - sizes0.db) / hours)} per hour of audio), store +${sizes1.store.objects - sizes0.store.objects} objects ` +
        `+${mb(sizes1.store.bytes - sizes0.store.bytes)} (${mb((sizes1.store.bytes - sizes0.store.bytes) / hours)} per hour of audio, ` +
        `${kb((sizes1.store.bytes - sizes0.store.bytes) / q.jobIds.length)} per job)`,
    );
  console.log(
    `summary: queue ${fmt(q.oneWorker)} jobs/min with 1 worker, ${fmt(q.twoWorkers)} with 2; ` +
      results
        .map(
          (r) => `${r.n} listeners p99 save ${fmt(r.p99Save)} ms, range ${fmt(r.p99Read)} ms, ${r.errors} error kinds`,
        )
        .join('; ') +
      ` (${load()})`,
  );
} finally {
  await cleanUp();
}
