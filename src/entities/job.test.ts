import { describe, expect, it } from 'vitest';
import {
  bookTitle,
  chaptersDoneLabel,
  convertingLabel,
  isListenable,
  readyText,
  chaptersInOrder,
  chapterTitle,
  countLabel,
  humanizeStepName,
  isBook,
  jobDuration,
  jobProgress,
  queuedLabel,
  jobTitle,
  shortId,
} from './job';

describe('job text helpers', () => {
  it('shortId keeps the first 8 characters', () => {
    expect(shortId('9b2e7c1a-4d5f-4e6a-8b9c-0d1e2f3a4b5c')).toBe('9b2e7c1a');
  });

  it('jobTitle and bookTitle fall back to their word plus the short id', () => {
    expect(bookTitle({ id: '9b2e7c1a-4d5f', title: '' })).toBe('Audiobook 9b2e7c1a');
    expect(jobTitle({ id: '9b2e7c1a-4d5f', title: 'Raven' })).toBe('Raven');
    expect(jobTitle({ id: '9b2e7c1a-4d5f', title: '  ' })).toBe('Job 9b2e7c1a');
  });

  it('humanizes step names', () => {
    expect(humanizeStepName('synthesize')).toBe('Synthesize');
    expect(humanizeStepName('split_chapters')).toBe('Split chapters');
  });

  it('counts', () => {
    expect(countLabel(1, 'job')).toBe('1 job');
    expect(countLabel(3, 'chapter')).toBe('3 chapters');
  });
});

describe('jobDuration', () => {
  it('reads the result first, then the job, in seconds', () => {
    expect(jobDuration({ duration: 10, result_data: { duration: 125 } })).toBe(125);
    expect(jobDuration({ duration: 10, result_data: { duration_seconds: 90 } })).toBe(90);
    expect(jobDuration({ duration: 10, result_data: {} })).toBe(10);
    expect(jobDuration({ duration: null, result_data: {} })).toBe(0);
  });
});

describe('books in the jobs list', () => {
  it('jobProgress: a book counts its chapters, a text its own progress, a finished job 100', () => {
    const book = { status: 'PROCESSING' as const, progress: 8, chapter_count: 33, chapters_ready: 2 };
    expect(Math.round(jobProgress(book))).toBe(6);
    expect(jobProgress({ ...book, chapters_ready: undefined })).toBe(8);
    expect(jobProgress({ status: 'PROCESSING' as const, progress: 40, chapter_count: 0 })).toBe(40);
    expect(jobProgress({ ...book, status: 'COMPLETED' })).toBe(100);
  });

  it('isBook: a book job, or a job with chapters', () => {
    expect(isBook({ job_type: 'book_processing', chapter_count: 0 })).toBe(true);
    expect(isBook({ job_type: 'text_to_audio', chapter_count: 3 })).toBe(true);
    expect(isBook({ job_type: 'text_to_audio', chapter_count: 0 })).toBe(false);
  });

  it('chaptersDoneLabel says how many chapters are done, or nothing when unknown', () => {
    expect(chaptersDoneLabel({ chapter_count: 70, chapters_ready: 12 })).toBe('12 of 70 chapters done');
    expect(chaptersDoneLabel({ chapter_count: 1, chapters_ready: 0 })).toBe('0 of 1 chapter done');
    expect(chaptersDoneLabel({ chapter_count: 70 })).toBeNull();
    expect(chaptersDoneLabel({ chapter_count: 0, chapters_ready: 0 })).toBeNull();
  });

  it('convertingLabel says how many chapters of a converting book are ready, nothing once it is finished', () => {
    expect(convertingLabel({ status: 'PROCESSING', chapter_count: 12, chapters_ready: 3 })).toBe(
      'Converting · 3 of 12 chapters ready',
    );
    expect(convertingLabel({ status: 'PENDING', chapter_count: 1, chapters_ready: 0 })).toBe(
      'Converting · 0 of 1 chapter ready',
    );
    expect(convertingLabel({ status: 'COMPLETED', chapter_count: 12, chapters_ready: 12 })).toBeNull();
    expect(convertingLabel({ status: 'PROCESSING', chapter_count: 12, chapters_ready: 12 })).toBeNull();
    expect(convertingLabel({ status: 'PROCESSING', chapter_count: 0, chapters_ready: 0 })).toBeNull();
    expect(convertingLabel({ status: 'PROCESSING', chapter_count: 12 })).toBeNull();
  });

  it('isListenable: finished jobs and converting books with a chapter ready', () => {
    expect(isListenable({ status: 'COMPLETED' })).toBe(true);
    expect(isListenable({ status: 'PROCESSING', chapters_ready: 1 })).toBe(true);
    expect(isListenable({ status: 'PROCESSING', chapters_ready: 0 })).toBe(false);
    expect(isListenable({ status: 'FAILED', chapters_ready: 4 })).toBe(false);
  });

  it('readyText: how much of a converting book plays, its first minutes before any chapter', () => {
    expect(readyText({ status: 'PROCESSING', chapter_count: 12, chapters_ready: 3, listenable: true })).toBe(
      '3 of 12 chapters ready',
    );
    expect(readyText({ status: 'PROCESSING', chapter_count: 12, chapters_ready: 0, listenable: true })).toBe(
      'First minutes ready',
    );
    expect(readyText({ status: 'PROCESSING', chapter_count: 12, chapters_ready: 0, listenable: false })).toBe(
      '0 of 12 chapters ready',
    );
    expect(readyText({ status: 'PROCESSING', chapter_count: 12, chapters_ready: 0 })).toBe('0 of 12 chapters ready');
    expect(readyText({ status: 'PROCESSING', chapter_count: 0, chapters_ready: 0, listenable: true })).toBeNull();
    expect(readyText({ status: 'PROCESSING', chapter_count: 12 })).toBeNull();
  });

  it("isListenable: the server's word when it sends one, so a book whose opening plays is listed", () => {
    // Only the first chapter's opening is ready: no chapter counts yet, the server says it plays.
    expect(isListenable({ status: 'PROCESSING', chapters_ready: 0, listenable: true })).toBe(true);
    expect(isListenable({ status: 'PENDING', listenable: true })).toBe(true);
    expect(isListenable({ status: 'FAILED', chapters_ready: 0, listenable: false })).toBe(false);
    expect(isListenable({ status: 'PROCESSING', chapters_ready: 2, listenable: false })).toBe(false);
    expect(isListenable({ status: 'COMPLETED', listenable: true })).toBe(true);
  });

  const child = (n: number) => ({ id: `id-${n}`, title: `Chapter ${n}` });

  it('chaptersInOrder follows the chapter order of the result, not the title text', () => {
    const children = [child(10), child(2), child(9), child(1)];
    const chapters = [1, 2, 9, 10].map((n) => ({ job_id: `id-${n}`, order: n }));
    expect(chaptersInOrder({ children, result_data: { chapters } }).map((c) => c.title)).toEqual([
      'Chapter 1',
      'Chapter 2',
      'Chapter 9',
      'Chapter 10',
    ]);
  });

  it('chaptersInOrder uses child_job_ids, else keeps the order the server listed', () => {
    const children = [child(10), child(9)];
    expect(chaptersInOrder({ children, result_data: { child_job_ids: ['id-9', 'id-10'] } }).map((c) => c.id)).toEqual([
      'id-9',
      'id-10',
    ]);
    const listed = [child(1), child(2), child(9), child(10), child(11)];
    expect(chaptersInOrder({ children: listed, result_data: {} }).map((c) => c.title)).toEqual(
      listed.map((c) => c.title),
    );
    // A chapter the result does not name goes after those it does, in the server's order.
    expect(
      chaptersInOrder({ children: [child(3), child(1)], result_data: { child_job_ids: ['id-1'] } }).map((c) => c.id),
    ).toEqual(['id-1', 'id-3']);
  });

  it('chapterTitle drops the book title the server puts first', () => {
    expect(chapterTitle({ id: '9b2e7c1a-4d5f', title: 'Tales - Chapter 2' }, 'Tales')).toBe('Chapter 2');
    expect(chapterTitle({ id: '9b2e7c1a-4d5f', title: 'Prologue' }, 'Tales')).toBe('Prologue');
    expect(chapterTitle({ id: '9b2e7c1a-4d5f', title: 'Tales - ' }, 'Tales')).toBe('Tales -');
  });
});

describe('queuedLabel', () => {
  it('says how many jobs start before a waiting one, and nothing for others', () => {
    expect(queuedLabel({ status: 'PENDING', queue_position: 3 })).toBe('Queued, 3 ahead');
    expect(queuedLabel({ status: 'PENDING', queue_position: 0 })).toBe('Queued, next');
    expect(queuedLabel({ status: 'PENDING', queue_position: null })).toBeNull();
    expect(queuedLabel({ status: 'PENDING' })).toBeNull();
    expect(queuedLabel({ status: 'PROCESSING', queue_position: 2 })).toBeNull();
  });
});
