// The server's MP3 encoder (LAME WebAssembly, in worker threads or in-process) gives a file that
// decodes to the PCM it was given, frame-exact. The offline voice's native path encodes in its
// hosts instead (../tts/espeak-host-streams.test.ts compares the two).
import { concatMp3 } from './concat';
import { EncoderPool } from './encoder-pool';
import { parseFrameHeader, parseMp3 } from './mp3-frames';
import { createMp3Writer } from './mp3';
import { speechLikePcm } from '../testing/synthetic-pcm';
import {
  correlationAt,
  decodeMp3,
  LAME_DELAY_SAMPLES,
  listFiles,
  readAll,
  tempStorage,
  writeInPieces,
} from '../testing/audio';

const paths: { name: string; size: number; describes: RegExp }[] = [
  { name: 'WebAssembly worker threads', size: 2, describes: /worker threads \(2\)/ },
  { name: 'WebAssembly in-process', size: 0, describes: /in-process/ },
];

async function encodeWith(pool: EncoderPool, pcm: Int16Array, sampleRate: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const writer = createMp3Writer({ sampleRate, pool, sink: async (c) => void chunks.push(c) });
  await writeInPieces(pcm, (s) => writer.write(s), 11);
  const result = await writer.finish();
  expect(result.sampleCount).toBe(pcm.length);
  expect(result.durationSeconds).toBe(pcm.length / sampleRate);
  const mp3 = Buffer.concat(chunks);
  expect(result.bytes).toBe(mp3.length);
  return mp3;
}

describe.each(paths)('MP3 encoding: $name', ({ size, describes }) => {
  let pool: EncoderPool;
  beforeAll(() => {
    pool = new EncoderPool(size);
  });
  afterAll(async () => {
    await pool.close();
  });

  it('says which encoder it uses', () => {
    expect(pool.describe()).toMatch(describes);
  });

  it.each([
    [22050, 48],
    [24000, 64],
  ])('a %i Hz stream decodes to the PCM it was given, LAME-delayed, frame-exact', async (rate, kbps) => {
    const pcm = speechLikePcm(12.7, rate, 4);
    const mp3 = await encodeWith(pool, pcm, rate);
    const info = parseMp3(mp3);
    expect(info.skippedBytes).toBe(0);
    expect(info.sampleRate).toBe(rate);
    expect(parseFrameHeader(mp3, 0)?.bitrateKbps).toBe(kbps);
    // Whole frames of 576 samples cover the delay and the PCM, plus at most LAME's end padding.
    expect(info.frames * 576).toBeGreaterThanOrEqual(pcm.length + LAME_DELAY_SAMPLES);
    expect(info.frames * 576).toBeLessThanOrEqual(pcm.length + LAME_DELAY_SAMPLES + 2 * 576);

    const decoded = await decodeMp3(mp3);
    expect(decoded.errors).toBe(0);
    expect(decoded.sampleRate).toBe(rate);
    expect(decoded.samples.length).toBe(info.frames * 576);
    expect(correlationAt(pcm, decoded.samples, LAME_DELAY_SAMPLES)).toBeGreaterThan(0.99);
    // Off by a few milliseconds, the waveform no longer matches: the delay is exact.
    expect(correlationAt(pcm, decoded.samples, LAME_DELAY_SAMPLES + 40)).toBeLessThan(0.9);
  });

  it("chapters joined by concatMp3 start exactly at the sum of the earlier chapters' frames", async () => {
    const env = await tempStorage();
    try {
      const chapters = [3.1, 0.4, 5.05].map((seconds, i) => speechLikePcm(seconds, 22050, 20 + i));
      const keys: string[] = [];
      const frameCounts: number[] = [];
      for (const [i, pcm] of chapters.entries()) {
        const key = `books/b/ch-${i}.mp3`;
        const writer = createMp3Writer({ sampleRate: 22050, pool, sink: await env.storage.createWriter(key) });
        await writeInPieces(pcm, (s) => writer.write(s), i + 3);
        await writer.finish();
        frameCounts.push(parseMp3(await readAll(env.storage.read(key))).frames);
        keys.push(key);
      }
      await concatMp3(env.storage, keys, 'books/b/book.mp3');
      const book = await readAll(env.storage.read('books/b/book.mp3'));
      expect(parseMp3(book).frames).toBe(frameCounts.reduce((a, b) => a + b, 0));
      const decoded = await decodeMp3(book);
      expect(decoded.errors).toBe(0);
      let start = 0;
      for (const [i, pcm] of chapters.entries()) {
        expect(correlationAt(pcm, decoded.samples, start + LAME_DELAY_SAMPLES), `chapter ${i}`).toBeGreaterThan(0.98);
        start += frameCounts[i]! * 576;
      }
    } finally {
      await env.cleanup();
    }
  });
});

describe('the encoder pool', () => {
  it('refuses a size that is not a whole number of threads', () => {
    expect(() => new EncoderPool(-1)).toThrow('Invalid encoder pool size -1');
    expect(() => new EncoderPool(1.5)).toThrow('Invalid encoder pool size 1.5');
  });

  it('an aborted stream writes nothing', async () => {
    const env = await tempStorage();
    const pool = new EncoderPool(1);
    try {
      const writer = createMp3Writer({
        sampleRate: 22050,
        pool,
        sink: await env.storage.createWriter('books/y/ch.mp3'),
      });
      await writer.write(speechLikePcm(3, 22050, 5));
      await writer.abort();
      expect(await env.storage.stat('books/y/ch.mp3')).toBeNull();
      expect(await listFiles(env.root)).toEqual([]);
      await expect(writer.write(new Int16Array(10))).rejects.toThrow(/aborted/);
    } finally {
      await pool.close();
      await env.cleanup();
    }
  });
});
