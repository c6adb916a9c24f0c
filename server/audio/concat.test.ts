import { concatMp3, mp3DurationSeconds } from './concat';
import { parseMp3 } from './mp3-frames';
import { createMp3Writer } from './mp3';
import { speechLikePcm } from '../testing/synthetic-pcm';
import { readAll, tempStorage } from '../testing/audio';

let env: Awaited<ReturnType<typeof tempStorage>>;
beforeEach(async () => {
  env = await tempStorage();
});
afterEach(async () => {
  await env.cleanup();
});

async function chapter(key: string, seconds: number, rate = 22050, seed = 1): Promise<number> {
  const writer = createMp3Writer({ sampleRate: rate, sink: await env.storage.createWriter(key) });
  await writer.write(speechLikePcm(seconds, rate, seed));
  return (await writer.finish()).bytes;
}

function id3v2(bodySize: number): Uint8Array {
  const tag = new Uint8Array(10 + bodySize);
  tag.set([0x49, 0x44, 0x33, 4, 0, 0]);
  tag[6] = (bodySize >> 21) & 0x7f;
  tag[7] = (bodySize >> 14) & 0x7f;
  tag[8] = (bodySize >> 7) & 0x7f;
  tag[9] = bodySize & 0x7f;
  tag.fill(0xff, 10); // body full of sync-like bytes must not be mistaken for audio
  return tag;
}

describe('concatMp3', () => {
  it('joins chapters into one playable file whose duration is the sum of the chapters', async () => {
    const sizes = [await chapter('b/ch-1.mp3', 3.2, 22050, 1), await chapter('b/ch-2.mp3', 5, 22050, 2)];
    // A third chapter carrying ID3v2 and ID3v1 tags (e.g. touched by a tagging tool).
    const plain = await readAll(env.storage.read('b/ch-2.mp3'));
    const id3v1 = new Uint8Array(128);
    id3v1.set([0x54, 0x41, 0x47]); // "TAG"
    await env.storage.write('b/ch-3.mp3', Buffer.concat([id3v2(300), plain, id3v1]));

    const durations = await Promise.all(
      ['b/ch-1.mp3', 'b/ch-2.mp3', 'b/ch-3.mp3'].map((k) => mp3DurationSeconds(env.storage.read(k))),
    );
    const total = await concatMp3(env.storage, ['b/ch-1.mp3', 'b/ch-2.mp3', 'b/ch-3.mp3'], 'b/book.mp3');
    expect(total).toBe(sizes[0]! + sizes[1]! * 2); // tags stripped, every audio byte kept
    const book = await readAll(env.storage.read('b/book.mp3'));
    expect(book.length).toBe(total);
    const info = parseMp3(book);
    expect(info.skippedBytes).toBe(0);
    expect(info.durationSeconds).toBeCloseTo(durations[0]! + durations[1]! + durations[2]!, 9);
    expect(await mp3DurationSeconds(book)).toBeCloseTo(info.durationSeconds, 9);
    // Chapter 2's bytes appear verbatim right after chapter 1.
    const ch1 = await readAll(env.storage.read('b/ch-1.mp3'));
    expect(book.subarray(ch1.length, ch1.length + plain.length).equals(plain)).toBe(true);
  });

  it('leaves no target file when a source is missing', async () => {
    await chapter('b/ch-1.mp3', 1);
    await expect(concatMp3(env.storage, ['b/ch-1.mp3', 'b/ch-404.mp3'], 'b/book.mp3')).rejects.toThrow(
      /does not exist/,
    );
    expect(await env.storage.stat('b/book.mp3')).toBeNull();
  });

  it('refuses to mix sample rates (the result would not play) and leaves the old book intact', async () => {
    await env.storage.write('b/book.mp3', new Uint8Array([1, 2, 3]));
    await chapter('b/ch-1.mp3', 1, 22050);
    await chapter('b/ch-2.mp3', 1, 24000);
    await expect(concatMp3(env.storage, ['b/ch-1.mp3', 'b/ch-2.mp3'], 'b/book.mp3')).rejects.toThrow(/24000 Hz/);
    expect(await env.storage.stat('b/book.mp3')).toEqual({ size: 3 });
  });

  it('refuses a source without audio', async () => {
    await env.storage.write('b/notes.mp3', new TextEncoder().encode('not audio at all'));
    await expect(concatMp3(env.storage, ['b/notes.mp3'], 'b/book.mp3')).rejects.toThrow(/no MP3 frames/);
    expect(await env.storage.stat('b/book.mp3')).toBeNull();
  });
});
