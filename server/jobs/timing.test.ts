import { describe, expect, it } from 'vitest';
import { shiftEntry, timingMapJson, type TimingEntry } from './timing';

const chapter = (n: number, sentences: number): TimingEntry[] =>
  Array.from({ length: sentences }, (_, i) => ({
    start: i * 2.5,
    end: i * 2.5 + 2.4,
    char_start: i * 40,
    char_end: i * 40 + 39,
    ...(n === 2 && { words: [{ start: i * 2.5, end: i * 2.5 + 0.3, char_start: i * 40, char_end: i * 40 + 3 }] }),
  }));

async function joined(parts: { entries: TimingEntry[]; timeOffset: number; charOffset: number }[]) {
  async function* each() {
    yield* parts;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of timingMapJson(each())) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

describe("a book's timing map", () => {
  it("joins its chapters' maps, each shifted by the audio and the text before it", async () => {
    const parts = [
      { entries: chapter(1, 3), timeOffset: 0, charOffset: 0 },
      { entries: [], timeOffset: 7.5, charOffset: 120 }, // a chapter without a map adds nothing
      { entries: chapter(2, 2), timeOffset: 7.5, charOffset: 125 },
      { entries: chapter(3, 1), timeOffset: 12.6, charOffset: 210 },
    ];
    const text = await joined(parts);
    const map = JSON.parse(text) as TimingEntry[];
    expect(map).toHaveLength(6);
    expect(map[3]).toEqual({
      start: 7.5,
      end: 9.9,
      char_start: 125,
      char_end: 164,
      words: [{ start: 7.5, end: 7.8, char_start: 125, char_end: 128 }],
    });
    expect(map[5]).toMatchObject({ start: 12.6, char_start: 210 });
    // The same bytes as the whole array written at once.
    expect(text).toBe(
      JSON.stringify(parts.flatMap((p) => p.entries.map((e) => shiftEntry(e, p.timeOffset, p.charOffset)))),
    );
  });

  it('is an empty list for a book whose chapters have no maps', async () => {
    expect(await joined([{ entries: [], timeOffset: 0, charOffset: 0 }])).toBe('[]');
  });
});
