import { EncoderPool } from './encoder-pool';
import { parseMp3 } from './mp3-frames';
import { createMp3Writer } from './mp3';
import { speechLikePcm } from '../testing/synthetic-pcm';
import { listFiles, tempStorage, writeInPieces } from '../testing/audio';

async function encode(pcm: Int16Array, sampleRate: number, pool?: EncoderPool): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const writer = createMp3Writer({ sampleRate, pool, sink: async (c) => void chunks.push(c) });
  await writeInPieces(pcm, (s) => writer.write(s), sampleRate);
  const result = await writer.finish();
  expect(result.sampleCount).toBe(pcm.length);
  return Buffer.concat(chunks);
}

describe('EncoderPool', () => {
  let pool: EncoderPool;
  beforeAll(() => {
    pool = new EncoderPool(2);
  });
  afterAll(async () => {
    await pool.close();
  });

  it('many concurrent streams produce exactly the bytes of in-process encoding', async () => {
    const inputs = Array.from({ length: 8 }, (_, i) => ({
      rate: i % 2 === 0 ? 22050 : 24000,
      pcm: speechLikePcm(1.5 + i * 0.23, i % 2 === 0 ? 22050 : 24000, i + 1),
    }));
    const pooled = await Promise.all(inputs.map(({ pcm, rate }) => encode(pcm, rate, pool)));
    expect(pool.loads()).toEqual([0, 0]); // every stream was released
    for (const [i, { pcm, rate }] of inputs.entries()) {
      const local = await encode(pcm, rate);
      expect(pooled[i]!.equals(local), `stream ${i}`).toBe(true);
      const info = parseMp3(pooled[i]!);
      expect(info.skippedBytes).toBe(0);
      expect(info.sampleRate).toBe(rate);
    }
  });

  it('spreads streams over the workers and keeps each stream on one worker', () => {
    const a = pool.openSession(22050, 48);
    const b = pool.openSession(22050, 48);
    expect(pool.loads()).toEqual([1, 1]);
    a.close();
    b.close();
    expect(pool.loads()).toEqual([0, 0]);
  });

  it("does not detach or change the caller's PCM even though blocks are transferred", async () => {
    const pcm = speechLikePcm(2, 22050, 9);
    const copy = pcm.slice();
    const writer = createMp3Writer({ sampleRate: 22050, pool, sink: async () => undefined });
    await writer.write(pcm);
    await writer.finish();
    expect(pcm.length).toBe(copy.length);
    expect(Buffer.from(pcm.buffer).equals(Buffer.from(copy.buffer))).toBe(true);
  });

  it('an aborted stream frees its slot and the worker keeps serving others', async () => {
    const writer = createMp3Writer({ sampleRate: 24000, pool, sink: async () => undefined });
    await writer.write(speechLikePcm(2, 24000));
    await writer.abort();
    expect(pool.loads()).toEqual([0, 0]);
    const pcm = speechLikePcm(1.5, 24000, 4);
    expect((await encode(pcm, 24000, pool)).equals(await encode(pcm, 24000))).toBe(true);
  });

  it('size 0 encodes in-process with identical output; a closed pool refuses new streams', async () => {
    const inline = new EncoderPool(0);
    const pcm = speechLikePcm(2, 22050, 11);
    expect((await encode(pcm, 22050, inline)).equals(await encode(pcm, 22050, pool))).toBe(true);
    await inline.close();
    const temp = new EncoderPool(1);
    await temp.close();
    expect(() => temp.openSession(22050, 48)).toThrow(/closed/);
  });

  it('streams still open when a pool is closed fail instead of hanging, leaving no file', async () => {
    const env = await tempStorage();
    try {
      const temp = new EncoderPool(1);
      const writer = createMp3Writer({
        sampleRate: 22050,
        pool: temp,
        sink: await env.storage.createWriter('b/ch.mp3'),
      });
      await writer.write(speechLikePcm(1, 22050));
      await temp.close();
      await expect(
        (async () => {
          await writer.write(speechLikePcm(2, 22050));
          await writer.finish();
        })(),
      ).rejects.toThrow(/worker|finished/);
      expect(await listFiles(env.root)).toEqual([]);
    } finally {
      await env.cleanup();
    }
  });
});
