// Jobs and file uploads as the SPA's screens call them (upload, jobs list, job detail, cancel).
// These routes belong to the jobs engineer; the provider verifies them once they exist.
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { uploadFile } from '../../../src/api/gen/endpoints/files';
import { cancelJob, createJob, getJob, getJobSteps, listJobs } from '../../../src/api/gen/endpoints/jobs';
import { ApiError, errorMessage } from '../../../src/api/errors';
import { states } from '../states';
import { bearer, EXAMPLE_CHAPTER_ID, EXAMPLE_FILE_KEY, EXAMPLE_JOB_ID, EXAMPLE_TOKEN, jobPath } from './listening';
import { errorBody, isoTimestamp, lectioPact, useMockServer } from './pact';

const { atLeastLike, eachLike, fromProviderState, integer, like, number, regex, string, uuid } = MatchersV3;
const pact = lectioPact();
const json = { 'Content-Type': 'application/json' };
const USER_ID = '5a0b8a7e-2f3c-4d5e-9f60-718293a4b5c6';
const STEP_ID = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';

const STORY =
  'It is true that I had been very, very dreadfully nervous, but why will you say that I am mad? ' +
  'The disease had sharpened my senses, not destroyed them, not dulled them.';

const stepBase = (name: string, order: number) => ({
  id: uuid(STEP_ID),
  step_name: string(name),
  step_order: integer(order),
  error_message: null,
  step_metadata: like({}),
  created_at: isoTimestamp(),
  updated_at: isoTimestamp(),
});
const pendingStep = (name = 'synthesize', order = 4) => ({
  ...stepBase(name, order),
  status: 'PENDING',
  progress: number(0),
  started_at: null,
  completed_at: null,
  duration: null,
});
const runningStep = (name: string, order: number) => ({
  ...stepBase(name, order),
  status: 'RUNNING',
  progress: number(40),
  started_at: isoTimestamp(),
  completed_at: null,
  duration: number(2.5),
});
const completedStep = (name = 'acquire_content', order = 1) => ({
  ...stepBase(name, order),
  status: 'COMPLETED',
  progress: number(100),
  started_at: isoTimestamp(),
  completed_at: isoTimestamp(),
  duration: number(1.5),
});

/** Every field of a job except steps, children and parent (how books and chapters name each other). */
const jobCore = (overrides: Record<string, unknown> = {}) => ({
  id: uuid(EXAMPLE_JOB_ID),
  user_id: uuid(USER_ID),
  parent_job_id: null,
  job_type: regex(/^(text_to_audio|book_processing)$/, 'text_to_audio'),
  title: string('The Tell-Tale Heart'),
  description: null,
  status: regex(/^(PENDING|PROCESSING)$/, 'PENDING'),
  progress: number(0),
  error_message: null,
  config: { voice_config: { provider: 'openai' } },
  result_data: like({}),
  input_file_key: null,
  output_file_key: null,
  created_at: isoTimestamp(),
  updated_at: isoTimestamp(),
  started_at: null,
  completed_at: null,
  duration: null,
  ...overrides,
});

/** A job as GET /jobs lists it (JobSummary): no steps, children or parent; a chapter count instead. */
const summary = (overrides: Record<string, unknown> = {}) => jobCore({ chapter_count: integer(0), ...overrides });

/** Every field of a Job the generated client's schema requires, for a job that has not started. */
const newJob = (overrides: Record<string, unknown> = {}) =>
  jobCore({
    steps: atLeastLike(pendingStep(), 0, 1),
    children: [],
    parent: null,
    ...overrides,
  });

/** A finished job's own fields, as a book lists its chapters and a chapter names its book. */
const finishedCore = (overrides: Record<string, unknown> = {}) =>
  jobCore({
    status: 'COMPLETED',
    progress: number(100),
    output_file_key: string(`audio/${EXAMPLE_JOB_ID}.mp3`),
    started_at: isoTimestamp(),
    completed_at: isoTimestamp(),
    duration: number(6),
    ...overrides,
  });

const finishedJob = (overrides: Record<string, unknown> = {}) =>
  finishedCore({ steps: eachLike(completedStep()), children: [], parent: null, ...overrides });

describe('create a job', () => {
  it('from pasted text', () =>
    pact
      .addInteraction()
      .given(states.signedIn, { email: 'reader@example.com', password: 'correct-horse-battery' })
      .uponReceiving('a job creation from text')
      .withRequest('POST', '/api/v1/jobs', (req) =>
        req.headers({ ...json, ...bearer() }).jsonBody({
          title: 'The Tell-Tale Heart',
          content: STORY,
          voice_config: { provider: 'openai', voice_id: 'alloy' },
        }),
      )
      // The text is kept as the job's source file.
      .willRespondWith(201, (res) =>
        res.jsonBody(newJob({ input_file_key: string(`jobs/${EXAMPLE_JOB_ID}/source.txt`) })),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const job = await createJob({
          title: 'The Tell-Tale Heart',
          content: STORY,
          voice_config: { provider: 'openai', voice_id: 'alloy' },
        });
        expect(job.id).toBe(EXAMPLE_JOB_ID);
        expect(job.title).toBe('The Tell-Tale Heart');
      }));

  it('from a web page address', () =>
    pact
      .addInteraction()
      .given(states.signedIn, { email: 'reader@example.com', password: 'correct-horse-battery' })
      .uponReceiving('a job creation from a URL')
      .withRequest('POST', '/api/v1/jobs', (req) =>
        req.headers({ ...json, ...bearer() }).jsonBody({
          title: 'The Raven',
          url: 'https://example.com/poems/the-raven',
          voice_config: { provider: 'elevenlabs', voice_id: 'adam' },
        }),
      )
      .willRespondWith(201, (res) =>
        res.jsonBody(newJob({ title: string('The Raven'), config: { voice_config: { provider: 'elevenlabs' } } })),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const job = await createJob({
          title: 'The Raven',
          url: 'https://example.com/poems/the-raven',
          voice_config: { provider: 'elevenlabs', voice_id: 'adam' },
        });
        expect(job.id).toBe(EXAMPLE_JOB_ID);
      }));

  it('from an uploaded file', () =>
    pact
      .addInteraction()
      .given(states.uploadedFile, { filename: 'the-raven.txt' })
      .uponReceiving('a job creation from an uploaded file')
      .withRequest('POST', '/api/v1/jobs', (req) =>
        req.headers({ ...json, ...bearer() }).jsonBody({
          title: 'The Raven',
          file_key: fromProviderState('${fileKey}', EXAMPLE_FILE_KEY),
          voice_config: { provider: 'openai', voice_id: 'alloy' },
        }),
      )
      .willRespondWith(201, (res) =>
        res.jsonBody(newJob({ title: string('The Raven'), input_file_key: string(EXAMPLE_FILE_KEY) })),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const job = await createJob({
          title: 'The Raven',
          file_key: EXAMPLE_FILE_KEY,
          voice_config: { provider: 'openai', voice_id: 'alloy' },
        });
        expect(job.id).toBe(EXAMPLE_JOB_ID);
      }));
});

describe('upload a file', () => {
  const fixture = resolve('tests/pact/consumer/fixtures/the-raven.txt');

  it('stores a .txt file sent as multipart form data and answers its key', () =>
    pact
      .addInteraction()
      .given(states.signedIn, { email: 'reader@example.com', password: 'correct-horse-battery' })
      .uponReceiving('a .txt file upload')
      .withRequest('POST', '/api/v1/files', (req) =>
        req.headers(bearer()).multipartBody('text/plain', fixture, 'file', 'lectio-pact-boundary'),
      )
      .willRespondWith(201, (res) =>
        res.jsonBody({ file_key: string(EXAMPLE_FILE_KEY), filename: 'the-raven.txt', size_bytes: integer(242) }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const file = new File([readFileSync(fixture)], basename(fixture), { type: 'text/plain' });
        const stored = await uploadFile({ file });
        expect(stored.file_key).toBe(EXAMPLE_FILE_KEY);
        expect(stored.filename).toBe('the-raven.txt');
      }));
});

describe('list jobs', () => {
  it('pages, filters running jobs, searches titles and sorts, as the jobs screen asks', () =>
    pact
      .addInteraction()
      .given(states.pendingJobsExist, { title: 'Carol' })
      .uponReceiving('a request for the running jobs matching a search')
      .withRequest('GET', '/api/v1/jobs', (req) =>
        req
          .headers(bearer())
          .query({ page: '1', page_size: '10', status: 'running', q: 'Carol', sort: 'created_at', order: 'desc' }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({
          jobs: eachLike(summary({ title: regex(/^.*Carol.*$/, 'Carol of the Bells'), status: 'PENDING' })),
          total: integer(2),
          page: 1,
          page_size: 10,
          total_pages: integer(1),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const page = await listJobs({
          page: 1,
          page_size: 10,
          status: 'running',
          q: 'Carol',
          sort: 'created_at',
          order: 'desc',
        });
        expect(page.jobs.length).toBeGreaterThan(0);
        expect(page.jobs.every((j) => j.status === 'PENDING' || j.status === 'PROCESSING')).toBe(true);
        expect(page.page).toBe(1);
        expect(page.total_pages).toBeGreaterThanOrEqual(1);
      }));

  it("lists the library's finished books with their chapter counts", () =>
    pact
      .addInteraction()
      .given(states.bookWithChapters, { title: 'A Christmas Carol' })
      .uponReceiving('a request for the completed top-level jobs, as the library asks')
      .withRequest('GET', '/api/v1/jobs', (req) =>
        req.headers(bearer()).query({ status: 'completed', top_level: 'true', page_size: '100' }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({
          jobs: eachLike(
            summary({
              title: string('A Christmas Carol'),
              job_type: 'book_processing',
              status: 'COMPLETED',
              progress: number(100),
              config: like({ voice_config: { provider: 'openai', voice_id: 'alloy' }, provider: 'openai' }),
              result_data: like({ duration: number(6), duration_seconds: number(6) }),
              output_file_key: string(`audio/${EXAMPLE_JOB_ID}.mp3`),
              started_at: isoTimestamp(),
              completed_at: isoTimestamp(),
              duration: number(6),
              chapter_count: integer(3),
            }),
          ),
          total: integer(1),
          page: 1,
          page_size: 100,
          total_pages: integer(1),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const page = await listJobs({ status: 'completed', top_level: true, page_size: 100 });
        expect(page.jobs[0]).toMatchObject({ title: 'A Christmas Carol', status: 'COMPLETED', chapter_count: 3 });
        expect(page.jobs[0]).not.toHaveProperty('children');
      }));
});

describe('list jobs by their status value', () => {
  it('accepts the job status values as the filter, as clients written for the earlier backend send them', () =>
    pact
      .addInteraction()
      .given(states.completedAudiobook, { title: 'The Tell-Tale Heart' })
      .uponReceiving('a request for the completed jobs with the uppercase status value')
      .withRequest('GET', '/api/v1/jobs', (req) => req.headers(bearer()).query({ status: 'COMPLETED' }))
      .willRespondWith(200, (res) =>
        res.jsonBody({
          jobs: eachLike(finishedCore({ title: string('The Tell-Tale Heart'), chapter_count: integer(0) })),
          total: integer(1),
          page: 1,
          page_size: 10,
          total_pages: integer(1),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const page = await listJobs({ status: 'COMPLETED' });
        expect(page.jobs.length).toBeGreaterThan(0);
        expect(page.jobs.every((j) => j.status === 'COMPLETED')).toBe(true);
      }));
});

describe('job detail', () => {
  it('shows a book with its chapter jobs', () =>
    pact
      .addInteraction()
      .given(states.bookWithChapters, { title: 'A Christmas Carol' })
      .uponReceiving('a request for a book job with its chapters')
      .withRequest('GET', jobPath('/api/v1/jobs/{id}'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.jsonBody(
          finishedJob({
            title: 'A Christmas Carol',
            job_type: 'book_processing',
            result_data: like({ duration: number(6) }),
            children: atLeastLike(
              finishedCore({
                id: uuid(EXAMPLE_CHAPTER_ID),
                title: string('A Christmas Carol - Stave 1'),
                parent_job_id: uuid(EXAMPLE_JOB_ID),
                output_file_key: string(`audio/${EXAMPLE_CHAPTER_ID}.mp3`),
                duration: number(2),
                result_data: like({ duration: number(2) }),
              }),
              3,
              3,
            ),
          }),
        ),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const job = await getJob(EXAMPLE_JOB_ID);
        expect(job.children).toHaveLength(3);
        expect(
          job.children.every((chapter) => chapter.user_id === job.user_id && chapter.parent_job_id === job.id),
        ).toBe(true);
        expect(job.parent).toBeNull();
        expect(job.status).toBe('COMPLETED');
      }));

  it('shows a chapter job with its parent book', () =>
    pact
      .addInteraction()
      .given(states.bookWithChapters, { title: 'A Christmas Carol' })
      .uponReceiving('a request for a chapter job')
      .withRequest('GET', jobPath('/api/v1/jobs/{id}', 'chapterId', EXAMPLE_CHAPTER_ID), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.jsonBody(
          finishedJob({
            id: uuid(EXAMPLE_CHAPTER_ID),
            title: string('A Christmas Carol - Stave 1'),
            job_type: 'text_to_audio',
            parent_job_id: uuid(EXAMPLE_JOB_ID),
            duration: number(2),
            result_data: like({ duration: number(2) }),
            parent: finishedCore({
              title: 'A Christmas Carol',
              job_type: 'book_processing',
              result_data: like({ duration: number(6) }),
            }),
          }),
        ),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const job = await getJob(EXAMPLE_CHAPTER_ID);
        expect(job.parent_job_id).toBe(EXAMPLE_JOB_ID);
        expect(job.parent?.title).toBe('A Christmas Carol');
        expect(job.parent?.status).toBe('COMPLETED');
      }));

  it('refreshes the steps of a running job', () =>
    pact
      .addInteraction()
      .given(states.jobProcessing, { title: 'Moby-Dick' })
      .uponReceiving('a request for the steps of a processing job')
      .withRequest('GET', jobPath('/api/v1/jobs/{id}/steps'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.jsonBody([
          completedStep('acquire_content', 1),
          completedStep('split_chapters', 2),
          runningStep('synthesize', 3),
          pendingStep('analyze', 4),
          pendingStep('finalize', 5),
        ]),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const steps = await getJobSteps(EXAMPLE_JOB_ID);
        expect(steps.map((s) => s.status)).toEqual(['COMPLETED', 'COMPLETED', 'RUNNING', 'PENDING', 'PENDING']);
        expect(steps.map((s) => s.step_order)).toEqual([1, 2, 3, 4, 5]);
      }));
});

describe('cancel a job', () => {
  it('cancels a job that is processing', () =>
    pact
      .addInteraction()
      .given(states.jobProcessing, { title: 'Moby-Dick', steps: false })
      .uponReceiving('a cancellation of a processing job')
      .withRequest('DELETE', jobPath('/api/v1/jobs/{id}'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.jsonBody(
          newJob({
            title: 'Moby-Dick',
            status: 'CANCELLED',
            progress: number(40),
            started_at: isoTimestamp(),
            steps: [],
          }),
        ),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const job = await cancelJob(EXAMPLE_JOB_ID);
        expect(job).toMatchObject({ status: 'CANCELLED' });
      }));

  it('refuses to cancel a completed job, with the reason (a late cancel never deletes it)', () =>
    pact
      .addInteraction()
      .given(states.completedAudiobook, { title: 'The Tell-Tale Heart' })
      .uponReceiving('a cancellation of a completed job')
      .withRequest('DELETE', jobPath('/api/v1/jobs/{id}'), (req) => req.headers(bearer()))
      .willRespondWith(409, (res) => res.jsonBody(errorBody('Cannot cancel a job that is COMPLETED')))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const error = await cancelJob(EXAMPLE_JOB_ID).catch((e: unknown) => e);
        expect((error as ApiError).status).toBe(409);
        expect(errorMessage(error, 'Failed to cancel job')).toMatch(/COMPLETED/);
      }));

  it('deletes a completed audiobook when asked to (delete=true)', () =>
    pact
      .addInteraction()
      .given(states.completedAudiobook, { title: 'The Tell-Tale Heart' })
      .uponReceiving('a deletion of a completed job')
      .withRequest('DELETE', jobPath('/api/v1/jobs/{id}'), (req) => req.headers(bearer()).query({ delete: 'true' }))
      .willRespondWith(204)
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        await expect(cancelJob(EXAMPLE_JOB_ID, { delete: true })).resolves.toBeNull();
      }));
});
