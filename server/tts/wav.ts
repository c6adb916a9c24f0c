import type { Speech } from './types';

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Little-endian 16-bit PCM bytes to samples (a trailing odd byte is dropped). On a little-endian
 * machine with the bytes at an even offset this is a view of `bytes`, not a copy: the samples
 * share its memory.
 */
export function pcm16leToSamples(bytes: Uint8Array): Int16Array {
  const n = bytes.length >> 1;
  if (LITTLE_ENDIAN && bytes.byteOffset % 2 === 0) return new Int16Array(bytes.buffer, bytes.byteOffset, n);
  const out = new Int16Array(n);
  const view = new DataView(bytes.buffer, bytes.byteOffset, n * 2);
  for (let i = 0; i < n; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}

/**
 * Parses a RIFF/WAVE file holding 16-bit mono PCM. Tolerates the "unknown length" sizes that
 * `espeak-ng --stdout` writes when streaming (RIFF/data sizes of 0 or 0x7fffffff/0xffffffff):
 * the data chunk then runs to the end of the buffer.
 */
export function parseWav(bytes: Uint8Array): Speech {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (off: number) => String.fromCharCode(...bytes.subarray(off, off + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let off = 12;
  let sampleRate = 0;
  let fmtSeen = false;
  while (off + 8 <= bytes.length) {
    const id = tag(off);
    const size = view.getUint32(off + 4, true);
    const body = off + 8;
    if (id === 'fmt ') {
      const format = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      const bits = view.getUint16(body + 14, true);
      if ((format !== 1 && format !== 0xfffe) || channels !== 1 || bits !== 16) {
        throw new Error(`unsupported WAV format (format ${format}, ${channels} channels, ${bits} bits)`);
      }
      fmtSeen = true;
    } else if (id === 'data') {
      if (!fmtSeen) throw new Error('WAV data chunk before fmt chunk');
      const available = bytes.length - body;
      const len = size === 0 || size > available ? available : size;
      return { samples: pcm16leToSamples(bytes.subarray(body, body + len)), sampleRate };
    }
    off = body + size + (size & 1);
  }
  throw new Error('WAV file has no data chunk');
}

/** Builds a 16-bit mono WAV file (used by tests and handy for debugging output). */
export function encodeWav(speech: Speech): Uint8Array {
  const dataLen = speech.samples.length * 2;
  const out = new Uint8Array(44 + dataLen);
  const v = new DataView(out.buffer);
  const put = (off: number, s: string) => {
    for (let i = 0; i < 4; i++) out[off + i] = s.charCodeAt(i);
  };
  put(0, 'RIFF');
  v.setUint32(4, 36 + dataLen, true);
  put(8, 'WAVE');
  put(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, speech.sampleRate, true);
  v.setUint32(28, speech.sampleRate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  put(36, 'data');
  v.setUint32(40, dataLen, true);
  for (let i = 0; i < speech.samples.length; i++) v.setInt16(44 + i * 2, speech.samples[i]!, true);
  return out;
}
