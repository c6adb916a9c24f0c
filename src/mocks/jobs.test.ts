import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { Job, JobListResponse, JobStep, JobStepList, TutoringAnalysis } from '../api/gen/model';
import {
  bookWithChaptersFixture,
  convertingBookFixture,
  jobAtStatus,
  jobsBackend,
  listJobsFrom,
  manyJobsFixture,
  stepFixture,
  stepsFixture,
  tutoringAnalysisFixture,
} from './jobs';

// The jobs part of fixtures.test.ts, in its own file: the same rule (every factory passes the
// generated zod schemas) for src/mocks/jobs.ts.

describe('job fixtures (src/mocks/jobs.ts) match the generated schemas', () => {
  const { book, chapters } = bookWithChaptersFixture();
  const cases: [string, ZodType, unknown][] = [
    ['step', JobStep, stepFixture()],
    ...(['pending', 'processing', 'completed', 'failed'] as const).map((stage): [string, ZodType, unknown] => [
      `steps ${stage}`,
      JobStepList,
      stepsFixture(stage),
    ]),
    ...(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const).map(
      (status): [string, ZodType, unknown] => [`job ${status}`, Job, jobAtStatus(status)],
    ),
    ['tutoring analysis', TutoringAnalysis, tutoringAnalysisFixture()],
    [
      'job with tutoring analysis',
      Job,
      jobAtStatus('COMPLETED', { config: { tutoring_analysis: tutoringAnalysisFixture() } }),
    ],
    ['book with chapters', Job, book],
    ['chapter job', Job, chapters[0]],
    ['many jobs page', JobListResponse, listJobsFrom(manyJobsFixture(23), new URL('http://x/api/v1/jobs?page=3'))],
    ['converting book', Job, convertingBookFixture().book],
    ['converting book chapter', Job, convertingBookFixture().chapters[11]],
  ];
  it.each(cases)('%s', (_name, schema, value) => {
    expect(() => schema.parse(value)).not.toThrow();
  });

  it('a converting book lists as one top-level job with its chapters done, its chapters in order', () => {
    const { book: longBook, chapters: parts } = convertingBookFixture({ count: 12, done: 9 });
    const page = listJobsFrom([longBook, ...parts], new URL('http://x/api/v1/jobs?top_level=true'));
    expect(page.total).toBe(1);
    expect(page.jobs[0]).toMatchObject({ chapter_count: 12, chapters_ready: 9 });
    expect(longBook.children.map((child) => child.title.replace('A Long Novel - ', ''))).toEqual(
      Array.from({ length: 12 }, (_, index) => `Chapter ${index + 1}`),
    );
    expect(new Set([longBook.id, ...parts.map((part) => part.id)]).size).toBe(13);
  });

  it('every job in a long list has its own id', () => {
    const ids = manyJobsFixture(73).map((job) => job.id);
    expect(new Set(ids).size).toBe(73);
  });
});

describe('the in-memory jobs API', () => {
  const jobs = manyJobsFixture(12);
  const list = (query: string) => listJobsFrom(jobs, new URL(`http://x/api/v1/jobs?${query}`));

  it('pages like the server', () => {
    expect(list('page=2&page_size=10')).toMatchObject({ total: 12, page: 2, page_size: 10, total_pages: 2 });
    expect(list('page=2&page_size=10').jobs.map((job) => job.title)).toEqual(['Story 11', 'Story 12']);
  });

  it('running means PENDING and PROCESSING', () => {
    expect(new Set(list('status=running').jobs.map((job) => job.status))).toEqual(new Set(['PENDING', 'PROCESSING']));
  });

  it('searches titles and id prefixes and sorts both ways', () => {
    expect(list('q=story 12').jobs.map((job) => job.title)).toEqual(['Story 12']);
    expect(list(`q=${jobs[2]!.id.slice(0, 8)}`).jobs).toHaveLength(1);
    expect(list('sort=created_at&order=asc').jobs[0]?.title).toBe('Story 12');
  });

  it('starts from the given jobs and forgets requests on reset', () => {
    const api = jobsBackend(jobs);
    expect(api.jobs()[0]?.status).toBe('PROCESSING');
    expect(Object.keys(api.handlers)).toEqual(['jobs', 'job', 'jobSteps', 'cancelJob', 'retryJob']);
    api.reset();
    expect(api.listRequests).toEqual([]);
  });
});
