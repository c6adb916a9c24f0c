// `npm run bench`: every performance figure the issues set targets for, printed, never asserted.
//   1. conversion: the native espeak-ng | lame pipeline and the server (job creation to COMPLETED)
//      in the same run and their ratio, the API's p99 while converting, peak RSS of the first start
//      and of the conversion  (server/jobs/bench-pipeline.ts; BENCH_CHARS=50000)
//   2. bundle: gzip JavaScript a first visit needs on /login and /dashboard, chunk by chunk
//      (scripts/bench-bundle.mjs)
//   3. voice: handshake, typed question to first bot audio, end of speech to user-stopped-speaking
//      (server/assistant/bench-voice.ts)
// Run one with e.g. `npm run bench -- voice`. Set BENCH_BOOK_CHARS=1000000 for the 1 MB book figure.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildServerIfStale, SERVER_NODE_FLAGS } from './build-server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const benches = [
  // The server part runs the compiled server, as `npm start` does.
  { name: 'conversion', args: ['--import', 'tsx', 'server/jobs/bench-pipeline.ts'], before: buildServerIfStale },
  { name: 'bundle', args: ['scripts/bench-bundle.mjs'] },
  { name: 'voice', args: ['--import', 'tsx', 'server/assistant/bench-voice.ts'] },
];

const only = process.argv.slice(2);
let failed = 0;
for (const bench of benches) {
  if (only.length && !only.includes(bench.name)) continue;
  console.log(`\n=== bench: ${bench.name} ===`);
  await bench.before?.();
  const env = { ...process.env, LECTIO_SERVER_NODE_FLAGS: SERVER_NODE_FLAGS.join(' ') };
  const run = spawnSync(process.execPath, bench.args, { cwd: root, stdio: 'inherit', env });
  if (run.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
