import { describe, expect, it } from 'vitest';
import { finishedBook } from '../testing/book-fixture';
import { chaptersOf, isListenable, parseAnalysis, toBook, type Book } from './book';
import type { JobRecord } from './types';

const at = new Date('2030-01-01T12:00:00Z');

function record(fields: Partial<JobRecord>): JobRecord {
  return {
    id: '6f1c0c1e-0000-4000-8000-000000000001',
    userId: '6f1c0c1e-0000-4000-8000-0000000000aa',
    parentJobId: null,
    chapterOrder: null,
    jobType: 'book_processing',
    title: 'Harbour Tales',
    description: null,
    status: 'COMPLETED',
    progress: 100,
    errorMessage: null,
    config: {},
    resultData: {},
    inputFileKey: null,
    outputFileKey: null,
    duration: null,
    createdAt: at,
    updatedAt: at,
    startedAt: at,
    completedAt: at,
    ...fields,
  };
}

describe('the read model of a book', () => {
  it('reads a finished book from its row once: its voice, length, chapters in order, cover and analysis', () => {
    const book = toBook(
      record({
        config: {
          voice_config: { provider: 'elevenlabs', voice_id: 'adam' },
          author: 'A. Keeper',
          source_bytes: 5120,
          cover_key: 'jobs/x/cover',
          cover_type: 'image/png',
          tutoring_analysis: {
            themes: ['the sea'],
            characters: [{ name: 'Mara', role: 'protagonist' }],
            setting: { time: '1893', place: 'Gull Island' },
            discussion_questions: ['Why does Mara stay?'],
            content_type: 'fiction',
            analyzed_at: at.toISOString(),
          },
        },
        resultData: {
          duration: 30,
          duration_seconds: 30,
          file_size_bytes: 4000.4,
          format: 'mp3',
          tts_engine: 'espeak-ng',
          chapters: [
            { title: 'Two', order: 2, duration: 20, file_key: 'jobs/b/audio.mp3', job_id: 'b' },
            { title: '', order: 1, duration: 10, file_key: '', job_id: 'a' },
          ],
        },
        outputFileKey: 'jobs/x/audio.mp3',
      }),
      2,
    );
    expect(book).toMatchObject({
      provider: 'elevenlabs',
      author: 'A. Keeper',
      cover: { key: 'jobs/x/cover', contentType: 'image/png' },
      durationSeconds: 30,
      sourceBytes: 5120,
      fileSizeBytes: 4000,
      ttsEngine: 'espeak-ng',
      chaptersReady: 2,
      analysis: {
        themes: ['the sea'],
        characters: [{ name: 'Mara', role: 'protagonist' }],
        setting: { time: '1893', place: 'Gull Island' },
        discussionQuestions: ['Why does Mara stay?'],
      },
    });
    expect(book.chapters).toEqual([
      { title: 'Chapter 1', order: 1, duration: 10, fileKey: null, jobId: 'a' },
      { title: 'Two', order: 2, duration: 20, fileKey: 'jobs/b/audio.mp3', jobId: 'b' },
    ]);
  });

  it("reads a converting chapter's opening, and forgets it once the chapter is no longer converting", () => {
    const opening = { file_key: 'jobs/c1/opening.mp3', duration: 131.5 };
    expect(toBook(record({ status: 'PROCESSING', config: { opening } })).opening).toEqual({
      fileKey: 'jobs/c1/opening.mp3',
      durationSeconds: 131.5,
    });
    expect(toBook(record({ status: 'COMPLETED', config: { opening } })).opening).toBeNull();
    expect(toBook(record({ status: 'PROCESSING', config: { opening: null } })).opening).toBeNull();
    const broken = { file_key: '', duration: -1 };
    expect(toBook(record({ status: 'PROCESSING', config: { opening: broken } })).opening).toBeNull();
  });

  it('has no analysis until the analyze step wrote one, and keeps only characters with a name', () => {
    expect(toBook(record({})).analysis).toBeNull();
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
