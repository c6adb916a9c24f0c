// The document reader's thread (plain ESM so it starts under node, tsx and vitest alike): reads
// uploads (EPUB, PDF, Markdown, HTML, text) and web pages' articles away from the server's event
// loop, one task at a time. Messages in: { id, task, args }; out: { id, value } or
// { id, error: { kind, message } } (kind is an IngestError's, or absent for anything else).
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('reader-worker.mjs must run as a worker thread');
const port = parentPort;

// Batch work: on Linux the nice value is per thread, so this thread yields to the API's.
if (process.platform === 'linux') {
  try {
    setPriority(0, 10);
  } catch {
    /* not permitted: normal priority */
  }
}
const { moduleUrl } = workerData;
if (moduleUrl.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { readerTasks } = await import(moduleUrl);

port.on('message', async ({ id, task, args }) => {
  try {
    const value = await readerTasks[task](...args);
    port.postMessage({ id, value });
  } catch (error) {
    const kind = error && typeof error === 'object' && error.name === 'IngestError' ? error.kind : undefined;
    port.postMessage({ id, error: { kind, message: error instanceof Error ? error.message : String(error) } });
  }
});
