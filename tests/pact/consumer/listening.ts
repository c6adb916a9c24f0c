import { MatchersV3 } from '@pact-foundation/pact';
import { isoTimestamp } from './pact';

const { fromProviderState, like, number, regex, string, uuid } = MatchersV3;

/** Examples the consumer tests run with; the provider injects the real values of its seeded data. */
export const EXAMPLE_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.e30.sig';
export const EXAMPLE_JOB_ID = '3f2b8c1e-7a4d-4e6f-9b0a-1c2d3e4f5a6b';
export const EXAMPLE_CHAPTER_ID = '8d7c6b5a-4e3f-4a1b-9c8d-7e6f5a4b3c2d';
/** The reader the states sign in (their id as the consumer tests expect it). */
export const EXAMPLE_USER_ID = '5a0b8a7e-2f3c-4d5e-9f60-718293a4b5c6';
export const EXAMPLE_FILE_KEY = 'uploads/5a0b8a7e-2f3c-4d5e-9f60-718293a4b5c6/9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b.txt';

/** The Authorization header of the state's signed-in user. */
export const bearer = () => ({ Authorization: fromProviderState('Bearer ${token}', `Bearer ${EXAMPLE_TOKEN}`) });

/** A path with the state's job id, e.g. jobPath('/api/v1/audio/{id}/stream'). */
export const jobPath = (template: string, variable = 'jobId', example = EXAMPLE_JOB_ID) =>
  fromProviderState(template.replace('{id}', `\${${variable}}`), template.replace('{id}', example));

/**
 * The summary of the states' converting book "The Long Voyage" in the job list, with its chapter
 * counts (and any other field) as the caller matches them.
 */
export function convertingBookSummary(counts: Record<string, unknown>) {
  return {
    id: uuid(EXAMPLE_JOB_ID),
    user_id: uuid(EXAMPLE_USER_ID),
    parent_job_id: null,
    job_type: 'book_processing',
    title: string('The Long Voyage'),
    description: null,
    status: regex(/^(PENDING|PROCESSING)$/, 'PROCESSING'),
    progress: number(50),
    error_message: null,
    config: like({ voice_config: { provider: 'openai', voice_id: 'alloy' }, provider: 'openai' }),
    result_data: like({}),
    input_file_key: null,
    output_file_key: null,
    created_at: isoTimestamp(),
    updated_at: isoTimestamp(),
    started_at: isoTimestamp(),
    completed_at: null,
    duration: null,
    ...counts,
  };
}
