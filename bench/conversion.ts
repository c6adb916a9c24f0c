/**
 * Conversion pipeline bench: `npm run bench -- conversion` (node --import tsx bench/conversion.ts).
 * For a BENCH_CHARS-character text (default 50,000; BENCH_BOOK_CHARS=1000000 for the 1 MB book):
 * 1. the native reference: when `espeak-ng` and `lame` are on PATH, the text cut in one part per
 *    CPU, each part through `espeak-ng --stdout | lame` (bench/native-pipeline.ts), all parts at
 *    once: what this machine can do with native tools on all its cores;
 * 2. the real server as `npm start` runs it (compiled, its own process, embedded database,
 *    in-process workers) on its native speech path, ESPEAK_ENGINE=native ("Lectio native":
 *    eSpeak-NG kept running in C hosts that encode their own MP3): the first start's peak RSS
 *    (creating the embedded database), then on a second start one job through the HTTP API, timed
 *    from creation to COMPLETED and its peak RSS (VmHWM), the client polling the job every 250 ms
 *    as it waits; then once more with the API's latency measured while it converts (GET
 *    /environment and /jobs, one request every 50 ms, p50/p99/max), a run of its own, since those
 *    requests cost the server and this client CPU that the native pipeline is not asked to spend;
 * 3. the same server on its portable path, ESPEAK_ENGINE=portable ("Lectio portable": eSpeak-NG
 *    and LAME compiled to WebAssembly), what a machine without a C compiler and the libraries'
 *    headers gets (the API's latency measured while it converts, too);
 * 4. the native reference again after each of them, so that a machine whose load changes during
 *    the run is measured fairly: each run's ratio to the mean of the references just before and
 *    after it, the targets being at least 85 % (native) and 40 % (portable). (2) runs BENCH_ROUNDS
 *    times (default 3, each on a fresh server) and its verdict is on the median round.
 *    BENCH_PORTABLE=0 leaves (3) out; BENCH_QUICK=1 is a short check that it all runs (5,000
 *    characters, one round, no API probe), not a measurement.
 * A job is timed from its POST to the completed_at the server recorded (the same clock), not to
 * the poll that saw it.
 * The text is submitted without a job type, so the server decides text or book as for any reader.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../tests/support/ports';
import { apiClient, peakRssMb, startCompiledServer, treeCpuSeconds, untilServing } from './compiled-server';
import { nativeReference, pipelinePrograms } from './native-pipeline';
import { sampleText } from './sample-text';

const QUICK = process.env.BENCH_QUICK === '1';
const CHARS = QUICK ? 5_000 : Number(process.env.BENCH_BOOK_CHARS ?? process.env.BENCH_CHARS ?? 50_000);
const NATIVE_SAMPLE_CHARS = 200_000;
/** Rounds of Lectio native against the reference (BENCH_ROUNDS, default 3). */
const ROUNDS = QUICK ? 1 : Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

const fmt = (n: number, d = 1) => n.toFixed(d);

interface ServerRun {
  firstStartRssMb: number;
  audio: number;
  wall: number;
  /** CPU seconds the server and its children used from job creation to completion. */
  cpu: number;
  rssMb: number;
  kind: string;
  status: string;
  bytes: number;
  /** API response times in ms while the job converted, sorted (none when not probed). */
  latencies: number[];
  /** The same, for 5 s before the job, with nothing converting. */
  idleLatencies: number[];
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * The real server in its own process: one job through the HTTP API, timed, its peak RSS, and the
 * API's response times while the job runs. The very first start of a data directory creates the
 * embedded database (initdb), a one-time peak of its own: it is reported apart, and the conversion
 * runs on a second start, as a server normally does.
 */
async function serverRun(
  text: string,
  env: Record<string, string> = {},
  { probeApi }: { probeApi: boolean },
): Promise<ServerRun> {
  const dir = mkdtempSync(join(tmpdir(), 'lectio-bench-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const first = startCompiledServer({ ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir });
  await untilServing(url);
  const firstStartRssMb = peakRssMb(first.pid!);
  await new Promise((r) => {
    first.once('exit', r);
    first.kill('SIGTERM');
  });
  const server = startCompiledServer({ ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir });
  try {
    const { call, signUp } = apiClient(url);
    await untilServing(url);
    const token = await signUp('bench@example.com', 'bench-password');
    // A reader's app: the environment and the job list, one request every 50 ms, while `busy()`.
    const probe = async (busy: () => boolean, latencies: number[]) => {
      for (let i = 0; busy(); i += 1) {
        const t0 = performance.now();
        await call('GET', i % 2 === 0 ? '/api/v1/environment' : '/api/v1/jobs?page=1&page_size=20', undefined, token);
        latencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    // The same requests for 5 s with nothing converting: what the machine allows at the moment.
    const idleLatencies: number[] = [];
    const idleUntil = performance.now() + 5000;
    if (probeApi) await probe(() => performance.now() < idleUntil, idleLatencies);
    // The server at rest before the job, as a reader would find it (its start's work done).
    else await new Promise((r) => setTimeout(r, 5000));
    const started = performance.now();
    const postedAt = Date.now();
    const cpuBefore = treeCpuSeconds(server.pid!);
    // Left to the server to decide, as for any reader: a long text becomes a book of chapters.
    const { id } = (await call('POST', '/api/v1/jobs', { title: 'Bench', content: text }, token)).body;
    let converting = true;
    const latencies: number[] = [];
    const probing = probeApi ? probe(() => converting, latencies) : Promise.resolve();
    let job: Record<string, unknown>;
    for (;;) {
      job = (await call('GET', `/api/v1/jobs/${String(id)}`, undefined, token)).body;
      if (job.status !== 'PENDING' && job.status !== 'PROCESSING') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    // From the request to the job's completed_at, as the server recorded it (the same clock): the
    // up to 250 ms between two polls of this client is not the server's time.
    const polled = (performance.now() - started) / 1000;
    const completedAt = Date.parse(String(job.completed_at));
    const wall = Number.isFinite(completedAt) ? Math.min(polled, (completedAt - postedAt) / 1000) : polled;
    const cpu = treeCpuSeconds(server.pid!) - cpuBefore;
    converting = false;
    await probing;
    const result = job.result_data as { duration_seconds?: number; file_size_bytes?: number; chapters?: unknown[] };
    return {
      firstStartRssMb,
      audio: result.duration_seconds ?? 0,
      wall,
      cpu,
      rssMb: peakRssMb(server.pid!),
      kind: job.job_type === 'book_processing' ? `a book of ${result.chapters?.length ?? 0} chapters` : 'one text',
      status: String(job.status),
      bytes: Number(result.file_size_bytes ?? 0),
      latencies: latencies.sort((a, b) => a - b),
      idleLatencies: idleLatencies.sort((a, b) => a - b),
    };
  } finally {
    // Reaped before the next measurement, so its CPU time is not counted as the reference's.
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

const verdict = (ok: boolean) => (ok ? 'MET' : 'NOT MET');

/** The native reference's runs: each one's speed, and their CPU seconds and audio in total. */
function createReference(text: string) {
  // Speed is per second of audio, so a long text's reference is timed on its first 200,000
  // characters (the 1 MB book's would otherwise take longer than the conversion itself).
  const referenceText = text.length > NATIVE_SAMPLE_CHARS ? sampleText(NATIVE_SAMPLE_CHARS) : text;
  const sampled = text.length > NATIVE_SAMPLE_CHARS ? `, on the first ${NATIVE_SAMPLE_CHARS} characters` : '';
  const totals = { cpu: 0, audio: 0 };
  const measure = async (when: string): Promise<number | null> => {
    const native = await nativeReference(referenceText);
    if (native === null) return null;
    const speed = native.audio / native.wall;
    totals.cpu += native.cpu;
    totals.audio += native.audio;
    console.log(
      `native reference ${when} (espeak-ng | lame, ${native.processes} pipelines at once${sampled}): ` +
        `${fmt(native.audio)} s of audio in ${fmt(native.wall)} s = ${fmt(speed)}x real time, ${fmt(native.cpu)} CPU seconds`,
    );
    return speed;
  };
  return { measure, totals };
}

type Reference = ReturnType<typeof createReference>;

/**
 * Rounds of (Lectio native, then the reference again): each round's ratio is taken against the
 * references just before and after it, and the verdict is on their median, since one round on a
 * shared machine can be some 10 % off either way. Returns the runs and the last reference speed.
 */
async function nativeRounds(
  text: string,
  reference: Reference,
  before: number | null,
): Promise<{ runs: ServerRun[]; last: number | null }> {
  const runs: ServerRun[] = [];
  const ratios: number[] = [];
  let previous = before;
  for (let round = 1; round <= ROUNDS; round += 1) {
    const run = await serverRun(text, { ESPEAK_ENGINE: 'native' }, { probeApi: false });
    runs.push(run);
    if (round === 1) {
      console.log(
        `first start (creates the embedded database): peak RSS ${fmt(run.firstStartRssMb, 0)} MB (target under 400 MB: ${verdict(run.firstStartRssMb < 400)})`,
      );
    }
    const speed = run.audio / run.wall;
    console.log(
      `Lectio native, round ${round} of ${ROUNDS} (ESPEAK_ENGINE=native, job created -> ${run.status}), ` +
        `${text.length} characters as ${run.kind}: ${fmt(run.audio)} s of audio in ${fmt(run.wall)} s = ${fmt(speed)}x real time, ` +
        `${fmt(run.cpu)} CPU seconds (${run.bytes} bytes)`,
    );
    const next = previous === null ? null : await reference.measure(`after round ${round}`);
    if (previous !== null && next !== null) {
      const ratio = speed / ((previous + next) / 2);
      ratios.push(ratio);
      console.log(
        `  round ${round}: ${fmt(ratio * 100, 0)} % of the native pipeline (the references before and after it)`,
      );
    }
    previous = next;
  }
  if (ratios.length > 0) {
    const middle = median(ratios);
    console.log(
      `Lectio native / native pipeline, same run, median of ${ratios.length} rounds ` +
        `(${ratios.map((r) => `${fmt(r * 100, 0)} %`).join(', ')}): ${fmt(middle * 100, 0)} % (target at least 85 %: ${verdict(middle >= 0.85)})`,
    );
  }
  return { runs, last: previous };
}

/** Lectio on its portable path, the API probed, against the references before and after it. */
async function portableRun(text: string, reference: Reference, before: number | null): Promise<ServerRun> {
  const run = await serverRun(text, { ESPEAK_ENGINE: 'portable' }, { probeApi: !QUICK });
  const speed = run.audio / run.wall;
  console.log(
    `Lectio portable (ESPEAK_ENGINE=portable, job created -> ${run.status}${QUICK ? '' : ', the API probed'}), ` +
      `${text.length} characters as ${run.kind}: ${fmt(run.audio)} s of audio in ${fmt(run.wall)} s = ` +
      `${fmt(speed)}x real time, ${fmt(run.cpu)} CPU seconds (${run.bytes} bytes)`,
  );
  const after = before === null ? null : await reference.measure('after the portable run');
  if (before !== null && after !== null) {
    const ratio = speed / ((before + after) / 2);
    console.log(
      `Lectio portable / native pipeline, same run: ${fmt(ratio * 100, 0)} % (target at least 40 %: ${verdict(ratio >= 0.4)})`,
    );
  }
  return run;
}

/** What the same audio costs in CPU, and the peak RSS and API latency of the runs. */
function summary(reference: Reference, runs: ServerRun[], probed: ServerRun | null, portable: ServerRun | null): void {
  const perHour = (cpu: number, audio: number) => fmt((cpu / audio) * 3600, 0);
  if (reference.totals.audio > 0) {
    // Load-independent: on a busy machine the speed ratios above depend on how many threads each
    // side runs, this does not.
    const { cpu, audio } = reference.totals;
    const efficiency = (c: number, a: number) => `${fmt((cpu / audio / (c / a)) * 100, 0)} %`;
    const nativeCpu = runs.reduce((n, r) => n + r.cpu, 0);
    const nativeAudio = runs.reduce((n, r) => n + r.audio, 0);
    console.log(
      `CPU seconds per hour of audio: native pipeline ${perHour(cpu, audio)}, Lectio native ${perHour(nativeCpu, nativeAudio)} ` +
        `(${efficiency(nativeCpu, nativeAudio)} of the pipeline's efficiency)` +
        (portable !== null
          ? `, Lectio portable ${perHour(portable.cpu, portable.audio)} (${efficiency(portable.cpu, portable.audio)})`
          : ''),
    );
  }
  const run = runs[0]!;
  const limit = CHARS >= 1_000_000 ? 300 : null;
  console.log(
    `peak server RSS during the conversion: native ${fmt(run.rssMb, 0)} MB` +
      (portable !== null ? `, portable ${fmt(portable.rssMb, 0)} MB` : '') +
      (limit !== null
        ? ` (target under ${limit} MB for a 1 MB book, native: ${verdict(run.rssMb < limit)})`
        : ' (the 1 MB book target: BENCH_BOOK_CHARS=1000000)'),
  );
  const latency = (r: ServerRun) =>
    `p50 ${fmt(percentile(r.latencies, 50))} ms, p99 ${fmt(percentile(r.latencies, 99))} ms, max ${fmt(r.latencies.at(-1) ?? NaN)} ms`;
  if (probed !== null) {
    const p99 = percentile(probed.latencies, 99);
    console.log(
      `API while converting, native (${probed.latencies.length} requests to /environment and /jobs): ${latency(probed)} ` +
        `(target p99 under 50 ms: ${verdict(p99 < 50)}); with nothing converting, just before: ` +
        `p50 ${fmt(percentile(probed.idleLatencies, 50))} ms, p99 ${fmt(percentile(probed.idleLatencies, 99))} ms`,
    );
  }
  if (portable !== null && portable.latencies.length > 0)
    console.log(`API while converting, portable: ${latency(portable)}`);
}

async function main(): Promise<void> {
  const text = sampleText(CHARS);
  const { espeak, lame } = pipelinePrograms();
  console.log(
    `Conversion bench${QUICK ? ' (quick check, not a measurement)' : ''}: ${text.length} characters, ` +
      `${os.availableParallelism()} CPUs, Node ${process.version}; reference programs: ` +
      `espeak-ng ${espeak ?? 'not on PATH'}, lame ${lame ?? 'not on PATH'}`,
  );
  const reference = createReference(text);
  const before = await reference.measure('before');
  if (before === null) {
    console.log(
      'native reference: not measured (espeak-ng and lame must both be on PATH: apt-get install espeak-ng lame)',
    );
  }
  const { runs, last } = await nativeRounds(text, reference, before);
  // The API's latency while the same text converts: a run of its own (its requests cost CPU).
  let probed: ServerRun | null = null;
  if (!QUICK) {
    probed = await serverRun(text, { ESPEAK_ENGINE: 'native' }, { probeApi: true });
    const extraCpu = probed.cpu - median(runs.map((r) => r.cpu));
    console.log(
      `Lectio native with the API probed every 50 ms (job created -> ${probed.status}): ${fmt(probed.audio)} s of audio in ` +
        `${fmt(probed.wall)} s = ${fmt(probed.audio / probed.wall)}x real time, ${fmt(probed.cpu)} CPU seconds ` +
        `(${fmt(Math.abs(extraCpu))} ${extraCpu >= 0 ? 'more' : 'less'} than the median round without the ${probed.latencies.length} requests)`,
    );
  }
  const portable = process.env.BENCH_PORTABLE === '0' ? null : await portableRun(text, reference, last);
  summary(reference, runs, probed, portable);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
