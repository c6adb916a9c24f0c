// The jobs list groups a book's chapter jobs under the book: the jobs screen and the top bar's
// running badge ask for top-level jobs only, so a converting book with three chapter jobs is one
// job (the chapters are listed from GET /jobs/{id} when the reader opens the book).
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { listJobs } from '../../../src/api/gen/endpoints/jobs';
import { states } from '../states';
import { bearer, convertingBookSummary, EXAMPLE_TOKEN } from './listening';
import { lectioPact, useMockServer } from './pact';

const { eachLike, integer } = MatchersV3;
const pact = lectioPact();
/** One book converting: chapter 1 converted, chapters 2 and 3 still PENDING (active jobs of their own). */
const CONVERTING = { title: 'The Long Voyage', chapters: 3, ready: [1] };

const convertingBook = convertingBookSummary({ chapter_count: 3, chapters_ready: 1 });

describe('the jobs list groups chapter jobs under their book', () => {
  it('the top bar counts a converting book once among the running jobs', () =>
    pact
      .addInteraction()
      .given(states.bookConverting, CONVERTING)
      .uponReceiving('a request for the number of running top-level jobs, as the top bar counts them')
      .withRequest('GET', '/api/v1/jobs', (req) =>
        req.headers(bearer()).query({ status: 'running', top_level: 'true', page_size: '1' }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({ jobs: eachLike(convertingBook, 1), total: 1, page: 1, page_size: 1, total_pages: 1 }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const page = await listJobs({ status: 'running', top_level: true, page_size: 1 });
        // The book and its two unfinished chapter jobs are all running; only the book is counted.
        expect(page.total).toBe(1);
        expect(page.jobs[0]).toMatchObject({ parent_job_id: null, job_type: 'book_processing' });
      }));

  it('the dashboard counts a converting book once, and not its converted chapter as completed', () =>
    pact
      .addInteraction()
      .given(states.bookConverting, CONVERTING)
      .uponReceiving('a request for the number of completed top-level jobs, as the dashboard counts them')
      .withRequest('GET', '/api/v1/jobs', (req) =>
        req.headers(bearer()).query({ status: 'completed', top_level: 'true', page_size: '1' }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({ jobs: [], total: 0, page: 1, page_size: 1, total_pages: integer(0) }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        // Chapter 1 is COMPLETED, but it is part of a book still converting: nothing is completed yet.
        const page = await listJobs({ status: 'completed', top_level: true, page_size: 1 });
        expect(page.total).toBe(0);
      }));

  it('the jobs screen lists the book as one row with how many of its chapters are done', () =>
    pact
      .addInteraction()
      .given(states.bookConverting, CONVERTING)
      .uponReceiving('a request for the first page of top-level jobs, as the jobs screen asks')
      .withRequest('GET', '/api/v1/jobs', (req) =>
        req
          .headers(bearer())
          .query({ page: '1', page_size: '10', top_level: 'true', sort: 'created_at', order: 'desc' }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({ jobs: eachLike(convertingBook, 1), total: 1, page: 1, page_size: 10, total_pages: integer(1) }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const page = await listJobs({ page: 1, page_size: 10, top_level: true, sort: 'created_at', order: 'desc' });
        expect(page.total).toBe(1);
        expect(page.jobs.map((job) => job.parent_job_id)).toEqual([null]);
        expect(page.jobs[0]).toMatchObject({ chapter_count: 3, chapters_ready: 1 });
      }));
});
