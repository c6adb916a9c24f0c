/**
 * Conversion pipeline bench: `npm run bench` (node --import tsx server/jobs/bench-pipeline.ts).
 * Prints offline synthesis + MP3 encoding speed for a 50,000-character text (BENCH_CHARS to
 * change it) in one thread and with the encoder worker pool; then starts the real server as
 * `npm start` runs it (compiled, its own process, embedded database, in-process workers) and prints the
 * time from job creation to COMPLETED through the HTTP API and the server's peak RSS (VmHWM)
 * for a BENCH_BOOK_CHARS-character text (default BENCH_CHARS; 1000000 for the 1 MB book figure),
 * submitted without a job type, so the server decides text or book (chapters) as for any reader.
 */
import os from 'node:os';
import { EncoderPool } from '../audio/encoder-pool';
import { createMp3Writer } from '../audio/mp3';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitIntoChunks } from '../voices/chunking';
import { getOfflineEngine } from '../voices/espeak';

const CHARS = Number(process.env.BENCH_CHARS ?? 50_000);
const BOOK_CHARS = Number(process.env.BENCH_BOOK_CHARS ?? CHARS);

function benchText(chars: number): string {
  const sentences = [
    'The old lighthouse stood at the edge of the cliff, watching the grey sea roll in.',
    'Every evening the keeper climbed the spiral stairs and lit the great lamp.',
    'Ships far out on the water saw the beam and turned away from the rocks.',
    'In winter the wind howled around the tower and salt crusted the windows.',
    'He wrote in his logbook each night, noting the weather and the passing vessels.',
  ];
  let out = '';
  for (let i = 0; out.length < chars; i += 1) out += `${sentences[i % sentences.length]} `;
  return out.slice(0, chars).replace(/\s+\S*$/, '.');
}

async function synthEncode(text: string, pool: EncoderPool | undefined): Promise<{ audio: number; wall: number }> {
  const engine = getOfflineEngine();
  const started = performance.now();
  let writer: ReturnType<typeof createMp3Writer> | null = null;
  let bytes = 0;
  // The same requests the pipeline makes: whole sentences grouped up to the engine's limit.
  for (const chunk of splitIntoChunks(text, engine.maxCharsPerRequest)) {
    const speech = await engine.synthesize(chunk.text, 'en-us');
    writer ??= createMp3Writer({ sampleRate: speech.sampleRate, pool, sink: async (c) => void (bytes += c.byteLength) });
    await writer.write(speech.samples);
  }
  const result = await writer!.finish();
  return { audio: result.durationSeconds, wall: (performance.now() - started) / 1000 };
}

const fmt = (n: number, d = 1) => n.toFixed(d);

/** Peak resident memory of a process, from Linux's /proc (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
}

function startServer(dir: string, port: number) {
  // dist-server/ is compiled by scripts/bench.mjs before this runs, and started with the same
  // Node flags, as `npm start` does.
  const flags = (process.env.LECTIO_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  return spawn(process.execPath, [...flags, 'dist-server/main.mjs'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, STATIC_DIR: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function untilServing(url: string): Promise<void> {
  for (let i = 0; ; i += 1) {
    if (await fetch(`${url}/api/v1/environment`).then((r) => r.ok, () => false)) return;
    if (i > 600) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The real server in its own process: one job through the HTTP API, timed, and its peak RSS.
 * The very first start of a data directory creates the embedded database (initdb), a one-time
 * peak of its own: it is reported apart, and the conversion runs on a second start, as a
 * server normally does.
 */
async function serverRun(text: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lectio-bench-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const url = `http://127.0.0.1:${port}`;
  const first = startServer(dir, port);
  await untilServing(url);
  console.log(`first start (creates the embedded database): peak RSS ${fmt(peakRssMb(first.pid!), 0)} MB`);
  await new Promise((r) => {
    first.once('exit', r);
    first.kill('SIGTERM');
  });
  const server = startServer(dir, port);
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
    const started = performance.now();
    // Left to the server to decide, as for any reader: a long text becomes a book of chapters.
    const { id } = await call('POST', '/api/v1/jobs', { title: 'Bench', content: text }, token);
    let job: Record<string, unknown>;
    for (;;) {
      job = await call('GET', `/api/v1/jobs/${String(id)}`, undefined, token);
      if (job.status !== 'PENDING' && job.status !== 'PROCESSING') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const wall = (performance.now() - started) / 1000;
    const result = job.result_data as { duration_seconds?: number; file_size_bytes?: number; chapters?: unknown[] };
    const kind = job.job_type === 'book_processing' ? `a book of ${result.chapters?.length ?? 0} chapters` : 'one text';
    console.log(`server (npm start), ${text.length} characters as ${kind}: job ${String(job.status)} in ${fmt(wall)} s after creation (${fmt(result.duration_seconds ?? 0)} s of audio = ${fmt((result.duration_seconds ?? 0) / wall)}x real time, ${result.file_size_bytes} bytes)`);
    console.log(`peak server RSS: ${fmt(peakRssMb(server.pid!), 0)} MB (target: under 400 MB for a 1 MB book)`);
  } finally {
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const text = benchText(CHARS);
  console.log(`Pipeline bench: ${text.length} characters, ${os.availableParallelism()} CPUs, Node ${process.version}, eSpeak backend ${getOfflineEngine().backend}`);
  await getOfflineEngine().synthesize('Warm up.', 'en-us');

  const one = await synthEncode(text, undefined);
  console.log(`one thread (ENCODER_THREADS=0): ${fmt(one.audio)} s of audio in ${fmt(one.wall)} s = ${fmt(one.audio / one.wall)}x real time`);

  const threads = os.availableParallelism();
  const pool = new EncoderPool(threads);
  const pooled = await synthEncode(text, pool);
  await pool.close();
  console.log(`encoder pool (${threads} threads): ${fmt(pooled.audio)} s of audio in ${fmt(pooled.wall)} s = ${fmt(pooled.audio / pooled.wall)}x real time`);

  await serverRun(benchText(BOOK_CHARS));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
