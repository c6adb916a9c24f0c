// Runs one half of a tutoring analysis in its own thread, then the thread ends (plain ESM so it
// starts under node, tsx and vitest alike): `call` exported by `moduleUrl`, given `input` and the
// analysis's date. Each half loads one NLP library (compromise's thread some 45 MB at its peak,
// retext's with its part-of-speech lexicon some 20 MB, measured above a process of their own); in
// a thread of its own that memory is returned as soon as the half is done, instead of staying in
// the server, and the halves never hold both.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('analysis-worker.mjs must run as a worker thread');

// Batch work: on Linux the nice value is per thread, so this thread alone yields to the server's
// main thread (the API) when the cores are busy. Elsewhere it would renice the whole process.
if (process.platform === 'linux') {
  try {
    setPriority(0, 10);
  } catch {
    /* not permitted: normal priority */
  }
}
const { moduleUrl, call, input, now } = workerData;
if (moduleUrl.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
const run = (await import(moduleUrl))[call];
// A book's text comes as its UTF-8 bytes (handed over, not copied): decoded here, in this thread.
const decoded = input instanceof Uint8Array ? new TextDecoder().decode(input) : input;
parentPort.postMessage(run(decoded, new Date(now)));
