#!/usr/bin/env node
// Compiles the server to plain JavaScript in dist-server/ (our code bundled, packages left to
// node_modules), so `npm start` runs without a TypeScript loader: it starts faster and keeps
// about 80 MB less resident. `buildServerIfStale()` rebuilds only when a source is newer.
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_OUT = path.join(root, 'dist-server');
export const SERVER_ENTRY = path.join(SERVER_OUT, 'main.mjs');

/**
 * Node flags the server runs with. A 4 MB young generation (V8's default is 16 MB per semi-space)
 * keeps about 30 MB less resident; the server allocates little, so the extra scavenges cost nothing
 * measurable (see `npm run bench -- conversion`). One background compiler task for WebAssembly:
 * by default V8 optimises the embedded database's hot functions on as many threads as there are
 * cores, each holding its own working memory, which made the start peak about 70 MB higher
 * (300 MB instead of 230 MB on the 2-core machine); the code is the same once compiled. The old
 * generation may double before a full collection: V8's own choice for a heap that promotes little
 * is to let it grow by about a third, and the external memory of the ArrayBuffers a conversion
 * passes around (40 KB of pipe chunks per second of speech alone) counts against that margin, so
 * V8 ran full collections over and over while converting (docs/adr/0020-server-start-flags-and-environment.md):
 * the 1 MB book cost the server 48 CPU seconds without the flag,
 * 26 with it. `gc()` is exposed so that the server can ask for one collection at the moment it
 * matters: before a tutoring analysis's thread loads its NLP models, the garbage of a whole book's
 * synthesis is freed (server/analysis/run.ts).
 */
export const SERVER_NODE_FLAGS = [
  '--max-semi-space-size=4',
  '--wasm-num-compilation-tasks=1',
  '--heap-growing-percent=100',
  '--expose-gc',
];

/**
 * Environment the server runs with (an operator's own value wins); other C libraries than glibc
 * ignore both variables.
 * - MALLOC_ARENA_MAX: glibc gives every thread that allocates (libuv's pool hashing passwords,
 *   worker threads rating passwords or analysing a text) an arena of its own, up to 8 per core, and
 *   keeps what was freed in them: two arenas keep the server about 30 MB smaller at rest and 40 MB
 *   lower at its peaks (`npm run bench -- conversion`), at no measurable cost to speed.
 * - MALLOC_MMAP_THRESHOLD_: glibc maps a block of 128 KB or more on its own and unmaps it when it
 *   is freed, but once such a block is freed it raises that threshold to the block's size, up to
 *   32 MB. Hashing a password takes a 32 MB block, so after the first sign-up every later buffer
 *   under 32 MB came from the arenas, which keep what is freed in their middle: the server sat
 *   12 MB higher at rest and 10 MB higher while converting a book. A fixed threshold keeps 128 KB
 *   (docs/adr/0020-server-start-flags-and-environment.md).
 */
export const SERVER_ENV = {
  MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
  MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
};

/** Entry points: each becomes dist-server/<name>.mjs (the directory is one level below the root, like server/). */
const ENTRIES = [
  'server/main.ts',
  'server/worker.ts',
  'server/analysis/people-and-places.ts',
  'server/analysis/tutoring.ts',
  'server/cast/attribution.ts',
  'server/auth/password-policy.ts',
  'server/tts/espeak-wasm.ts',
  'server/ingest/reader-tasks.ts',
];
/** Files loaded by URL beside the bundle: worker-thread scripts (plain ESM already) and data. */
const FILES_BESIDE_BUNDLE = [
  'server/audio/mp3-worker.mjs',
  'server/audio/lame.mjs',
  'server/analysis/analysis-worker.mjs',
  'server/auth/password-policy-worker.mjs',
  'server/ingest/pdf-worker.mjs',
  'server/ingest/reader-worker.mjs',
  'server/tts/espeak-worker.mjs',
  // The kept-running eSpeak-NG's C source, compiled at first use (server/tts/espeak-host-build.ts).
  'server/tts/espeak-host.c',
  // The part-of-speech tagger's lexicon (server/analysis/part-of-speech.ts).
  'server/analysis/gen/pos-lexicon.tsv',
  // The embedded database's template and its stamp (server/db/pglite.ts).
  'server/db/template/pglite-data.tar.gz',
  'server/db/template/pglite-data.json',
];

/** Newest modification time (ms) of a file or of any file below a directory (node_modules and dot-files skipped). */
export function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

export function serverIsStale() {
  if (!existsSync(SERVER_ENTRY)) return true;
  const sources = ['server', 'proto', 'package.json', 'package-lock.json', 'scripts/build-server.mjs'].map((p) =>
    newestMtime(path.join(root, p)),
  );
  return Math.max(...sources) > statSync(SERVER_ENTRY).mtimeMs;
}

/** Builds into a directory of its own, then swaps it in, so a running server never sees half a build. */
export async function buildServer() {
  // Loaded only to build: `npm start` keeps running beside the server it started, and esbuild's
  // API would add about 15 MB to it for nothing once the server is built.
  const { build } = await import('esbuild');
  const staging = `${SERVER_OUT}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const file of FILES_BESIDE_BUNDLE) copyFileSync(path.join(root, file), path.join(staging, path.basename(file)));
  try {
    await build({
      absWorkingDir: root,
      entryPoints: ENTRIES,
      outdir: staging,
      entryNames: '[name]',
      outExtension: { '.js': '.mjs' },
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      // Modules the server imports only when needed (S3 storage, the document readers) become
      // chunks of their own, so their packages load with them instead of at every start.
      splitting: true,
      chunkNames: '[name]-[hash]',
      target: 'node20',
      sourcemap: 'linked',
      logLevel: 'warning',
    });
    rmSync(SERVER_OUT, { recursive: true, force: true });
    renameSync(staging, SERVER_OUT);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

export async function buildServerIfStale() {
  if (!serverIsStale()) return false;
  await buildServer();
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
