import { describe, expect, it } from 'vitest';
import { alignCaptions } from './captions';

const token = (word: string, start: number, end = start + 0.2) => ({ word, start, end });
const spans = (text: string, words: ReturnType<typeof alignCaptions>) =>
  words.map((w) => [text.slice(w.charStart, w.charEnd), w.start, w.end]);

describe("word timings from a server's captions", () => {
  it('times each word of the text, skipping punctuation tokens', () => {
    const text = 'Hello, world. Bye!';
    const words = alignCaptions(
      text,
      [
        token('Hello', 0),
        token(',', 0.2, 0.2),
        token('world', 0.3),
        token('.', 0.5, 0.5),
        token('Bye', 0.7),
        token('!', 0.9, 0.9),
      ],
      1,
    );
    expect(spans(text, words)).toEqual([
      ['Hello', 0, 0.2],
      ['world', 0.3, 0.5],
      ['Bye', 0.7, 0.9],
    ]);
  });

  it('gives a number read out in several words all of their time', () => {
    const text = 'In 1990 we met.';
    const words = alignCaptions(
      text,
      [token('In', 0), token('nineteen', 0.25), token('ninety', 0.5), token('we', 0.75), token('met', 1)],
      1.3,
    );
    expect(spans(text, words)).toEqual([
      ['In', 0, 0.2],
      ['1990', 0.25, 0.7],
      ['we', 0.75, 0.95],
      ['met', 1, 1.2],
    ]);
  });

  it('joins a word the server spoke in pieces, and matches case-insensitively', () => {
    const text = "DON'T stop well-known";
    const words = alignCaptions(
      text,
      [
        token('do', 0, 0.1),
        token("n't", 0.1, 0.2),
        token('stop', 0.3),
        token('well', 0.6),
        token('-', 0.8, 0.8),
        token('known', 0.8),
      ],
      1,
    );
    expect(spans(text, words)).toEqual([
      ["DON'T", 0, 0.2],
      ['stop', 0.3, 0.5],
      ['well-known', 0.6, 1],
    ]);
  });

  it('spreads words no token reached between their neighbours, and never runs backwards', () => {
    const text = 'one two three four';
    const words = alignCaptions(text, [token('one', 0), token('four', 0.9, 1)], 1.2);
    expect(spans(text, words)).toEqual([
      ['one', 0, 0.2],
      ['two', 0.2, 0.55],
      ['three', 0.55, 0.9],
      ['four', 0.9, 1],
    ]);
    const trailing = alignCaptions('alpha beta', [token('alpha', 0)], 1);
    expect(spans('alpha beta', trailing)).toEqual([
      ['alpha', 0, 0.2],
      ['beta', 0.2, 1],
    ]);
  });
});
