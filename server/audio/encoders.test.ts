// Every MP3 encoder path gives a file that decodes to the PCM it was given, with the same frame
// structure: native `lame` (used when on PATH), LAME WebAssembly in worker threads and in-process,
// and the fallback to WebAssembly when no `lame` is there.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { concatMp3 } from './concat';
import { EncoderPool, type EncoderPoolOptions } from './encoder-pool';
import { detectNativeLame, lameArguments } from './lame-native';
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

/** The real LAME binary: these tests prove the native path, so it must be installed (CI installs it). */
function requireLame(): string {
  const lame = detectNativeLame();
  if (lame === null) {
    throw new Error('The native MP3 encoder tests need LAME: sudo apt-get install -y lame');
  }
  return lame;
}

const emptyDir = mkdtempSync(path.join(tmpdir(), 'lectio-nolame-'));
afterAll(() => rmSync(emptyDir, { recursive: true, force: true }));

const paths: { name: string; size: number; options: () => EncoderPoolOptions; describes: RegExp }[] = [
  {
    name: 'native lame',
    size: 1,
    options: () => ({ encoder: 'native', lameBinary: requireLame() }),
    describes: /^native lame$/,
  },
  {
    name: 'WebAssembly worker threads',
    size: 2,
    options: () => ({ encoder: 'wasm' }),
    describes: /worker threads \(2\)/,
  },
  { name: 'WebAssembly in-process', size: 0, options: () => ({ encoder: 'wasm' }), describes: /in-process/ },
  // A machine without lame: 'auto' falls back to WebAssembly.
  {
    name: 'auto without lame on PATH',
    size: 1,
    options: () => ({ encoder: 'auto', searchPath: emptyDir }),
    describes: /WebAssembly, worker threads \(1\)/,
  },
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

describe.each(paths)('MP3 encoding: $name', ({ size, options, describes }) => {
  let pool: EncoderPool;
  beforeAll(() => {
    pool = new EncoderPool(size, options());
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

describe('native lame and WebAssembly', () => {
  it('produce files of the same frames, so durations and chapter offsets do not depend on the encoder', async () => {
    const native = new EncoderPool(0, { encoder: 'native', lameBinary: requireLame() });
    const wasm = new EncoderPool(0, { encoder: 'wasm' });
    for (const [seconds, rate] of [
      [7.3, 22050],
      [0.01, 22050],
      [4.2, 24000],
    ] as const) {
      const pcm = speechLikePcm(seconds, rate, 9);
      const a = parseMp3(await encodeWith(native, pcm, rate));
      const b = parseMp3(await encodeWith(wasm, pcm, rate));
      expect([a.frames, a.audioBytes, a.durationSeconds]).toEqual([b.frames, b.audioBytes, b.durationSeconds]);
    }
    await native.close();
    await wasm.close();
  });

  it('native lame is asked for mono CBR at the input rate with no Info frame', () => {
    expect(lameArguments(22050, 48)).toEqual([
      '-r',
      '-s',
      '22.05',
      '--bitwidth',
      '16',
      '--signed',
      '--little-endian',
      '-m',
      'm',
      '--cbr',
      '-b',
      '48',
      '--resample',
      '22.05',
      '-t',
      '--quiet',
      '-',
      '-',
    ]);
  });
});

describe('when the native encoder is missing or fails', () => {
  it("'native' without a lame binary is refused with a clear message; 'auto' and 'wasm' fall back", () => {
    expect(() => new EncoderPool(1, { encoder: 'native', searchPath: emptyDir })).toThrow(
      'MP3 encoder "native" requested but no lame binary is on PATH (install the lame package)',
    );
    expect(new EncoderPool(1, { encoder: 'auto', searchPath: emptyDir }).lameBinary).toBeNull();
    expect(new EncoderPool(1, { encoder: 'wasm', lameBinary: requireLame() }).lameBinary).toBeNull();
  });

  it('a lame that dies reports its error and leaves no file under the key', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lectio-badlame-'));
    const bin = path.join(dir, 'lame');
    // Reads a little, then fails like a broken install would.
    writeFileSync(
      bin,
      `#!/bin/sh\nhead -c 1000 >/dev/null\necho "lame: fatal: cannot initialise encoder" >&2\nexit 3\n`,
    );
    chmodSync(bin, 0o755);
    const env = await tempStorage();
    try {
      const pool = new EncoderPool(0, { encoder: 'native', lameBinary: bin });
      const writer = createMp3Writer({
        sampleRate: 22050,
        pool,
        sink: await env.storage.createWriter('books/x/ch.mp3'),
      });
      const failed = (async () => {
        await writeInPieces(speechLikePcm(6, 22050, 2), (s) => writer.write(s));
        await writer.finish();
      })();
      await expect(failed).rejects.toThrow(
        'MP3 encoding failed: lame exited with status 3: lame: fatal: cannot initialise encoder',
      );
      expect(await env.storage.stat('books/x/ch.mp3')).toBeNull();
      expect(await listFiles(env.root)).toEqual([]);
    } finally {
      await env.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an aborted native stream ends its lame process and writes nothing', async () => {
    const env = await tempStorage();
    try {
      const pool = new EncoderPool(0, { encoder: 'native', lameBinary: requireLame() });
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
      await env.cleanup();
    }
  });
});
