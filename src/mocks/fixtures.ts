import type {
  CurrentUser,
  EnvironmentInfo,
  ErrorBody,
  Job,
  JobListResponse,
  JobSummary,
  TokenResponse,
  User,
} from '../api/gen/model';
import { isListenable } from '../entities/job';
import { nameCover } from './covers';

/**
 * Fake data shared by stories, unit tests and the dev worker. Every factory returns a value that
 * the generated zod schemas accept (fixtures.test.ts proves it); pass overrides for one story.
 */
export function userFixture(overrides: Partial<User> = {}): User {
  return {
    id: '3f1c2a4e-8b7d-4c3a-9e2f-1a2b3c4d5e6f',
    email: 'reader@example.com',
    created_at: '2025-01-15T09:30:00Z',
    ...overrides,
  };
}

/** GET /auth/me: the user and their storage (12 MB of 2 GB used unless `storage` says otherwise). */
export function currentUserFixture(
  overrides: Partial<User> = {},
  storage: Partial<CurrentUser['storage']> = {},
): CurrentUser {
  return {
    ...userFixture(overrides),
    storage: { used_bytes: 12 * 1024 * 1024, quota_bytes: 2 * 1024 * 1024 * 1024, ...storage },
  };
}

export function tokenFixture(overrides: Partial<TokenResponse> = {}): TokenResponse {
  return { access_token: 'test-access-token', token_type: 'bearer', expires_in: 3600, ...overrides };
}

export function environmentFixture(
  overrides: {
    environment?: EnvironmentInfo['environment'];
    features?: Partial<EnvironmentInfo['features']>;
    legal?: EnvironmentInfo['legal'];
  } = {},
): EnvironmentInfo {
  return {
    environment: overrides.environment ?? 'dev',
    features: { signup_enabled: true, debug_mode: true, demo_mode: false, ...overrides.features },
    ...(overrides.legal !== undefined && { legal: overrides.legal }),
  };
}

export function errorBodyFixture(message: string, extra: Partial<ErrorBody> = {}): ErrorBody {
  return { detail: message, message, ...extra };
}

export function jobFixture(overrides: Partial<Job> = {}): Job {
  const job: Job = {
    id: '9b2e7c1a-4d5f-4e6a-8b9c-0d1e2f3a4b5c',
    user_id: userFixture().id,
    parent_job_id: null,
    job_type: 'text_to_audio',
    title: 'The Tell-Tale Heart',
    description: null,
    status: 'PROCESSING',
    progress: 40,
    error_message: null,
    config: { voice_config: { provider: 'openai', voice_id: 'alloy' }, provider: 'openai', source: 'content' },
    result_data: {},
    input_file_key: null,
    output_file_key: null,
    created_at: '2025-02-01T10:00:00Z',
    updated_at: '2025-02-01T10:01:00Z',
    started_at: '2025-02-01T10:00:05Z',
    completed_at: null,
    duration: null,
    steps: [],
    children: [],
    parent: null,
    ...overrides,
  };
  // The book's cover in the stories carries its title, as the server's does.
  if (job.parent_job_id === null) nameCover(job.id, job.title);
  return job;
}

/**
 * A job as GET /jobs lists it, made the way the server makes it: the voice and the result's
 * figures, and the number of chapters instead of the chapters themselves.
 */
export function toJobSummary(job: Job | JobSummary): JobSummary {
  if (!('steps' in job)) return job;
  const { voice_config, provider, author } = job.config;
  const { duration, duration_seconds, file_size_bytes, tts_engine } = job.result_data;
  const chaptersReady = job.children.filter((child) => child.status === 'COMPLETED').length;
  return {
    id: job.id,
    user_id: job.user_id,
    parent_job_id: job.parent_job_id,
    job_type: job.job_type,
    title: job.title,
    description: job.description,
    status: job.status,
    progress: job.progress,
    error_message: job.error_message,
    config: {
      ...(voice_config !== undefined && { voice_config }),
      ...(provider !== undefined && { provider }),
      ...(author !== undefined && { author }),
    },
    result_data: {
      ...(duration !== undefined && { duration }),
      ...(duration_seconds !== undefined && { duration_seconds }),
      ...(file_size_bytes !== undefined && { file_size_bytes }),
      ...(tts_engine !== undefined && { tts_engine }),
    },
    input_file_key: job.input_file_key,
    output_file_key: job.output_file_key,
    created_at: job.created_at,
    updated_at: job.updated_at,
    started_at: job.started_at,
    completed_at: job.completed_at,
    duration: job.duration,
    chapter_count:
      job.children.length || job.result_data.child_job_ids?.length || job.result_data.chapters?.length || 0,
    // As the server counts them: the chapter jobs already converted (0 for a job that is not a book).
    chapters_ready: chaptersReady,
    // As the server has it: finished, or converting with a chapter ready (a whole job names no
    // opening: a summary whose opening plays is built with `listenable: true` directly).
    listenable: isListenable({ status: job.status, chapters_ready: chaptersReady }),
  };
}

/** A page of the list; whole jobs are listed as their summaries, as the server lists them. */
export function jobListFixture(
  jobs: (Job | JobSummary)[] = [],
  overrides: Partial<JobListResponse> = {},
): JobListResponse {
  return {
    jobs: jobs.map(toJobSummary),
    total: jobs.length,
    page: 1,
    page_size: 10,
    total_pages: jobs.length ? 1 : 0,
    ...overrides,
  };
}

/** The answer to the top bar's count query: `status=running&page_size=1`, only `total` matters. */
export function runningCountFixture(total: number): JobListResponse {
  return jobListFixture(total > 0 ? [jobFixture()] : [], { total, page_size: 1, total_pages: total });
}
