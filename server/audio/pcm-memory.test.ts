import { EncoderPool } from './encoder-pool';
import { createMp3Writer } from './mp3';
import { parseMp3 } from './mp3-frames';
import { GrowingPcm, PcmBlocks, releasePcm } from './pcm-memory';
import { speechLikePcm } from '../testing/synthetic-pcm';

const bytesOf = (pcm: Int16Array) => new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);

/** Speech collected the way the eSpeak-NG host collects it: pipe chunks of odd sizes, a sample split across two. */
function collected(pcm: Int16Array, blocks = new PcmBlocks(), chunkBytes = 4_099): Int16Array {
  const growing = new GrowingPcm(blocks);
  const bytes = bytesOf(pcm);
  for (let at = 0; at < bytes.length; at += chunkBytes) growing.append(bytes.subarray(at, at + chunkBytes));
  return growing.take();
}

describe('GrowingPcm', () => {
  it('collects chunks of any size into exactly the samples sent, and starts empty again', () => {
    const pcm = speechLikePcm(3, 22050);
    const growing = new GrowingPcm(new PcmBlocks());
    const bytes = bytesOf(pcm);
    for (let at = 0; at < bytes.length; at += 777) growing.append(bytes.subarray(at, at + 777));
    expect(growing.take()).toEqual(pcm);
    expect(growing.take()).toHaveLength(0);
  });

  it('keeps every sample of a piece longer than a block, and gives the block it outgrew back', () => {
    const blocks = new PcmBlocks(4_096);
    const pcm = speechLikePcm(1, 22050);
    expect(collected(pcm, blocks, 1_001)).toEqual(pcm);
    expect(blocks.available).toBe(1);
  });

  it('drops what a failed or dropped request had collected, and its block is reused', () => {
    const blocks = new PcmBlocks();
    const growing = new GrowingPcm(blocks);
    growing.append(bytesOf(speechLikePcm(1, 22050)));
    growing.clear();
    expect(blocks.available).toBe(1);
    growing.append(new Uint8Array([1, 0, 2, 0]));
    expect([...growing.take()]).toEqual([1, 2]);
    expect(blocks.available).toBe(0);
  });
});

describe('releasePcm', () => {
  it('hands a block back once, for the next piece to be collected in the same memory', () => {
    const blocks = new PcmBlocks();
    const first = collected(speechLikePcm(1, 22050, 1), blocks);
    releasePcm(first);
    releasePcm(first); // a second release must not hand the same memory to two pieces
    expect(blocks.available).toBe(1);
    const second = collected(speechLikePcm(1, 22050, 2), blocks);
    expect(second.buffer).toBe(first.buffer);
    expect(second).toEqual(speechLikePcm(1, 22050, 2));
    const third = collected(speechLikePcm(1, 22050, 3), blocks);
    expect(third.buffer).not.toBe(second.buffer);
  });

  it('keeps no more than its free blocks: one more handed back gives its memory back at once', () => {
    const blocks = new PcmBlocks(undefined, 1);
    const [a, b] = [1, 2].map((seed) => collected(speechLikePcm(1, 22050, seed), blocks));
    releasePcm(a!);
    releasePcm(b!);
    expect(blocks.available).toBe(1);
    expect(b!.buffer.byteLength).toBe(0);
  });

  it('leaves ordinary arrays alone', () => {
    const ordinary = speechLikePcm(1, 22050);
    releasePcm(ordinary);
    expect(ordinary).toEqual(speechLikePcm(1, 22050));
  });

  it('lets the free blocks go once no speech has come for a while', async () => {
    const blocks = new PcmBlocks(undefined, undefined, 50);
    const piece = collected(speechLikePcm(1, 22050), blocks);
    releasePcm(piece);
    expect(blocks.available).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(blocks.available).toBe(0);
    expect(piece.buffer.byteLength).toBe(0); // its pages went back to the system
  });
});

describe('PcmBlocks.letFreeBlocksGo', () => {
  it('gives the free blocks back at once and keeps the ones in use', () => {
    const blocks = new PcmBlocks();
    const free = collected(speechLikePcm(1, 22050), blocks);
    const inUse = collected(speechLikePcm(1, 22050), blocks);
    releasePcm(free);
    blocks.letFreeBlocksGo();
    expect(blocks.available).toBe(0);
    expect(free.buffer.byteLength).toBe(0);
    expect(inUse).toEqual(speechLikePcm(1, 22050));
  });
});

describe('the MP3 writer with handed-over speech', () => {
  const encoders: { name: string; pool: () => EncoderPool | undefined }[] = [
    { name: 'in this thread', pool: () => undefined },
    { name: 'a WebAssembly encoder thread', pool: () => new EncoderPool(1) },
  ];
  for (const { name, pool: makePool } of encoders) {
    it(`encodes every sample and hands each block back once encoded (${name})`, async () => {
      const pool = makePool();
      try {
        const chunks: Uint8Array[] = [];
        const writer = createMp3Writer({ sampleRate: 22050, sink: async (c) => void chunks.push(c.slice()), pool });
        const blocks = new PcmBlocks();
        const pieces = [0, 1, 2, 3].map((seed) => collected(speechLikePcm(2, 22050, seed + 1), blocks));
        for (const piece of pieces) await writer.write(piece, { handOver: true });
        const result = await writer.finish();
        expect(result.sampleCount).toBe(4 * 2 * 22050);
        expect(parseMp3(Buffer.concat(chunks)).samples).toBeGreaterThanOrEqual(4 * 2 * 22050);
        expect(blocks.available).toBe(4);
      } finally {
        await pool?.close();
      }
    });
  }
});
