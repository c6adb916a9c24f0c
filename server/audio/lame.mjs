// LAME 3.100 compiled to WebAssembly (wasm-media-encoders): constant-bitrate mono MP3.
// Plain ESM so that both the main thread and the encoder worker threads load it as is.
import { createMp3Encoder } from 'wasm-media-encoders';

/** Finished encoders of this thread, kept for reuse: configure() starts a fresh stream. */
const idle = [];
const MAX_IDLE = 4;

/** An encoder configured for a new stream (one WebAssembly instance, about 2 MB). */
export async function openLame(sampleRate, kbps) {
  const encoder = idle.pop() ?? (await createMp3Encoder());
  encoder.configure({ channels: 1, sampleRate, bitrate: kbps });
  return encoder;
}

/** Encodes 16-bit PCM; returns MP3 bytes in a buffer of their own (LAME's output buffer is reused). */
export function encodeLame(encoder, pcm) {
  const samples = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i += 1) samples[i] = pcm[i] / 32768;
  return encoder.encode([samples]).slice();
}

/** Ends the stream and returns its last bytes; the encoder goes back to the idle list. */
export function finishLame(encoder) {
  const bytes = encoder.finalize().slice();
  if (idle.length < MAX_IDLE) idle.push(encoder);
  return bytes;
}
