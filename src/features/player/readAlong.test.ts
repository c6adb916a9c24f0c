import { describe, expect, it } from 'vitest';
import { paragraphsOf, partsOf, sentenceAt, spokenWord } from './readAlong';

const timed = [
  { start: 0, end: 2.5 },
  { start: 2.5, end: 4 },
  { start: 4, end: 9.75 },
  { start: 9.75, end: 12 },
];

describe('sentenceAt', () => {
  it('finds the sentence being spoken, at its first moment and inside it', () => {
    expect(sentenceAt(timed, 0)).toBe(0);
    expect(sentenceAt(timed, 2.49)).toBe(0);
    expect(sentenceAt(timed, 2.5)).toBe(1);
    expect(sentenceAt(timed, 5)).toBe(2);
    expect(sentenceAt(timed, 9.75)).toBe(3);
  });

  it('keeps the first before the text starts and the last past its end', () => {
    expect(sentenceAt(timed, -3)).toBe(0);
    expect(sentenceAt(timed, 400)).toBe(3);
  });

  it('answers -1 for a chapter without sentences, and scales to a long chapter', () => {
    expect(sentenceAt([], 3)).toBe(-1);
    const long = Array.from({ length: 5000 }, (_, i) => ({ start: i * 2, end: i * 2 + 2 }));
    expect(sentenceAt(long, 7777)).toBe(3888);
  });
});

describe('paragraphsOf', () => {
  it('groups sentences into the paragraphs of the text', () => {
    const sentences = [
      { id: 'a', paragraph_start: true },
      { id: 'b', paragraph_start: false },
      { id: 'c', paragraph_start: true },
      { id: 'd', paragraph_start: false },
      { id: 'e', paragraph_start: false },
    ];
    expect(paragraphsOf(sentences).map((p) => p.map((s) => s.id).join(''))).toEqual(['ab', 'cde']);
    // A text that does not start with a paragraph mark still starts a paragraph.
    expect(paragraphsOf([{ id: 'x', paragraph_start: false }]).length).toBe(1);
  });
});

describe('spokenWord', () => {
  const sentence = {
    text: 'The fox ran.',
    char_start: 100,
    words: [
      { start: 4, end: 4.2, char_start: 100, char_end: 103 },
      { start: 4.25, end: 4.45, char_start: 104, char_end: 107 },
      { start: 4.5, end: 4.7, char_start: 108, char_end: 111 },
    ],
  };

  it('finds the word being spoken inside its sentence', () => {
    expect(spokenWord(sentence, 4)).toEqual({ from: 0, to: 3 });
    expect(spokenWord(sentence, 4.3)).toEqual({ from: 4, to: 7 });
    expect(spokenWord(sentence, 9)).toEqual({ from: 8, to: 11 });
  });

  it('marks no word before the first, nor in a sentence without word timings', () => {
    expect(spokenWord(sentence, 3.5)).toBeNull();
    expect(spokenWord({ text: 'The fox ran.', char_start: 0 }, 1)).toBeNull();
  });
});

describe('partsOf', () => {
  const text = '"Who is there?" Marta asked.';

  it('is one part without a cast', () => {
    expect(partsOf({ text, char_start: 40 })).toEqual([{ from: 0, to: text.length, speaker: null }]);
  });

  it("cuts a cast sentence into its speakers' parts, by offsets in its own text", () => {
    expect(
      partsOf({
        text,
        char_start: 40,
        spans: [
          { char_start: 40, char_end: 55, speaker: 'marta', quote_start: 40, uncertain: true },
          { char_start: 55, char_end: 68, speaker: 'narrator' },
        ],
      }),
    ).toEqual([
      { from: 0, to: 15, speaker: 'marta', quoteStart: 40, uncertain: true },
      { from: 15, to: text.length, speaker: 'narrator' },
    ]);
  });

  it('fills what the spans leave uncovered with narration and clips spans to the sentence', () => {
    expect(
      partsOf({
        text,
        char_start: 40,
        spans: [{ char_start: 30, char_end: 55, speaker: 'marta', quote_start: 30 }],
      }),
    ).toEqual([
      { from: 0, to: 15, speaker: 'marta', quoteStart: 30 },
      { from: 15, to: text.length, speaker: 'narrator' },
    ]);
  });
});
