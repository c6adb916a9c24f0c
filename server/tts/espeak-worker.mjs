// One eSpeak-NG WebAssembly instance in a thread of its own (plain ESM so it starts under node,
// tsx and vitest alike), one of the pool's (espeak-pool.ts). The thread runs eSpeak's line-by-line
// mode (espeak-wasm.ts `serve`) for as long as requests come with the same voice and rate, so a
// request costs its synthesis and a restore of the memory eSpeak had before its first line (so it
// speaks from the same state every time), not a restart. It never returns to its event
// loop: requests are taken from `port` with receiveMessageOnPort, and the thread sleeps on
// Atomics.wait until the pool bumps `signal` after posting one.
// In: { type: 'say', id, args, text } and { type: 'close' }.
// Out: { id, pcm, sampleRate, words } (the samples' ArrayBuffer transferred), { id, error } or { ready }.
import { setPriority } from 'node:os';
import { receiveMessageOnPort, workerData } from 'node:worker_threads';

const { moduleUrl, wasmModule, port, signal: signalBuffer } = workerData;
const signal = new Int32Array(signalBuffer);

// Batch work: on Linux the nice value is per thread, so this thread alone yields to the server's
// main thread (the API) when the cores are busy. Elsewhere it would renice the whole process.
if (process.platform === 'linux') {
  try {
    setPriority(0, 10);
  } catch {
    /* not permitted: normal priority */
  }
}

if (moduleUrl.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { createWasmRuntime } = await import(moduleUrl);

/** Messages taken from the port but not handled yet (a request for another voice ends a serve). */
const held = [];

/** The next message, waiting for one. */
function take() {
  for (;;) {
    if (held.length > 0) return held.shift();
    const seen = Atomics.load(signal, 0);
    const received = receiveMessageOnPort(port);
    if (received) return received.message;
    Atomics.wait(signal, 0, seen);
  }
}

const fail = (id, error) => port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });

let runtime;
try {
  runtime = await createWasmRuntime(wasmModule);
  port.postMessage({ ready: true });
} catch (error) {
  // Every request gets the reason until the pool replaces the thread.
  for (;;) {
    const msg = take();
    if (msg.type === 'close') process.exit(0);
    fail(msg.id, error);
  }
}

for (;;) {
  const first = take();
  if (first.type === 'close') break;
  const key = JSON.stringify(first.args);
  /** The request being spoken; null once answered. */
  let current = first;
  let started = false;
  try {
    const { status, stderr } = runtime.serve(
      first.args,
      () => {
        if (!started) {
          started = true;
          return first.text;
        }
        const msg = take();
        if (msg.type === 'say' && JSON.stringify(msg.args) === key) {
          current = msg;
          return msg.text;
        }
        held.unshift(msg); // another voice, or close: after this serve ends
        return null;
      },
      (pcm, sampleRate, words) => {
        const owned = pcm.byteOffset === 0 && pcm.byteLength === pcm.buffer.byteLength ? pcm : pcm.slice();
        port.postMessage({ id: current.id, pcm: owned.buffer, sampleRate, words }, [owned.buffer]);
        current = null;
      },
    );
    // eSpeak stopped before speaking the request (a voice it does not have, bad arguments).
    if (current !== null) port.postMessage({ id: current.id, status: status === 0 ? 1 : status, stderr });
  } catch (error) {
    if (current !== null) fail(current.id, error);
  }
}
process.exit(0);
