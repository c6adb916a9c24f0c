import { parseMp3 } from './mp3-frames';
import { createMp3Writer } from './mp3';
import { speechLikePcm } from '../testing/synthetic-pcm';
import { listFiles, readAll, tempStorage, writeInPieces } from '../testing/audio';

let env: Awaited<ReturnType<typeof tempStorage>>;
beforeEach(async () => {
  env = await tempStorage();
});
afterEach(async () => {
  await env.cleanup();
});

async function encodeToBytes(pcm: Int16Array, sampleRate: number, pieceSeed = 7): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const writer = createMp3Writer({ sampleRate, sink: async (c) => void chunks.push(c.slice()) });
  await writeInPieces(pcm, (s) => writer.write(s), pieceSeed);
  await writer.finish();
  return Buffer.concat(chunks);
}

describe('createMp3Writer', () => {
  it.each([
    [22050, 48],
    [24000, 64],
  ])(
    'writes a playable %i Hz MP3 (%i kbps default) whose frames add up to the exact PCM duration',
    async (rate, kbps) => {
      const pcm = speechLikePcm(20.3, rate, 3);
      const sink = await env.storage.createWriter('books/1/ch-001.mp3');
      const writer = createMp3Writer({ sampleRate: rate, sink });
      expect(writer.kbps).toBe(kbps);
      await writeInPieces(pcm, (s) => writer.write(s));
      const result = await writer.finish();

      expect(result.sampleCount).toBe(pcm.length);
      expect(result.durationSeconds).toBe(pcm.length / rate);
      const file = await readAll(env.storage.read('books/1/ch-001.mp3'));
      expect(result.bytes).toBe(file.length);
      // Roughly the constant bitrate: bytes ≈ kbps × duration.
      expect(file.length).toBeGreaterThan(((kbps * 1000) / 8) * result.durationSeconds * 0.95);
      expect(file.length).toBeLessThan(((kbps * 1000) / 8) * result.durationSeconds * 1.05 + 2000);

      const info = parseMp3(file);
      expect(info.skippedBytes).toBe(0); // every byte belongs to a valid frame
      expect(info.audioBytes).toBe(file.length);
      expect(info.sampleRate).toBe(rate);
      const frame = 576 / rate; // MPEG-2 Layer III
      // LAME primes 1105 samples of encoder/decoder delay and pads the tail to a whole frame, so the
      // frame sum is 2–3 frames (≤ 78 ms) longer than the PCM; after removing the standard delay it
      // is within one frame (+ the 529-sample decoder part of the delay).
      expect(info.durationSeconds).toBeGreaterThanOrEqual(result.durationSeconds);
      expect(info.durationSeconds - result.durationSeconds).toBeLessThanOrEqual(3 * frame + 1e-9);
      expect(Math.abs(info.durationSeconds - 1105 / rate - result.durationSeconds)).toBeLessThanOrEqual(
        frame + 529 / rate,
      );
    },
  );

  it('produces the same bytes however the PCM is split into writes', async () => {
    const pcm = speechLikePcm(8, 22050, 5);
    const a = await encodeToBytes(pcm, 22050, 1);
    const b = await encodeToBytes(pcm, 22050, 99);
    expect(a.length).toBeGreaterThan(40_000);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('keeps sample order when writes are not awaited one by one', async () => {
    const pcm = speechLikePcm(6, 22050, 8);
    const expected = await encodeToBytes(pcm, 22050);
    const chunks: Uint8Array[] = [];
    const writer = createMp3Writer({ sampleRate: 22050, sink: async (c) => void chunks.push(c) });
    const reused = new Int16Array(7000);
    const pending: Promise<void>[] = [];
    for (let at = 0; at < pcm.length; at += reused.length) {
      const piece = pcm.subarray(at, at + reused.length);
      reused.set(piece);
      pending.push(writer.write(reused.subarray(0, piece.length))); // the same buffer, reused at once
    }
    await Promise.all(pending);
    const result = await writer.finish();
    expect(result.sampleCount).toBe(pcm.length);
    expect(Buffer.concat(chunks).equals(Buffer.from(expected))).toBe(true);
  });

  it("leaves the caller's sample arrays untouched", async () => {
    const pcm = speechLikePcm(3, 24000, 2);
    const copy = pcm.slice();
    const writer = createMp3Writer({ sampleRate: 24000, sink: async () => undefined });
    await writer.write(pcm);
    await writer.finish();
    expect(pcm.length).toBe(copy.length);
    expect(Buffer.from(pcm.buffer).equals(Buffer.from(copy.buffer))).toBe(true);
  });

  it('handles very short and empty chapters (still a playable file with the exact duration)', async () => {
    for (const n of [0, 1, 575, 1153]) {
      const bytes: Uint8Array[] = [];
      const writer = createMp3Writer({ sampleRate: 22050, sink: async (c) => void bytes.push(c) });
      if (n > 0) await writer.write(new Int16Array(n).fill(1000));
      const result = await writer.finish();
      expect(result.sampleCount).toBe(n);
      expect(result.durationSeconds).toBe(n / 22050);
      const info = parseMp3(Buffer.concat(bytes));
      expect(info.frames).toBeGreaterThanOrEqual(2);
      expect(info.skippedBytes).toBe(0);
    }
  });

  it('shows nothing under the key before finish, and nothing after abort', async () => {
    const sink = await env.storage.createWriter('books/1/ch-002.mp3');
    const writer = createMp3Writer({ sampleRate: 22050, sink });
    await writer.write(speechLikePcm(5, 22050));
    expect(await env.storage.stat('books/1/ch-002.mp3')).toBeNull();
    await writer.abort();
    expect(await env.storage.stat('books/1/ch-002.mp3')).toBeNull();
    expect(await listFiles(env.root)).toEqual([]);
    await expect(writer.write(new Int16Array(10))).rejects.toThrow(/aborted/);
  });

  it('applies back-pressure: write waits while the sink is slow', async () => {
    const release: (() => void)[] = [];
    let received = 0;
    const writer = createMp3Writer({
      sampleRate: 22050,
      maxInFlight: 2,
      blockFrames: 1,
      sink: (c) =>
        new Promise<void>((resolve) => {
          received += c.length;
          release.push(resolve);
        }),
    });
    // 10 blocks of 1152 samples: with at most 2 in flight the write cannot complete while the sink stalls.
    let done = false;
    const writing = writer.write(new Int16Array(1152 * 10).fill(500)).then(() => {
      done = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false);
    expect(release.length).toBe(1); // sink is called one chunk at a time, in order
    while (!done) {
      release.shift()?.();
      await new Promise((r) => setTimeout(r, 1));
    }
    await writing;
    const finishing = writer.finish();
    const pump = setInterval(() => release.shift()?.(), 1);
    const result = await finishing;
    clearInterval(pump);
    expect(result.bytes).toBe(received);
    expect(result.sampleCount).toBe(11520);
  });

  it('a failing sink fails the writer and leaves no file', async () => {
    const storageWriter = await env.storage.createWriter('books/9/ch.mp3');
    let calls = 0;
    const failing = {
      key: storageWriter.key,
      write: async (chunk: Uint8Array) => {
        calls += 1;
        if (calls === 2) throw new Error('disk full');
        await storageWriter.write(chunk);
      },
      commit: () => storageWriter.commit(),
      abort: () => storageWriter.abort(),
    };
    const writer = createMp3Writer({ sampleRate: 22050, sink: failing, blockFrames: 1 });
    await expect(
      (async () => {
        await writer.write(speechLikePcm(2, 22050));
        await writer.finish();
      })(),
    ).rejects.toThrow('disk full');
    expect(await env.storage.stat('books/9/ch.mp3')).toBeNull();
    expect(await listFiles(env.root)).toEqual([]); // the temp file is gone too
    await expect(writer.finish()).rejects.toThrow();
  });

  it('rejects rates and bitrates LAME cannot encode without resampling', () => {
    expect(() => createMp3Writer({ sampleRate: 23000, sink: async () => undefined })).toThrow(/sample rate/);
    expect(() => createMp3Writer({ sampleRate: 22050, kbps: 192, sink: async () => undefined })).toThrow(/bitrate/);
  });
});
