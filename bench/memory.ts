/**
 * Memory: `npm run bench -- memory` (node --import tsx bench/memory.ts). Peak resident memory,
 * printed, never asserted:
 *
 * 1. The first start, which creates the embedded database: `npm start` itself (npm, the start
 *    script, the server and its children, their RSS summed at its highest; the builds skipped,
 *    `scripts/bench.mjs` compiles the server before), and the server's own peak. Targets: under
 *    320 MB together, under 250 MB for the server.
 * 2. The compiled server converting a 1 MB book (41 chapters) from job creation to COMPLETED, on
 *    its second start, as a server normally runs: its peak from the job's creation on (its VmHWM is
 *    reset then). Target: under 200 MB. The sign-up before it (rating the password, hashing it) is
 *    printed as its own peak, and the peak of the server's whole life beside them.
 *    Its prose names nobody, so a second 1 MB book, whose prose names people and places in four
 *    sentences of ten, shows what a novel's analysis adds (compromise loaded). Same target.
 * 3. The same with a 10 MB plain text without headings (about 330 chapters). Target: under 300 MB.
 *    It takes as long as 10 MB of speech takes to synthesise; BENCH_MEMORY_MINUTES stops it
 *    earlier (it then prints the peak so far, and says so).
 *
 * The server's own peak is Linux's VmHWM; "with its children" adds the offline voice's eSpeak-NG
 * hosts on its native path (sampled every 50 ms).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../tests/support/ports';
import { apiClient, startCompiledServer, stopServer, untilServing } from './compiled-server';
import { bookText, NAMING_SENTENCES } from './book-text';
import { peakRssMb, processTree, resetPeakRss, rssMb, sampleTree } from './process-tree';

const verdict = (ok: boolean) => (ok ? 'MET' : 'NOT MET');
const LIMIT_MINUTES = Number(process.env.BENCH_MEMORY_MINUTES ?? 0);

async function firstStart(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lectio-bench-memory-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const npm = spawn('npm', ['start', '--silent'], {
    env: {
      ...process.env,
      SKIP_BUILD: '1',
      STATIC_DIR: '',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      // The books' audio is reserved up front: a 10 MB text needs some 7 GB of quota.
      QUOTA_STORAGE_BYTES: String(50 * 1024 ** 3),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tree = sampleTree(npm.pid!);
  try {
    await untilServing(url);
    // A moment at rest after the start: the database's background work settles.
    await new Promise((r) => setTimeout(r, 2000));
    const pids = processTree(npm.pid!);
    const server = pids[pids.length - 1]!;
    const together = tree.peakMb();
    const togetherPss = tree.peakPssMb();
    const own = peakRssMb(server);
    console.log(
      `first start (creates the embedded database), npm start: npm, the start script and the server together ` +
        `peak at ${together.toFixed(0)} MB of summed RSS (target under 320 MB: ${verdict(together < 320)}), ` +
        `${togetherPss.toFixed(0)} MB with the pages they share counted once (PSS; under 320 MB: ` +
        `${verdict(togetherPss < 320)}); the server alone ${own.toFixed(0)} MB RSS (target under 250 MB: ${verdict(own < 250)})`,
    );
  } finally {
    tree.stop();
    await stopTree(npm);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Ends what `npm start` started: SIGTERM to the start script, which hands it to the server and
 * exits with it (npm's own SIGTERM would end only its shell, leaving both running), then waits for
 * every process of the tree to be gone; SIGKILL to any left after 15 s.
 */
async function stopTree(npm: ChildProcess): Promise<void> {
  const pids = processTree(npm.pid!);
  const exited = npm.exitCode !== null ? Promise.resolve() : new Promise((r) => npm.once('exit', r));
  const start = pids.find((pid) => commandOf(pid).includes('scripts/start.mjs'));
  signal(start ?? npm.pid!, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (pids.some(alive)) {
    if (Date.now() > deadline) for (const pid of pids.filter(alive)) signal(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
  }
  await exited;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Whether the process is still running (a zombie waiting for its parent counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

async function conversion(name: string, text: string, targetMb: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lectio-bench-memory-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir };
  // The first start creates the database (its own peak, above); the conversion runs on the second.
  await untilServingThenStop(env, url);
  const server = startCompiledServer(env);
  try {
    await untilServing(url);
    const atRest = peakRssMb(server.pid!);
    const { call, signUp: register } = apiClient(url);
    const token = await register('bench@example.com', 'bench-password-memory');
    const signUp = peakRssMb(server.pid!);
    // The password rating thread ends 5 s after the last check: the conversion starts without it.
    await new Promise((r) => setTimeout(r, 6_000));
    const beforeJob = rssMb(server.pid!);
    resetPeakRss(server.pid!);
    const tree = sampleTree(server.pid!);
    const started = performance.now();
    const { id } = (await call('POST', '/api/v1/jobs', { title: 'Bench', content: text }, token)).body;
    let job: Record<string, unknown>;
    let stopped = false;
    for (;;) {
      job = (await call('GET', `/api/v1/jobs/${String(id)}`, undefined, token)).body;
      if (job.status !== 'PENDING' && job.status !== 'PROCESSING') break;
      if (LIMIT_MINUTES > 0 && performance.now() - started > LIMIT_MINUTES * 60_000) {
        stopped = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    const minutes = (performance.now() - started) / 60_000;
    const own = peakRssMb(server.pid!);
    const wholeLife = Math.max(own, signUp);
    const together = tree.peakMb();
    tree.stop();
    const how = stopped
      ? `stopped after ${minutes.toFixed(1)} min at ${Number(job.progress ?? 0).toFixed(0)} % (BENCH_MEMORY_MINUTES): peak so far`
      : `${String(job.status)} after ${minutes.toFixed(1)} min`;
    console.log(
      `${name} (${text.length.toLocaleString('en')} characters), ${how}: the server converting ` +
        `${own.toFixed(0)} MB (target under ${targetMb} MB: ${verdict(own < targetMb)}), with its children ` +
        `${together.toFixed(0)} MB; ${beforeJob.toFixed(0)} MB when the job was created, ${atRest.toFixed(0)} MB ` +
        `once started, ${signUp.toFixed(0)} MB with the sign-up before the job; its whole life ${wholeLife.toFixed(0)} MB`,
    );
  } finally {
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function untilServingThenStop(env: Record<string, string>, url: string): Promise<void> {
  const first = startCompiledServer(env);
  try {
    await untilServing(url);
  } finally {
    await stopServer(first);
  }
}

await firstStart();
await conversion('1 MB book, "Chapter N" headings', bookText(1_000_000), 200);
await conversion(
  '1 MB book naming people and places (4 sentences in 10), "Chapter N" headings',
  bookText(1_000_000, true, NAMING_SENTENCES),
  200,
);
await conversion('10 MB plain text, no headings', bookText(10_000_000, false), 300);
