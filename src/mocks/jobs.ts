import { getCancelJobMockHandler } from '../api/gen/endpoints/jobs/cancel-job.msw';
import { getGetJobStepsMockHandler } from '../api/gen/endpoints/jobs/get-job-steps.msw';
import { getGetJobMockHandler } from '../api/gen/endpoints/jobs/get-job.msw';
import { getListJobsMockHandler } from '../api/gen/endpoints/jobs/list-jobs.msw';
import { getRetryJobMockHandler } from '../api/gen/endpoints/jobs/retry-job.msw';
import type { Job, JobCore, JobListResponse, JobStep, TutoringAnalysis } from '../api/gen/model';
import { isActiveStatus, isListenable } from '../entities/job';
import { failWith, respond, type ReplyOptions } from './answer';
import { errorBodyFixture, jobFixture, toJobSummary } from './fixtures';

/**
 * Job fixtures and a small in-memory jobs API for stories and tests. Every factory returns what
 * the generated zod schemas accept (fixtures.test.ts). `jobsBackend` answers list, get, steps,
 * cancel and retry from one mutable list, filtering, sorting and paging like the server, and
 * records each list request so a play function can assert the query it sent.
 */

/** A stable uuid per number: jobUuid(1) -> '10000001-0000-4000-8000-000000000001'. */
export function jobUuid(n: number, kind = 0): string {
  const head = (0x10000000 + n).toString(16);
  const tail = (n + kind * 1000).toString(16).padStart(12, '0');
  return `${head}-0000-4000-8000-${tail}`;
}

/** A text's steps in the server's order: its analysis runs beside its synthesis, kept by `analyze`. */
export const TEXT_STEP_NAMES = ['acquire_content', 'split_chapters', 'synthesize', 'analyze', 'finalize'] as const;
/** The step a text still converting is at: its voice reads. */
const TEXT_RUNNING_STEP = TEXT_STEP_NAMES.indexOf('synthesize');
/** A book's steps in the server's order: its analysis runs once every chapter is converted. */
export const BOOK_STEP_NAMES = [
  'acquire_content',
  'split_chapters',
  'synthesize_chapters',
  'analyze',
  'combine_audio',
  'finalize',
] as const;
/** The step a book still converting is at: its chapters convert. */
const BOOK_RUNNING_STEP = BOOK_STEP_NAMES.indexOf('synthesize_chapters');
export const CHAPTER_STEP_NAMES = ['acquire_content', 'synthesize', 'finalize'] as const;

export function stepFixture(overrides: Partial<JobStep> = {}): JobStep {
  return {
    id: jobUuid(900, 1),
    step_name: 'synthesize',
    step_order: 4,
    status: 'PENDING',
    progress: 0,
    error_message: null,
    step_metadata: {},
    created_at: '2025-02-01T10:00:00Z',
    updated_at: '2025-02-01T10:00:00Z',
    started_at: null,
    completed_at: null,
    duration: null,
    ...overrides,
  };
}

export type StepsStage = 'pending' | 'processing' | 'completed' | 'failed';

/**
 * A job's steps at a stage: processing = the step at index `at` (a text's synthesize unless told)
 * running at 60 %; failed = that step failed with `error`; completed = all done; pending = none started.
 */
export function stepsFixture(
  stage: StepsStage,
  {
    names = TEXT_STEP_NAMES,
    seed = 1,
    error = 'The voice engine stopped responding',
    at = TEXT_RUNNING_STEP,
  }: {
    names?: readonly JobStep['step_name'][];
    seed?: number;
    error?: string;
    /** The step that runs or fails. */
    at?: number;
  } = {},
): JobStep[] {
  return names.map((name, index) => {
    const done = stage === 'completed' || ((stage === 'processing' || stage === 'failed') && index < at);
    const current = (stage === 'processing' || stage === 'failed') && index === at;
    const started = done || current;
    const minute = String(index + 1).padStart(2, '0');
    return stepFixture({
      id: jobUuid(seed * 100 + index, 2),
      step_name: name,
      step_order: index + 1,
      status: done ? 'COMPLETED' : current ? (stage === 'failed' ? 'FAILED' : 'RUNNING') : 'PENDING',
      progress: done ? 100 : current ? (stage === 'failed' ? 30 : 60) : 0,
      error_message: current && stage === 'failed' ? error : null,
      started_at: started ? `2025-02-01T10:${minute}:00Z` : null,
      completed_at: done ? `2025-02-01T10:${minute}:45Z` : null,
      duration: done ? 45 + index * 30 : current ? 125 : null,
      updated_at: started ? `2025-02-01T10:${minute}:45Z` : '2025-02-01T10:00:00Z',
    });
  });
}

export function tutoringAnalysisFixture(overrides: Partial<TutoringAnalysis> = {}): TutoringAnalysis {
  return {
    themes: ['guilt', 'madness'],
    characters: [
      { name: 'The narrator', role: 'An unreliable murderer' },
      { name: 'The old man', role: 'The victim with the vulture eye' },
    ],
    setting: { time: '19th century', place: 'An old house' },
    discussion_questions: ['Why does the narrator insist he is sane?'],
    content_type: 'short_story',
    analyzed_at: '2025-02-01T10:03:00Z',
    ...overrides,
  };
}

/** A job at a status with matching progress, steps, error and result. */
export function jobAtStatus(status: Job['status'], overrides: Partial<Job> = {}): Job {
  const byStatus: Record<Job['status'], Partial<Job>> = {
    PENDING: { progress: 0, started_at: null, steps: stepsFixture('pending') },
    PROCESSING: { progress: 60, steps: stepsFixture('processing') },
    COMPLETED: {
      progress: 100,
      completed_at: '2025-02-01T10:06:00Z',
      duration: 3725,
      result_data: { duration: 3725, duration_seconds: 3725, file_size_bytes: 2_048_000, format: 'mp3' },
      output_file_key: 'audio/output.mp3',
      steps: stepsFixture('completed'),
    },
    FAILED: {
      progress: 45,
      error_message: 'Speech synthesis failed: the voice engine stopped responding',
      steps: stepsFixture('failed'),
    },
    CANCELLED: { progress: 20, steps: stepsFixture('pending') },
  };
  return jobFixture({ status, ...byStatus[status], ...overrides });
}

/** `count` jobs, newest first, cycling through the statuses; ids jobUuid(1..count). */
export function manyJobsFixture(count: number): Job[] {
  const statuses: Job['status'][] = ['PROCESSING', 'COMPLETED', 'FAILED', 'PENDING', 'COMPLETED', 'CANCELLED'];
  return Array.from({ length: count }, (_, index) => {
    const n = index + 1;
    // One hour apart, newest first, so the default sort lists Story 1, 2, 3...
    const created = Date.UTC(2025, 1, 28, 23) - index * 3_600_000;
    return jobAtStatus(statuses[index % statuses.length] ?? 'COMPLETED', {
      id: jobUuid(n),
      title: `Story ${n}`,
      created_at: new Date(created).toISOString(),
      updated_at: new Date(created + 1_800_000).toISOString(),
    });
  });
}

/** A job as its book lists it or as its chapters name it: every field but steps, children and parent. */
export function coreOf(job: Job): JobCore {
  const { steps: _steps, children: _children, parent: _parent, ...core } = job;
  return core;
}

/**
 * A book job and its three chapter jobs (two done, one running), linked both ways:
 * the book lists them as children, each chapter names the book as parent.
 */
export function bookWithChaptersFixture(): { book: Job; chapters: Job[] } {
  const bookId = jobUuid(50);
  const bookBase = jobAtStatus('PROCESSING', {
    id: bookId,
    job_type: 'book_processing',
    title: 'Collected Tales',
    progress: 75,
    steps: stepsFixture('processing', { names: BOOK_STEP_NAMES, seed: 50, at: BOOK_RUNNING_STEP }),
  });
  const titles = ['Chapter 1: The Visitor', 'Chapter 2: The Night Watch', 'Chapter 3: The Confession'];
  const chapters = titles.map((title, index) =>
    jobAtStatus(index < 2 ? 'COMPLETED' : 'PROCESSING', {
      id: jobUuid(51 + index),
      parent_job_id: bookId,
      parent: coreOf(bookBase),
      title,
      created_at: `2025-02-01T10:0${index + 1}:00Z`,
      steps: stepsFixture(index < 2 ? 'completed' : 'processing', { names: CHAPTER_STEP_NAMES, seed: 51 + index }),
    }),
  );
  const book: Job = {
    ...bookBase,
    children: chapters.map(coreOf),
    result_data: { child_job_ids: chapters.map((chapter) => chapter.id) },
  };
  return { book, chapters };
}

/**
 * A book converting chapter by chapter, as the server makes it: `count` chapter jobs titled
 * '{book} - Chapter N', created at one instant and listed by the book in chapter order, the first
 * `done` COMPLETED, the next one PROCESSING, the rest PENDING.
 */
export function convertingBookFixture({
  n = 60,
  title = 'A Long Novel',
  count = 12,
  done = 9,
  createdAt = '2025-02-08T10:00:00Z',
}: { n?: number; title?: string; count?: number; done?: number; createdAt?: string } = {}): {
  book: Job;
  chapters: Job[];
} {
  const bookId = jobUuid(n);
  const book = jobAtStatus('PROCESSING', {
    id: bookId,
    job_type: 'book_processing',
    title,
    progress: Math.round((done / count) * 100),
    created_at: createdAt,
    updated_at: createdAt,
    steps: stepsFixture('processing', { names: BOOK_STEP_NAMES, seed: n, at: BOOK_RUNNING_STEP }),
  });
  const chapters = Array.from({ length: count }, (_, index) => {
    const status: Job['status'] = index < done ? 'COMPLETED' : index === done ? 'PROCESSING' : 'PENDING';
    return jobAtStatus(status, {
      id: jobUuid(n, index + 1),
      parent_job_id: bookId,
      parent: coreOf(book),
      title: `${title} - Chapter ${index + 1}`,
      created_at: createdAt,
      updated_at: createdAt,
      steps: stepsFixture(status === 'COMPLETED' ? 'completed' : status === 'PROCESSING' ? 'processing' : 'pending', {
        names: CHAPTER_STEP_NAMES,
        seed: n * 100 + index,
      }),
    });
  });
  return { book: { ...book, children: chapters.map(coreOf) }, chapters };
}

// ---- the in-memory jobs API ----

export interface JobsBackendOptions {
  /** Applied to GET /jobs (e.g. { delay: 'infinite' } or { status: 500 }). */
  list?: ReplyOptions;
  /** Applied to GET /jobs/{id} and its steps. */
  job?: ReplyOptions;
  cancel?: ReplyOptions;
  /** Applied to DELETE /jobs/{id} on a finished job (the deletion). */
  remove?: ReplyOptions;
  retry?: ReplyOptions;
}

export interface JobsBackend {
  /** Keyed by endpoint, for parameters.msw.handlers (or Object.values for setupServer). */
  handlers: {
    jobs: ReturnType<typeof getListJobsMockHandler>;
    job: ReturnType<typeof getGetJobMockHandler>;
    jobSteps: ReturnType<typeof getGetJobStepsMockHandler>;
    cancelJob: ReturnType<typeof getCancelJobMockHandler>;
    retryJob: ReturnType<typeof getRetryJobMockHandler>;
  };
  /** Every GET /jobs URL asked, oldest first (the spy). */
  listRequests: URL[];
  /** The stored jobs as they are now. */
  jobs: () => Job[];
  /** Change a stored job as the server would (e.g. progress moves on), for polling stories. */
  patch: (id: string, patch: Partial<Job>) => Job;
  /** Store a new job, first in the list, as the server does on create (flow stories). */
  add: (job: Job) => Job;
  /** Back to the initial jobs, requests forgotten (call it in a story's beforeEach). */
  reset: () => void;
}

const sortFields = ['created_at', 'updated_at', 'title', 'status'] as const;

export function listJobsFrom(all: readonly Job[], url: URL): JobListResponse {
  const params = url.searchParams;
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const pageSize = Math.max(1, Number(params.get('page_size') ?? 10) || 10);
  const status = params.get('status')?.toLowerCase(); // case-insensitive, like the server
  const q = (params.get('q') ?? '').trim().toLowerCase();
  const sortParam = params.get('sort');
  const sort = sortFields.find((field) => field === sortParam) ?? 'created_at';
  const direction = params.get('order') === 'asc' ? 1 : -1;
  const matching = all.filter((job) => {
    if (params.get('top_level') === 'true' && job.parent_job_id) return false;
    if (status === 'running' && job.status !== 'PENDING' && job.status !== 'PROCESSING') return false;
    // listenable: finished jobs and books still converting with a chapter ready (docs/listening.md).
    if (status === 'listenable' && !isListenable(toJobSummary(job))) return false;
    if (status && status !== 'running' && status !== 'listenable' && job.status !== status.toUpperCase()) return false;
    if (q && !job.title.toLowerCase().includes(q) && !job.id.startsWith(q)) return false;
    return true;
  });
  const sorted = [...matching].sort((a, b) => String(a[sort]).localeCompare(String(b[sort])) * direction);
  const start = (page - 1) * pageSize;
  return {
    jobs: sorted.slice(start, start + pageSize).map(toJobSummary),
    total: matching.length,
    page,
    page_size: pageSize,
    total_pages: Math.ceil(matching.length / pageSize),
  };
}

/** The server's answer for an id it does not know (or not the reader's). */
export const jobNotFound = (): never => failWith(404, errorBodyFixture('Job not found'));

export function jobsBackend(initial: readonly Job[], options: JobsBackendOptions = {}): JobsBackend {
  let jobs: Job[] = structuredClone([...initial]);
  const listRequests: URL[] = [];
  const find = (id: unknown) => jobs.find((job) => job.id === id);
  const update = (id: string, patch: Partial<Job>): Job => {
    jobs = jobs.map((job) => (job.id === id ? { ...job, ...patch } : job));
    return find(id)!;
  };
  const now = () => new Date().toISOString();

  return {
    listRequests,
    jobs: () => jobs,
    patch: (id, patch) => update(id, patch),
    add: (job) => {
      jobs = [structuredClone(job), ...jobs];
      return find(job.id)!;
    },
    reset: () => {
      jobs = structuredClone([...initial]);
      listRequests.length = 0;
    },
    handlers: {
      jobs: getListJobsMockHandler(({ request }) => {
        const url = new URL(request.url);
        listRequests.push(url);
        return respond(options.list ?? {}, () => listJobsFrom(jobs, url));
      }),
      job: getGetJobMockHandler(({ params }) => {
        const job = find(params.jobId);
        return respond(options.job ?? {}, () => job ?? jobNotFound());
      }),
      jobSteps: getGetJobStepsMockHandler(({ params }) => {
        const job = find(params.jobId);
        return respond(options.job ?? {}, () => job?.steps ?? jobNotFound());
      }),
      cancelJob: getCancelJobMockHandler(async ({ params, request }) => {
        const job = find(params.jobId) ?? jobNotFound();
        const active = isActiveStatus(job.status);
        const deleting = new URL(request.url).searchParams.get('delete') === 'true';
        // As the server does: deleting needs ?delete=true and a finished job; cancelling an active one.
        if (deleting === active) {
          failWith(
            409,
            errorBodyFixture(
              active
                ? `Cannot delete a job that is ${job.status}; cancel it first`
                : `Cannot cancel a job that is ${job.status}`,
            ),
          );
        }
        if (deleting) {
          // A finished job is deleted, with its chapters; 204, no body.
          return respond(options.remove ?? {}, () => {
            jobs = jobs.filter((other) => other.id !== job.id && other.parent_job_id !== job.id);
          });
        }
        return respond(options.cancel ?? {}, () => update(job.id, { status: 'CANCELLED', updated_at: now() }));
      }),
      retryJob: getRetryJobMockHandler(({ params }) => {
        const job = find(params.jobId) ?? jobNotFound();
        return respond(options.retry ?? {}, () =>
          update(job.id, {
            status: 'PENDING',
            error_message: null,
            updated_at: now(),
            steps: job.steps.map((step) =>
              step.status === 'FAILED' ? { ...step, status: 'PENDING', error_message: null, progress: 0 } : step,
            ),
          }),
        );
      }),
    },
  };
}
