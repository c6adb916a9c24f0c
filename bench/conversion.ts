/**
 * Conversion pipeline bench: `npm run bench -- conversion` (node --import tsx bench/conversion.ts).
 * For a BENCH_CHARS-character text (default 50,000; BENCH_BOOK_CHARS=1000000 for the 1 MB book):
 * 1. the native reference: when `espeak-ng` and `lame` are on PATH, the text cut in one part per
 *    CPU, each part through `espeak-ng --stdout | lame` (the same voice, rate and MP3 settings as
 *    Lectio), all parts at once: what this machine can do with native tools on all its cores;
 * 2. the real server as `npm start` runs it (compiled, its own process, embedded database,
 *    in-process workers) with what is on PATH ("Lectio native"): the first start's peak RSS
 *    (creating the embedded database), then on a second start one job through the HTTP API, timed
 *    from creation to COMPLETED and its peak RSS (VmHWM), the client polling the job every 250 ms
 *    as it waits; then once more with the API's latency measured while it converts (GET
 *    /environment and /jobs, one request every 50 ms, p50/p99/max), a run of its own, since those
 *    requests cost the server and this client CPU that the native pipeline is not asked to spend;
 * 3. the same server with ESPEAK_ENGINE=wasm MP3_ENCODER=wasm ("Lectio wasm"): what a machine
 *    without the Debian tools gets (the API's latency measured while it converts, too);
 * 4. the native reference again after each of them, so that a machine whose load changes during
 *    the run is measured fairly: each run's ratio to the mean of the references just before and
 *    after it, the targets being at least 85 % and 40 %. (2) runs BENCH_ROUNDS times (default 3,
 *    each on a fresh server) and its verdict is on the median round. BENCH_WASM=0 leaves (3) out.
 * A job is timed from its POST to the completed_at the server recorded (the same clock), not to
 * the poll that saw it.
 * The text is submitted without a job type, so the server decides text or book as for any reader.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectNativeLame, lameArguments } from '../server/audio/lame-native';
import { defaultKbps } from '../server/audio/mp3';
import { parseMp3 } from '../server/audio/mp3-frames';
import { detectNativeEspeak } from '../server/tts/espeak';
import { freePort } from '../tests/support/ports';
import {
  peakRssMb,
  reapedChildrenCpuSeconds,
  startCompiledServer,
  treeCpuSeconds,
  untilServing,
} from './compiled-server';
import { sampleText } from './sample-text';

const CHARS = Number(process.env.BENCH_BOOK_CHARS ?? process.env.BENCH_CHARS ?? 50_000);
const NATIVE_SAMPLE_CHARS = 200_000;
/** Rounds of Lectio native against the reference (BENCH_ROUNDS, default 3). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const VOICE = 'en-us+f3'; // the stand-in for the default voice (alloy)
const RATE_WPM = 175;
const SAMPLE_RATE = 22_050;

/** Cuts `text` into `n` parts of about equal length at sentence ends. */
function parts(text: string, n: number): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 1; i <= n; i += 1) {
    let end = i === n ? text.length : text.indexOf('. ', Math.round((text.length * i) / n));
    if (end < 0) end = text.length;
    else if (i < n) end += 1;
    out.push(text.slice(start, end).trim());
    start = end;
  }
  return out.filter((p) => p !== '');
}

interface NativeRun {
  audio: number;
  wall: number;
  /** CPU seconds the pipelines used. */
  cpu: number;
  processes: number;
}

/** espeak-ng | lame for each part, all parts at once; null when either binary is missing. */
async function nativeReference(text: string): Promise<NativeRun | null> {
  const espeak = detectNativeEspeak();
  const lame = detectNativeLame();
  if (espeak === null || lame === null) return null;
  const dir = mkdtempSync(join(tmpdir(), 'lectio-native-'));
  try {
    const pieces = parts(text, os.availableParallelism());
    pieces.forEach((p, i) => writeFileSync(join(dir, `${i}.txt`), p));
    // espeak-ng writes a WAV header with an unknown length; lame reads raw PCM after skipping it.
    const lameArgs = lameArguments(SAMPLE_RATE, defaultKbps(SAMPLE_RATE)).slice(0, -2);
    const started = performance.now();
    const cpuBefore = reapedChildrenCpuSeconds();
    await Promise.all(
      pieces.map(
        (_, i) =>
          new Promise<void>((resolve, reject) => {
            const voice = spawn(
              espeak,
              ['--stdout', '-b', '1', '-v', VOICE, '-s', String(RATE_WPM), '-f', join(dir, `${i}.txt`)],
              {
                stdio: ['ignore', 'pipe', 'ignore'],
              },
            );
            const encoder = spawn(lame, [...lameArgs, '-', join(dir, `${i}.mp3`)], {
              stdio: ['pipe', 'ignore', 'ignore'],
            });
            let header = 44;
            voice.stdout.on('data', (chunk: Buffer) => {
              const body = header > 0 ? chunk.subarray(Math.min(header, chunk.length)) : chunk;
              header -= Math.min(header, chunk.length);
              if (body.length > 0 && !encoder.stdin.write(body)) {
                voice.stdout.pause();
                encoder.stdin.once('drain', () => voice.stdout.resume());
              }
            });
            voice.stdout.on('end', () => encoder.stdin.end());
            voice.on('error', reject);
            encoder.on('error', reject);
            encoder.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`lame exited with ${code}`))));
          }),
      ),
    );
    const wall = (performance.now() - started) / 1000;
    const cpu = reapedChildrenCpuSeconds() - cpuBefore;
    const audio = pieces.reduce((n, _, i) => n + parseMp3(readFileSync(join(dir, `${i}.mp3`))).durationSeconds, 0);
    return { audio, wall, cpu, processes: pieces.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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
    const call = async (method: string, path: string, body?: object, token?: string) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        ...(body && { body: JSON.stringify(body) }),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    await untilServing(url);
    const credentials = { email: 'bench@example.com', password: 'bench-password' };
    await call('POST', '/api/v1/auth/register', credentials);
    const token = String((await call('POST', '/api/v1/auth/login', credentials)).access_token);
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
    const { id } = await call('POST', '/api/v1/jobs', { title: 'Bench', content: text }, token);
    let converting = true;
    const latencies: number[] = [];
    const probing = probeApi ? probe(() => converting, latencies) : Promise.resolve();
    let job: Record<string, unknown>;
    for (;;) {
      job = await call('GET', `/api/v1/jobs/${String(id)}`, undefined, token);
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

async function main(): Promise<void> {
  const text = sampleText(CHARS);
  const espeak = detectNativeEspeak();
  const lame = detectNativeLame();
  console.log(
    `Conversion bench: ${text.length} characters, ${os.availableParallelism()} CPUs, Node ${process.version}; ` +
      `espeak-ng ${espeak ?? 'not on PATH'}, lame ${lame ?? 'not on PATH'} (the server uses what is there, else WebAssembly)`,
  );

  // Speed is per second of audio, so a long text's reference is timed on its first 200,000
  // characters (the 1 MB book's would otherwise take longer than the conversion itself).
  const referenceText = text.length > NATIVE_SAMPLE_CHARS ? sampleText(NATIVE_SAMPLE_CHARS) : text;
  const sampled = text.length > NATIVE_SAMPLE_CHARS ? `, on the first ${NATIVE_SAMPLE_CHARS} characters` : '';
  let referenceCpu = 0;
  let referenceAudio = 0;
  const reference = async (when: string): Promise<number | null> => {
    const native = await nativeReference(referenceText);
    if (native === null) return null;
    const speed = native.audio / native.wall;
    referenceCpu += native.cpu;
    referenceAudio += native.audio;
    console.log(
      `native reference ${when} (espeak-ng | lame, ${native.processes} pipelines at once${sampled}): ` +
        `${fmt(native.audio)} s of audio in ${fmt(native.wall)} s = ${fmt(speed)}x real time, ${fmt(native.cpu)} CPU seconds`,
    );
    return speed;
  };
  const before = await reference('before');
  if (before === null) {
    console.log(
      'native reference: not measured (espeak-ng and lame must both be on PATH: apt-get install espeak-ng lame)',
    );
  }

  // Rounds of (Lectio native, then the reference again): each round's ratio is taken against the
  // references just before and after it, and the verdict is on their median, since one round on a
  // shared machine can be some 10 % off either way.
  const runs: ServerRun[] = [];
  const ratios: number[] = [];
  let previous = before;
  for (let round = 1; round <= ROUNDS; round += 1) {
    const run = await serverRun(text, {}, { probeApi: false });
    runs.push(run);
    if (round === 1) {
      console.log(
        `first start (creates the embedded database): peak RSS ${fmt(run.firstStartRssMb, 0)} MB (target under 400 MB: ${verdict(run.firstStartRssMb < 400)})`,
      );
    }
    const speed = run.audio / run.wall;
    console.log(
      `Lectio native, round ${round} of ${ROUNDS} (npm start's server with what is on PATH, job created -> ${run.status}), ` +
        `${text.length} characters as ${run.kind}: ${fmt(run.audio)} s of audio in ${fmt(run.wall)} s = ${fmt(speed)}x real time, ` +
        `${fmt(run.cpu)} CPU seconds (${run.bytes} bytes)`,
    );
    const next = previous === null ? null : await reference(`after round ${round}`);
    if (previous !== null && next !== null) {
      const ratio = speed / ((previous + next) / 2);
      ratios.push(ratio);
      console.log(
        `  round ${round}: ${fmt(ratio * 100, 0)} % of the native pipeline (the references before and after it)`,
      );
    }
    previous = next;
  }
  const run = runs[0]!;
  if (ratios.length > 0) {
    const middle = median(ratios);
    console.log(
      `Lectio native / native pipeline, same run, median of ${ratios.length} rounds ` +
        `(${ratios.map((r) => `${fmt(r * 100, 0)} %`).join(', ')}): ${fmt(middle * 100, 0)} % (target at least 85 %: ${verdict(middle >= 0.85)})`,
    );
  }
  // The API's latency while the same text converts: a run of its own (its requests cost CPU).
  const probed = await serverRun(text, {}, { probeApi: true });
  const extraCpu = probed.cpu - median(runs.map((r) => r.cpu));
  console.log(
    `Lectio native with the API probed every 50 ms (job created -> ${probed.status}): ${fmt(probed.audio)} s of audio in ` +
      `${fmt(probed.wall)} s = ${fmt(probed.audio / probed.wall)}x real time, ${fmt(probed.cpu)} CPU seconds ` +
      `(${fmt(Math.abs(extraCpu))} ${extraCpu >= 0 ? 'more' : 'less'} than the median round without the ${probed.latencies.length} requests)`,
  );
  const wasm =
    process.env.BENCH_WASM === '0'
      ? null
      : await serverRun(text, { ESPEAK_ENGINE: 'wasm', MP3_ENCODER: 'wasm' }, { probeApi: true });
  const wasmSpeed = wasm === null ? null : wasm.audio / wasm.wall;
  if (wasm !== null) {
    console.log(
      `Lectio wasm (ESPEAK_ENGINE=wasm MP3_ENCODER=wasm, job created -> ${wasm.status}, the API probed), ${text.length} characters as ${wasm.kind}: ` +
        `${fmt(wasm.audio)} s of audio in ${fmt(wasm.wall)} s = ${fmt(wasmSpeed!)}x real time, ${fmt(wasm.cpu)} CPU seconds (${wasm.bytes} bytes)`,
    );
    const after = previous === null ? null : await reference('after the wasm run');
    if (previous !== null && after !== null) {
      const wasmRatio = wasmSpeed! / ((previous + after) / 2);
      console.log(
        `Lectio wasm / native pipeline, same run: ${fmt(wasmRatio * 100, 0)} % (target at least 40 %: ${verdict(wasmRatio >= 0.4)})`,
      );
    }
  }
  if (referenceAudio > 0) {
    // What the same audio costs in CPU, whatever else the machine runs: on a busy machine the
    // speed ratios above depend on how many threads each side runs, this does not.
    const perHour = (cpu: number, audio: number) => fmt((cpu / audio) * 3600, 0);
    const referencePerHour = referenceCpu / referenceAudio;
    const nativeCpu = runs.reduce((n, r) => n + r.cpu, 0);
    const nativeAudio = runs.reduce((n, r) => n + r.audio, 0);
    console.log(
      `CPU seconds per hour of audio: native pipeline ${perHour(referenceCpu, referenceAudio)}, Lectio native ${perHour(nativeCpu, nativeAudio)} ` +
        `(${fmt((referencePerHour / (nativeCpu / nativeAudio)) * 100, 0)} % of the pipeline's efficiency)` +
        (wasm !== null
          ? `, Lectio wasm ${perHour(wasm.cpu, wasm.audio)} (${fmt((referencePerHour / (wasm.cpu / wasm.audio)) * 100, 0)} %)`
          : ''),
    );
  }
  const limit = CHARS >= 1_000_000 ? 300 : null;
  console.log(
    `peak server RSS during the conversion: native ${fmt(run.rssMb, 0)} MB` +
      (wasm !== null ? `, wasm ${fmt(wasm.rssMb, 0)} MB` : '') +
      (limit !== null
        ? ` (target under ${limit} MB for a 1 MB book, native: ${verdict(run.rssMb < limit)})`
        : ' (the 1 MB book target: BENCH_BOOK_CHARS=1000000)'),
  );
  const p99 = percentile(probed.latencies, 99);
  console.log(
    `API while converting, native (${probed.latencies.length} requests to /environment and /jobs): p50 ${fmt(percentile(probed.latencies, 50))} ms, ` +
      `p99 ${fmt(p99)} ms, max ${fmt(probed.latencies.at(-1) ?? NaN)} ms (target p99 under 50 ms: ${verdict(p99 < 50)}); ` +
      `with nothing converting, just before: p50 ${fmt(percentile(probed.idleLatencies, 50))} ms, p99 ${fmt(percentile(probed.idleLatencies, 99))} ms`,
  );
  if (wasm !== null) {
    console.log(
      `API while converting, wasm: p50 ${fmt(percentile(wasm.latencies, 50))} ms, p99 ${fmt(percentile(wasm.latencies, 99))} ms, max ${fmt(wasm.latencies.at(-1) ?? NaN)} ms`,
    );
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
