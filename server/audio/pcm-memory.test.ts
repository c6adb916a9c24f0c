import { EncoderPool } from './encoder-pool';
import { createMp3Writer } from './mp3';
import { parseMp3 } from './mp3-frames';
import { GrowingPcm, releasePcm } from './pcm-memory';
import { speechLikePcm } from '../testing/synthetic-pcm';

const bytesOf = (pcm: Int16Array) => new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);

/** Speech collected the way the eSpeak-NG host collects it: pipe chunks of odd sizes, a sample split across two. */
function collected(pcm: Int16Array, chunkBytes = 4_099): Int16Array {
  const growing = new GrowingPcm();
  const bytes = bytesOf(pcm);
  for (let at = 0; at < bytes.length; at += chunkBytes) growing.append(bytes.subarray(at, at + chunkBytes));
  return growing.take();
}

describe('GrowingPcm', () => {
  it('collects chunks of any size into exactly the samples sent, and starts empty again', () => {
    const pcm = speechLikePcm(3, 22050);
    const growing = new GrowingPcm();
    const bytes = bytesOf(pcm);
    for (let at = 0; at < bytes.length; at += 777) growing.append(bytes.subarray(at, at + 777));
    expect(growing.take()).toEqual(pcm);
    expect(growing.take()).toHaveLength(0);
  });

  it('keeps every sample of a piece longer than its reservation, moved to a larger one', () => {
    const pcm = speechLikePcm(1, 22050);
    const growing = new GrowingPcm(4_096);
    const bytes = bytesOf(pcm);
    for (let at = 0; at < bytes.length; at += 1_001) growing.append(bytes.subarray(at, at + 1_001));
    expect(growing.take()).toEqual(pcm);
  });

  it('drops what a failed or dropped request had collected', () => {
    const growing = new GrowingPcm();
    growing.append(bytesOf(speechLikePcm(1, 22050)));
    growing.clear();
    growing.append(new Uint8Array([1, 0, 2, 0]));
    expect([...growing.take()]).toEqual([1, 2]);
  });
});

describe('releasePcm', () => {
  it("gives a collected block's memory back, and leaves ordinary arrays alone", () => {
    const block = collected(speechLikePcm(1, 22050));
    releasePcm(block);
    expect(block.buffer.byteLength).toBe(0);
    const ordinary = speechLikePcm(1, 22050);
    releasePcm(ordinary);
    expect(ordinary).toHaveLength(22050);
  });
});

describe('the MP3 writer with handed-over speech', () => {
  const encoders: { name: string; pool: () => EncoderPool | undefined }[] = [
    { name: 'in this thread', pool: () => undefined },
    { name: 'a WebAssembly encoder thread', pool: () => new EncoderPool(1, { encoder: 'wasm' }) },
    // CI installs lame (the encoder tests need it too).
    { name: 'native lame', pool: () => new EncoderPool(1, { encoder: 'native' }) },
  ];
  for (const { name, pool: makePool } of encoders) {
    it(`encodes every sample and gives each block's memory back once encoded (${name})`, async () => {
      const pool = makePool();
      try {
        const chunks: Uint8Array[] = [];
        const writer = createMp3Writer({ sampleRate: 22050, sink: async (c) => void chunks.push(c.slice()), pool });
        const blocks = [0, 1, 2, 3].map((seed) => collected(speechLikePcm(2, 22050, seed + 1)));
        for (const block of blocks) await writer.write(block, { handOver: true });
        const result = await writer.finish();
        expect(result.sampleCount).toBe(4 * 2 * 22050);
        expect(parseMp3(Buffer.concat(chunks)).samples).toBeGreaterThanOrEqual(4 * 2 * 22050);
        for (const block of blocks) expect(block.buffer.byteLength).toBe(0);
      } finally {
        await pool?.close();
      }
    });
  }
});
