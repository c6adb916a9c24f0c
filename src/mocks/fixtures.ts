import type { EnvironmentInfo, ErrorBody, Job, JobListResponse, TokenResponse, User } from '../api/gen/model';

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

export function tokenFixture(overrides: Partial<TokenResponse> = {}): TokenResponse {
  return { access_token: 'test-access-token', token_type: 'bearer', expires_in: 3600, ...overrides };
}

export function environmentFixture(
  overrides: { environment?: EnvironmentInfo['environment']; features?: Partial<EnvironmentInfo['features']> } = {},
): EnvironmentInfo {
  return {
    environment: overrides.environment ?? 'dev',
    features: { signup_enabled: true, debug_mode: true, demo_mode: false, ...overrides.features },
  };
}

export function errorBodyFixture(message: string, extra: Partial<ErrorBody> = {}): ErrorBody {
  return { detail: message, message, ...extra };
}

export function jobFixture(overrides: Partial<Job> = {}): Job {
  return {
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
}

export function jobListFixture(jobs: Job[] = [], overrides: Partial<JobListResponse> = {}): JobListResponse {
  return { jobs, total: jobs.length, page: 1, page_size: 10, total_pages: jobs.length ? 1 : 0, ...overrides };
}

/** The answer to the top bar's count query: `status=running&page_size=1`, only `total` matters. */
export function runningCountFixture(total: number): JobListResponse {
  return jobListFixture(total > 0 ? [jobFixture()] : [], { total, page_size: 1, total_pages: total });
}
