// Runs one tutoring analysis in its own thread, then the thread ends (plain ESM so it starts under
// node, tsx and vitest alike). The NLP models cost about 130 MB while loaded; in a thread of their
// own that memory is returned as soon as the analysis is done, instead of staying in the server.
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
const { moduleUrl, text, now } = workerData;
if (moduleUrl.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { analyseText } = await import(moduleUrl);
// A book's text comes as its UTF-8 bytes (handed over, not copied): decoded here, in this thread.
const decoded = typeof text === 'string' ? text : new TextDecoder().decode(text);
parentPort.postMessage(analyseText(decoded, new Date(now)));
