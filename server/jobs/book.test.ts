import { describe, expect, it } from 'vitest';
import { toBook } from './book';
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

  it('has no analysis until the analyze step wrote one', () => {
    expect(toBook(record({})).analysis).toBeNull();
  });
});
