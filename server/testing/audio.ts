import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalFileStorage } from '../storage/local';

export async function tempStorage(): Promise<{
  root: string;
  storage: LocalFileStorage;
  cleanup: () => Promise<void>;
}> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'lectio-audio-'));
  return { root, storage: new LocalFileStorage(root), cleanup: () => fs.rm(root, { recursive: true, force: true }) };
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Feeds PCM to `write` in uneven, sentence-like pieces. */
export async function writeInPieces(pcm: Int16Array, write: (s: Int16Array) => Promise<void>, seed = 7): Promise<void> {
  let at = 0;
  let k = seed;
  while (at < pcm.length) {
    k = (k * 1103515245 + 12345) % 2147483648;
    const size = 500 + (k % 30000);
    await write(pcm.slice(at, Math.min(pcm.length, at + size)));
    at += size;
  }
}

/** Every file under `dir` (relative, "/"-separated), temp files included. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(d: string): Promise<void> {
    for (const entry of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) await walk(p);
      else out.push(path.relative(dir, p).split(path.sep).join('/'));
    }
  }
  await walk(dir);
  return out.sort();
}

/** Decodes an MP3 with mpg123 (WebAssembly): mono samples in [-1, 1], and the decoder's error count. */
export async function decodeMp3(
  mp3: Uint8Array,
): Promise<{ samples: Float32Array; sampleRate: number; errors: number }> {
  const { MPEGDecoder } = await import('mpg123-decoder');
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const out = decoder.decode(mp3);
    return {
      samples: out.channelData[0] ?? new Float32Array(0),
      sampleRate: out.sampleRate,
      errors: out.errors.length,
    };
  } finally {
    decoder.free();
  }
}

/** LAME's delay before the first input sample in the decoded audio (encoder 576 + decoder 529). */
export const LAME_DELAY_SAMPLES = 1105;

/**
 * Correlation (1 = the same waveform) between `pcm` and `decoded` starting at `offset`: how
 * faithfully the decoded MP3 carries that PCM at that place.
 */
export function correlationAt(pcm: Int16Array, decoded: Float32Array, offset: number): number {
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < pcm.length; i += 1) {
    const a = pcm[i]! / 32768;
    const b = decoded[offset + i] ?? 0;
    sxy += a * b;
    sxx += a * a;
    syy += b * b;
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

/**
 * Which of `candidatesHz` is loudest in `samples` between `fromSeconds` and `toSeconds` (the
 * Goertzel filter's power at each): the voice heard there, when each voice reads at a tone of its own.
 */
export function loudestTone(
  samples: Float32Array,
  sampleRate: number,
  fromSeconds: number,
  toSeconds: number,
  candidatesHz: number[],
): number {
  const from = Math.max(0, Math.round(fromSeconds * sampleRate));
  const to = Math.min(samples.length, Math.round(toSeconds * sampleRate));
  if (to <= from) throw new Error(`no audio between ${fromSeconds} s and ${toSeconds} s`);
  const power = (hz: number) => {
    const coefficient = 2 * Math.cos((2 * Math.PI * hz) / sampleRate);
    let previous = 0;
    let beforePrevious = 0;
    for (let i = from; i < to; i += 1) {
      const next = samples[i]! + coefficient * previous - beforePrevious;
      beforePrevious = previous;
      previous = next;
    }
    return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
  };
  return candidatesHz.reduce((best, hz) => (power(hz) > power(best) ? hz : best));
}
