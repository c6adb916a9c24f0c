/**
 * Audio on the voice assistant's websocket (docs/voice-protocol.md): 16-bit little-endian mono PCM,
 * the microphone at 16 kHz and the bot at 24 kHz, carried in `audio` frames.
 */
/** Microphone audio the client sends. */
export const MIC_SAMPLE_RATE = 16_000;
/** Bot audio the server sends and the client plays. */
export const BOT_SAMPLE_RATE = 24_000;
/** Name of the audio frames in both directions (as Pipecat's serializer names them). */
export const AUDIO_FRAME_NAME = 'audio';

/** Int16 samples of little-endian PCM bytes (copied: the decoded bytes may be unaligned). */
export function pcmFromBytes(bytes: Uint8Array): Int16Array {
  const samples = bytes.byteLength >> 1;
  const pcm = new Int16Array(samples);
  const view = new DataView(bytes.buffer, bytes.byteOffset, samples * 2);
  for (let i = 0; i < samples; i++) pcm[i] = view.getInt16(i * 2, true);
  return pcm;
}

/** Little-endian bytes of Int16 samples. */
export function bytesFromPcm(pcm: Int16Array): Uint8Array {
  const bytes = new Uint8Array(pcm.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < pcm.length; i++) view.setInt16(i * 2, pcm[i] ?? 0, true);
  return bytes;
}
