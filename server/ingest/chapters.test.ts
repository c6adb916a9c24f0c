import { describe, expect, it } from 'vitest';
import { planBook, type PlannedChapter } from './chapters';

const sentence = (i: number) =>
  `The traveller walked on through the valley and thought about the road ahead number ${i}.`;
const prose = (words: number, seed = 0) => {
  const out: string[] = [];
  let count = 0;
  let i = seed;
  while (count < words) {
    const paragraph = Array.from({ length: 5 }, () => sentence(i++)).join(' ');
    out.push(paragraph);
    count += paragraph.split(/\s+/).length;
  }
  return out.join('\n\n');
};

function chaptersOf(text: string): PlannedChapter[] {
  const plan = planBook('Book', text);
  if (plan.kind !== 'book') throw new Error('expected a book');
  for (const c of plan.chapters) expect(text.slice(c.start, c.end).trim()).toBe(text.slice(c.start, c.end));
  plan.chapters.forEach((c, i) => expect(c.order).toBe(i + 1));
  return plan.chapters;
}
const titles = (text: string) => chaptersOf(text).map((c) => c.title);

describe('planBook', () => {
  it('splits a story with "Chapter 1/2/3" headings, each chapter starting at its heading', () => {
    const text = `Chapter 1\n\n${prose(80)}\n\nChapter 2\n\n${prose(80, 100)}\n\nChapter 3\n\n${prose(80, 200)}`;
    const chapters = chaptersOf(text);
    expect(chapters.map((c) => c.title)).toEqual(['Chapter 1', 'Chapter 2', 'Chapter 3']);
    expect(text.slice(chapters[1]!.start, chapters[1]!.end)).toMatch(/^Chapter 2\n\nThe traveller/);
    expect(text.slice(chapters[1]!.start, chapters[1]!.end)).not.toContain('Chapter 3');
    expect(chapters[2]!.end).toBe(text.length);
  });

  it('reads roman numerals and titles on the same or the next line', () => {
    expect(titles(`CHAPTER I.\nThe Beginning\n\n${prose(40)}\n\nCHAPTER II.\nThe Middle\n\n${prose(40)}`)).toEqual([
      'Chapter I: The Beginning',
      'Chapter II: The Middle',
    ]);
    expect(
      titles(
        `CHAPTER I. THE OLD HOUSE\n\n${prose(40)}\n\nCHAPTER II. A Letter Arrives\n\n${prose(40)}\n\nChapter III\n\n${prose(40)}`,
      ),
    ).toEqual(['Chapter I: The Old House', 'Chapter II: A Letter Arrives', 'Chapter III']);
  });

  it('keeps a Prologue and an Epilogue around the chapters, and front matter as an Opening', () => {
    const text = `The Long Road, a novel by Someone Else written long ago\n\nPrologue\n\n${prose(40)}\n\nChapter 1: Departure\n\n${prose(40)}\n\nChapter 2: Arrival\n\n${prose(40)}\n\nEpilogue\n\n${prose(30)}`;
    expect(titles(text)).toEqual(['Opening', 'Prologue', 'Chapter 1: Departure', 'Chapter 2: Arrival', 'Epilogue']);
  });

  it('recognises "Part One" and "Chapter Three" headings', () => {
    expect(titles(`Part One\n\n${prose(40)}\n\nPart Two — The Return\n\n${prose(40)}`)).toEqual([
      'Part One',
      'Part Two: The Return',
    ]);
    expect(
      titles(`Chapter One\n\n${prose(40)}\n\nChapter Two\n\n${prose(40)}\n\nChapter Three\n\n${prose(40)}`),
    ).toEqual(['Chapter One', 'Chapter Two', 'Chapter Three']);
  });

  it('merges a heading with almost no text into the next chapter', () => {
    const text = `Part One\n\nChapter 1\n\n${prose(40)}\n\nChapter 2\n\n${prose(40)}`;
    const chapters = chaptersOf(text);
    expect(chapters.map((c) => c.title)).toEqual(['Chapter 1', 'Chapter 2']);
    expect(text.slice(chapters[0]!.start, chapters[0]!.end)).toMatch(/^Part One\n\nChapter 1\n\n/);
  });

  it('treats a short text without headings as a single text', () => {
    expect(planBook('Note', prose(500))).toEqual({ kind: 'text' });
    expect(planBook('Empty', '')).toEqual({ kind: 'text' });
  });

  it('cuts a 12,000-word text without markers into ~5,000-word chapters on 3+ blank lines', () => {
    const sections = [prose(3000), prose(3000, 1000), prose(3000, 2000), prose(3000, 3000)];
    const text = sections.join('\n\n\n\n');
    const chapters = chaptersOf(text);
    expect(chapters.map((c) => c.title)).toEqual(['Chapter 1', 'Chapter 2']);
    expect(text.slice(chapters[1]!.start, chapters[1]!.end).startsWith(sections[2]!.slice(0, 50))).toBe(true);
    const covered = chapters.map((c) => text.slice(c.start, c.end)).join('');
    expect(covered.replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
  });

  it('cuts a 12,000-word text with no blank-line breaks at all at paragraph boundaries', () => {
    const text = prose(12000);
    const chapters = chaptersOf(text);
    expect(chapters.length).toBe(2);
    for (const c of chapters) expect(text.slice(c.start, c.end)).toMatch(/^The traveller/);
  });

  it('splits a huge chapter into "Title - Part N" pieces of about 5,000 words', () => {
    const text = `Chapter 1\n\n${prose(300)}\n\nChapter 2: The Long One\n\n${prose(20000)}`;
    const chapters = chaptersOf(text);
    expect(chapters.map((c) => c.title)).toEqual([
      'Chapter 1',
      'Chapter 2: The Long One - Part 1',
      'Chapter 2: The Long One - Part 2',
      'Chapter 2: The Long One - Part 3',
      'Chapter 2: The Long One - Part 4',
    ]);
    for (const c of chapters.slice(1)) {
      const words = text.slice(c.start, c.end).split(/\s+/).length;
      expect(words).toBeGreaterThan(4000);
      expect(words).toBeLessThan(6500);
      expect(text.slice(c.start - 2, c.start)).toBe('\n\n'); // cut at paragraph boundaries
    }
  });

  it('does not take "Chapter 3 of the report says" in running prose for a heading', () => {
    const text = `${prose(60)}\n\nChapter 3 of the report says that the bridge was unsafe.\n\n${prose(60)}\n\nChapter 4 of the same report was never published.\n\n${prose(60)}`;
    expect(planBook('Report', text)).toEqual({ kind: 'text' });
  });

  it('takes lone numbers as headings only when they run in sequence 1, 2, 3 with real sections', () => {
    const list = `Shopping list for the week ahead of the long trip\n\n1\n\nMilk\n\n2\n\nBread\n\n3\n\nEggs\n\n${prose(200)}`;
    expect(planBook('List', list)).toEqual({ kind: 'text' });
    const outOfOrder = `${prose(60)}\n\n7\n\n${prose(60)}\n\n3\n\n${prose(60)}`;
    expect(planBook('Numbers', outOfOrder)).toEqual({ kind: 'text' });
    const numbered = `1\n\n${prose(60)}\n\n2.\n\n${prose(60)}\n\n3\n\n${prose(60)}`;
    expect(titles(numbered)).toEqual(['Chapter 1', 'Chapter 2', 'Chapter 3']);
  });

  it('ignores a table of contents before the chapters', () => {
    const text = `Contents\n\nCHAPTER I. The Beginning\nCHAPTER II. The End\n\nCHAPTER I. The Beginning\n\n${prose(60)}\n\nCHAPTER II. The End\n\n${prose(60)}`;
    const chapters = chaptersOf(text);
    expect(chapters.map((c) => c.title)).toEqual(['Opening', 'Chapter I: The Beginning', 'Chapter II: The End']);
    expect(text.slice(chapters[1]!.start, chapters[1]!.end)).toContain('The traveller');
  });
});
