import { describe, expect, it } from 'vitest';
import { chaptersPhrase, selectedWord } from './BookPronunciations';

describe("the book page's pronunciation block", () => {
  it('takes the selected word without surrounding punctuation or space', () => {
    expect(selectedWord(' “Hermione,” ')).toBe('Hermione');
    expect(selectedWord('New\n  York.')).toBe('New York');
    expect(selectedWord('...')).toBe('');
    expect(selectedWord('x'.repeat(300))).toHaveLength(100);
  });

  it('names the chapters it re-converts', () => {
    expect(chaptersPhrase([2])).toBe('chapter 2');
    expect(chaptersPhrase([2, 5])).toBe('chapters 2 and 5');
    expect(chaptersPhrase([1, 3, 4])).toBe('chapters 1, 3 and 4');
  });
});
