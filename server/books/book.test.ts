import { describe, expect, it } from 'vitest';
import { finishedBook } from '../testing/book-fixture';
import { chaptersOf, isListenable, parseAnalysis, type Book } from './book';

describe('the analysis of a book', () => {
  it('keeps only characters with a name, and is absent until one was written', () => {
    expect(parseAnalysis(undefined)).toBeNull();
    expect(parseAnalysis({ characters: [{ name: ' ' }, { name: 'Tobias' }] })?.characters).toEqual([
      { name: 'Tobias', role: 'character' },
    ]);
  });
});

describe('chaptersOf: the chapters a listener meets', () => {
  const chapter = (order: number, fields: Partial<Book>): Book => ({
    ...finishedBook({ id: `c${order}`, title: `Harbour Tales - Part ${order}`, durationSeconds: null }),
    parentJobId: 'book',
    chapterOrder: order,
    chapterTitle: `Part ${order}`,
    ...fields,
  });

  it('of a finished book: its recorded chapters, each starting where the ones before it end', () => {
    const book = finishedBook({
      id: 'book',
      title: 'Harbour Tales',
      durationSeconds: 30,
      chapters: [
        { title: 'One', order: 1, duration: 10 },
        { title: 'Two', order: 2, duration: 20 },
      ],
    });
    expect(chaptersOf(book, []).map((c) => [c.id, c.title, c.start, c.duration])).toEqual([
      ['book:1', 'One', 0, 10],
      ['book:2', 'Two', 10, 20],
    ]);
  });

  it('of a book still converting: its chapter jobs, the converted ones ready, the others without audio, each with its text size', () => {
    const book = {
      ...finishedBook({ id: 'book', title: 'Harbour Tales', durationSeconds: null }),
      status: 'PROCESSING' as const,
    };
    const jobs = [
      chapter(1, { outputFileKey: 'jobs/c1/audio.mp3', durationSeconds: 12, sourceBytes: 200 }),
      chapter(2, { status: 'PROCESSING', sourceBytes: 300, ttsEngine: null }),
    ];
    expect(chaptersOf(book, jobs)).toEqual([
      {
        id: 'c1',
        title: 'Part 1',
        order: 1,
        start: 0,
        duration: 12,
        fileKey: 'jobs/c1/audio.mp3',
        ready: true,
        playableSeconds: 12,
        sourceBytes: 200,
        ttsEngine: 'espeak-ng',
      },
      {
        id: 'c2',
        title: 'Part 2',
        order: 2,
        start: 12,
        duration: 0,
        fileKey: null,
        ready: false,
        playableSeconds: 0,
        sourceBytes: 300,
        ttsEngine: null,
      },
    ]);
  });

  it("of a book before its first chapter is ready: that chapter's opening plays, for as long as it lasts", () => {
    const book = {
      ...finishedBook({ id: 'book', title: 'Harbour Tales', durationSeconds: null }),
      status: 'PROCESSING' as const,
      openingReady: true,
    };
    const opening = { fileKey: 'jobs/c1/opening.mp3', durationSeconds: 131.5 };
    const jobs = [
      chapter(1, { status: 'PROCESSING', opening, sourceBytes: 20_000, ttsEngine: null }),
      chapter(2, { status: 'PENDING', sourceBytes: 300, ttsEngine: null }),
    ];
    const [first, second] = chaptersOf(book, jobs);
    expect(first).toMatchObject({ ready: false, duration: 131.5, playableSeconds: 131.5, fileKey: opening.fileKey });
    expect(second).toMatchObject({ ready: false, start: 131.5, duration: 0, playableSeconds: 0, fileKey: null });
    expect(isListenable(book)).toBe(true);
    expect(isListenable({ ...book, openingReady: false })).toBe(false);
    // Once the chapter is converted its whole file plays, not the opening.
    const done = chapter(1, { outputFileKey: 'jobs/c1/audio.mp3', durationSeconds: 900, opening: null });
    expect(chaptersOf(book, [done])[0]).toMatchObject({ ready: true, duration: 900, fileKey: 'jobs/c1/audio.mp3' });
  });

  it('of a text: the text itself, one chapter', () => {
    const text = {
      ...finishedBook({ id: 'text', title: 'A Letter', durationSeconds: 7 }),
      outputFileKey: 'jobs/text/audio.mp3',
    };
    expect(chaptersOf(text, [])).toEqual([
      {
        id: 'text',
        title: 'A Letter',
        order: 1,
        start: 0,
        duration: 7,
        fileKey: 'jobs/text/audio.mp3',
        ready: true,
        playableSeconds: 7,
        sourceBytes: null,
        ttsEngine: 'espeak-ng',
      },
    ]);
  });
});
