import { describe, expect, it } from 'vitest';
import { BOOK_STEPS, CHAPTER_STEPS, TEXT_STEPS } from '../../server/jobs/types';
import { BOOK_STEP_NAMES, CHAPTER_STEP_NAMES, convertingBookFixture, TEXT_STEP_NAMES } from '../../src/mocks/jobs';

/** The stories' jobs show the steps the server runs, in its order (a reviewer reads them there). */
describe('mock job steps', () => {
  it('list each kind of job’s steps in the order the server runs them', () => {
    expect(TEXT_STEP_NAMES).toEqual(TEXT_STEPS);
    expect(BOOK_STEP_NAMES).toEqual(BOOK_STEPS);
    expect(CHAPTER_STEP_NAMES).toEqual(CHAPTER_STEPS);
  });

  it('show a book still converting at work on its chapters, its analysis still to come', () => {
    const steps = convertingBookFixture().book.steps.map((step) => [step.step_name, step.status]);
    expect(steps).toEqual([
      ['acquire_content', 'COMPLETED'],
      ['split_chapters', 'COMPLETED'],
      ['synthesize_chapters', 'RUNNING'],
      ['analyze', 'PENDING'],
      ['combine_audio', 'PENDING'],
      ['finalize', 'PENDING'],
    ]);
  });
});
