import { describe, expect, it } from 'vitest';
import { sentencesOf } from './transcript';

const TEXT = '"Run," said Tom. Alice looked up.\n"Where?"';
const ENTRIES = [
  { start: 0, end: 1, char_start: 0, char_end: 16 },
  { start: 1, end: 2, char_start: 17, char_end: 33 },
  { start: 2, end: 3, char_start: 34, char_end: 42 },
];

describe('sentencesOf with a cast', () => {
  it('cuts every sentence into who speaks each part, narration between the quotes', () => {
    const sentences = sentencesOf(TEXT, ENTRIES, [
      { char_start: 0, char_end: 6, speaker: 'tom' },
      { char_start: 34, char_end: 42, speaker: 'alice' },
    ]);
    expect(sentences.map((s) => s.spans)).toEqual([
      [
        { char_start: 0, char_end: 6, speaker: 'tom', quote_start: 0 },
        { char_start: 6, char_end: 16, speaker: 'narrator' },
      ],
      [{ char_start: 17, char_end: 33, speaker: 'narrator' }],
      [{ char_start: 34, char_end: 42, speaker: 'alice', quote_start: 34 }],
    ]);
  });

  it('marks a quote attributed with less than 0.6 confidence as uncertain, and a sure one not', () => {
    const sentences = sentencesOf(TEXT, ENTRIES, [
      { char_start: 0, char_end: 6, speaker: 'tom', confidence: 0.95 },
      { char_start: 34, char_end: 42, speaker: 'alice', confidence: 0.4 },
    ]);
    expect(sentences[0]!.spans![0]).not.toHaveProperty('uncertain');
    expect(sentences[2]!.spans).toEqual([
      { char_start: 34, char_end: 42, speaker: 'alice', quote_start: 34, uncertain: true },
    ]);
  });

  it('keeps a quote the narrator speaks apart from the narration beside it', () => {
    const sentences = sentencesOf(TEXT, ENTRIES, [
      { char_start: 0, char_end: 6, speaker: 'narrator', confidence: 0.1 },
    ]);
    expect(sentences[0]!.spans).toEqual([
      { char_start: 0, char_end: 6, speaker: 'narrator', quote_start: 0, uncertain: true },
      { char_start: 6, char_end: 16, speaker: 'narrator' },
    ]);
  });

  it('names a quote running over two sentences by where it starts, in both', () => {
    const text = '"Wait. Listen," she said.';
    const sentences = sentencesOf(
      text,
      [
        { start: 0, end: 1, char_start: 0, char_end: 6 },
        { start: 1, end: 2, char_start: 7, char_end: 25 },
      ],
      [{ char_start: 0, char_end: 15, speaker: 'ann' }],
    );
    expect(sentences.map((s) => s.spans)).toEqual([
      [{ char_start: 0, char_end: 6, speaker: 'ann', quote_start: 0 }],
      [
        { char_start: 7, char_end: 15, speaker: 'ann', quote_start: 0 },
        { char_start: 15, char_end: 25, speaker: 'narrator' },
      ],
    ]);
  });

  it('has no spans without a cast', () => {
    expect(sentencesOf(TEXT, ENTRIES).every((s) => s.spans === undefined)).toBe(true);
  });
});
