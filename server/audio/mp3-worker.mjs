// MP3 encoding worker (plain ESM so it runs under node, tsx and vitest alike).
// Holds one lamejs encoder per stream; messages for a stream are handled in arrival order,
// so results come back in order. PCM arrives transferred; MP3 bytes are transferred back.
import { parentPort } from 'node:worker_threads';
import { Mp3Encoder } from '@breezystack/lamejs';

if (!parentPort) throw new Error('mp3-worker.mjs must run as a worker thread');
const port = parentPort;

/** @type {Map<number, Mp3Encoder>} */
const encoders = new Map();

function reply(id, seq, int8) {
  // lamejs returns a fresh Int8Array; reinterpret it as bytes and hand the buffer over.
  const data = new Uint8Array(int8.buffer, int8.byteOffset, int8.byteLength);
  port.postMessage({ id, seq, data }, [data.buffer]);
}

port.on('message', (msg) => {
  const { op, id, seq } = msg;
  try {
    switch (op) {
      case 'open':
        encoders.set(id, new Mp3Encoder(1, msg.sampleRate, msg.kbps));
        break;
      case 'encode': {
        const encoder = encoders.get(id);
        if (!encoder) throw new Error(`no open MP3 stream ${id}`);
        reply(id, seq, encoder.encodeBuffer(msg.pcm));
        break;
      }
      case 'flush': {
        const encoder = encoders.get(id);
        if (!encoder) throw new Error(`no open MP3 stream ${id}`);
        encoders.delete(id);
        reply(id, seq, encoder.flush());
        break;
      }
      case 'close':
        encoders.delete(id);
        break;
      default:
        throw new Error(`unknown op ${String(op)}`);
    }
  } catch (error) {
    if (typeof seq === 'number') {
      port.postMessage({ id, seq, error: error instanceof Error ? error.message : String(error) });
    }
  }
});

// lamejs loaded: tell the pool this worker is usable.
port.postMessage({ ready: true });
