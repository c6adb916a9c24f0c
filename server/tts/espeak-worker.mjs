// The offline voice's WebAssembly runtime in a thread of its own (plain ESM so it starts under
// node, tsx and vitest alike): synthesis, synchronous and tens of milliseconds per call, never
// holds the server's event loop. Messages { id, args, text } are answered in order with
// { id, status, wav, stderr } (the WAV transferred) or { id, error }.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('espeak-worker.mjs must run as a worker thread');
const port = parentPort;

// Batch work: on Linux the nice value is per thread, so this thread alone yields to the server's
// main thread (the API) when the cores are busy. Elsewhere it would renice the whole process.
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
const { createWasmRuntime } = await import(moduleUrl);
/** Created with the first call; a failure is reported to every call. */
let runtime;

port.on('message', async ({ id, args, text }) => {
  try {
    runtime ??= createWasmRuntime();
    const result = (await runtime).run(args, text);
    port.postMessage({ id, ...result }, result.wav ? [result.wav.buffer] : []);
  } catch (error) {
    runtime = undefined;
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
