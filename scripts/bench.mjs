// `npm run bench`: every performance figure with a target (README "Speed and size"), printed, never asserted.
//   1. conversion: the native espeak-ng | lame pipeline and the server on its native and portable
//      speech paths (job creation to COMPLETED) in the same run and their ratios, the API's p99
//      while converting, peak RSS of the first start and of the conversion  (bench/conversion.ts;
//      BENCH_CHARS=50000, BENCH_QUICK=1 to check it runs)
//   2. bundle: gzip JavaScript a first visit needs on /login and /dashboard (target 105 KB), chunk
//      by chunk, and its shares: the framework (react, react-dom, scheduler) and the app (its own
//      code and each library, heaviest first)  (bench/bundle.mjs)
//   3. voice: handshake, typed question to first answer text and first bot audio (p50/p95, native and
//      WebAssembly eSpeak), end of speech to user-stopped-speaking, indexing a long book for the
//      assistant, and on the voice page in Chromium Send to the answer's text on screen (target
//      < 300 ms)  (bench/voice.ts, bench/voice-page.ts)
//   4. login: a real sign-in alone and during a flood of 150 simultaneous sign-ins, from one address
//      and from 150 addresses  (bench/login.ts)
//   5. estimate: the preview's listening-time estimate against the real narration of the sample
//      texts, per voice, with the measured speaking rates  (bench/estimate.ts)
//   6. scale-out: API + 1 vs 2 workers on PostgreSQL with S3 storage (a book and 20 short jobs
//      from 10 users), takeover time after SIGTERM, 200 listeners saving progress while 5
//      conversions run  (bench/scale-out.ts; needs PostgreSQL server binaries)
//   7. joblist: GET /jobs (page of 20, 200 jobs in the account) requests/s as a ratio to
//      GET /environment, on the embedded database and on PostgreSQL  (bench/joblist.ts)
//   8. encode: MP3 encoding speed of 10 minutes of speech-like audio, in-process and on the
//      encoder pool, and peak RSS  (bench/encode.ts)
//   9. voices: offline synthesis speed per sentence and per 1,000-character chunk  (bench/voices.ts)
//  10. memory: peak RSS of the first start under `npm start` (npm, the start script and the server
//      together, and the server alone), and of the server converting a 1 MB book and a 10 MB plain
//      text to the end  (bench/memory.ts; BENCH_MEMORY_MINUTES stops a conversion earlier)
//      first-chapter: seconds from creating a 1 MB book, a 10 MB series and a 10 MB plain text to
//      their first playable chapter, while the rest still converts, with the server's peak RSS
//      until then  (bench/first-chapter.ts; BENCH_BOOK_CHARS for one book of that size)
//  11. voice-server: seconds of audio per second from the test suite's speech server of
//      Kokoro-FastAPI's protocol at TTS_SERVER_CONCURRENCY 1, 2 and 4, with and without word
//      timings  (bench/voice-server.ts)
//  12. exports: seconds to build each download (MP3, ZIP, M4B with the ffmpeg on PATH and the npm
//      package's, EPUB) of a converted 1 MB book, and their sizes  (bench/exports.ts)
//  13. cast: offline speaker attribution on the annotated long story: the share of quoted spans
//      given to the right speaker (target at least 90 %), narration characters given to a
//      character (target 0), and the time per MB of book  (bench/cast.ts)
//  14. soak: hostile files beside a /healthz prober (the longest stall), then 20 MB of text through
//      one server with its zombies, processes, open files and memory every minute  (bench/soak.ts;
//      hours long, so only when named: `npm run bench -- soak`)
// Run one with e.g. `npm run bench -- voice`. Set BENCH_BOOK_CHARS=1000000 for the 1 MB book figure.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildServerIfStale, SERVER_ENV, SERVER_NODE_FLAGS } from './build-server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const benches = [
  // The server part runs the compiled server, as `npm start` does.
  { name: 'conversion', args: ['--import', 'tsx', 'bench/conversion.ts'], before: buildServerIfStale },
  { name: 'bundle', args: ['bench/bundle.mjs'] },
  { name: 'voice', args: ['--import', 'tsx', 'bench/voice.ts'] },
  { name: 'login', args: ['--import', 'tsx', 'bench/login.ts'] },
  { name: 'estimate', args: ['--import', 'tsx', 'bench/estimate.ts'] },
  { name: 'scale-out', args: ['--import', 'tsx', 'bench/scale-out.ts'], before: buildServerIfStale },
  { name: 'crowd', args: ['--import', 'tsx', 'bench/crowd.ts'], before: buildServerIfStale },
  { name: 'joblist', args: ['--import', 'tsx', 'bench/joblist.ts'], before: buildServerIfStale },
  { name: 'feeds', args: ['--import', 'tsx', 'bench/feeds.ts'], before: buildServerIfStale },
  { name: 'encode', args: ['--import', 'tsx', 'bench/encode.ts'] },
  { name: 'voices', args: ['--import', 'tsx', 'bench/voices.ts'] },
  { name: 'memory', args: ['--import', 'tsx', 'bench/memory.ts'], before: buildServerIfStale },
  { name: 'first-chapter', args: ['--import', 'tsx', 'bench/first-chapter.ts'], before: buildServerIfStale },
  { name: 'voice-server', args: ['--import', 'tsx', 'bench/voice-server.ts'] },
  { name: 'exports', args: ['--import', 'tsx', 'bench/exports.ts'], before: buildServerIfStale },
  { name: 'cast', args: ['--import', 'tsx', 'bench/cast.ts'] },
  // Hours long: run on its own (`npm run bench -- soak`), never with the others.
  { name: 'soak', args: ['--import', 'tsx', 'bench/soak.ts'], before: buildServerIfStale, alone: true },
];

const only = process.argv.slice(2);
let failed = 0;
for (const bench of benches) {
  if (only.length ? !only.includes(bench.name) : bench.alone) continue;
  console.log(`\n=== bench: ${bench.name} ===`);
  await bench.before?.();
  // The benches start the compiled server as `npm start` does: its flags, and its environment (inherited).
  const env = { ...process.env, ...SERVER_ENV, LECTIO_SERVER_NODE_FLAGS: SERVER_NODE_FLAGS.join(' ') };
  const run = spawnSync(process.execPath, bench.args, { cwd: root, stdio: 'inherit', env });
  if (run.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
