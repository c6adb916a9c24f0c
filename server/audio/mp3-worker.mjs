// MP3 encoding worker (plain ESM so it runs under node, tsx and vitest alike).
// Holds one LAME encoder per stream; messages for a stream are handled in arrival order,
// so results come back in order. PCM arrives transferred; MP3 bytes are transferred back.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { encodeLame, finishLame, openLame } from './lame.mjs';

if (!parentPort) throw new Error('mp3-worker.mjs must run as a worker thread');

// Batch work: on Linux the nice value is per thread, so this thread alone yields to the server's
// main thread (the API) when the cores are busy. Elsewhere it would renice the whole process.
if (process.platform === 'linux') {
  try {
    setPriority(0, 10);
  } catch {
    /* not permitted: normal priority */
  }
}
const port = parentPort;

/** @type {Map<number, Promise<import('./lame.d.mts').LameEncoder>>} */
const encoders = new Map();

function fail(id, seq, error) {
  port.postMessage({ id, seq, error: error instanceof Error ? error.message : String(error) });
}

/** Runs `work` on the stream's encoder after everything sent to it before (promise reactions keep order). */
function withEncoder(id, seq, work) {
  const encoder = encoders.get(id);
  if (!encoder) return fail(id, seq, new Error(`no open MP3 stream ${id}`));
  encoder
    .then((e) => {
      const data = work(e);
      port.postMessage({ id, seq, data }, [data.buffer]);
    })
    .catch((error) => fail(id, seq, error));
}

port.on('message', (msg) => {
  const { op, id, seq } = msg;
  switch (op) {
    case 'open': {
      const opening = openLame(msg.sampleRate, msg.kbps);
      opening.catch(() => undefined); // reported to the first request of the stream
      encoders.set(id, opening);
      break;
    }
    case 'encode':
      withEncoder(id, seq, (e) => encodeLame(e, msg.pcm));
      break;
    case 'flush':
      withEncoder(id, seq, (e) => finishLame(e));
      encoders.delete(id);
      break;
    case 'close':
      encoders.delete(id);
      break;
    default:
      if (typeof seq === 'number') fail(id, seq, new Error(`unknown op ${String(op)}`));
  }
});
