// Runs one tutoring analysis in its own thread, then the thread ends (plain ESM so it starts under
// node, tsx and vitest alike). The NLP models cost about 130 MB while loaded; in a thread of their
// own that memory is returned as soon as the analysis is done, instead of staying in the server.
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('analysis-worker.mjs must run as a worker thread');
const { moduleUrl, text, now } = workerData;
if (moduleUrl.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { analyseText } = await import(moduleUrl);
parentPort.postMessage(analyseText(text, new Date(now)));
