import { describe, expect, it } from 'vitest';
import { bookTitle, countLabel, humanizeStepName, jobDuration, jobTitle, shortId } from './job';

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
