import { MatchersV3 } from '@pact-foundation/pact';

const { fromProviderState } = MatchersV3;

/** Examples the consumer tests run with; the provider injects the real values of its seeded data. */
export const EXAMPLE_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.e30.sig';
export const EXAMPLE_JOB_ID = '3f2b8c1e-7a4d-4e6f-9b0a-1c2d3e4f5a6b';
export const EXAMPLE_CHAPTER_ID = '8d7c6b5a-4e3f-4a1b-9c8d-7e6f5a4b3c2d';
export const EXAMPLE_FILE_KEY = 'uploads/5a0b8a7e-2f3c-4d5e-9f60-718293a4b5c6/9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b.txt';

/** The Authorization header of the state's signed-in user. */
export const bearer = () => ({ Authorization: fromProviderState('Bearer ${token}', `Bearer ${EXAMPLE_TOKEN}`) });

/** A path with the state's job id, e.g. jobPath('/api/v1/audio/{id}/stream'). */
export const jobPath = (template: string, variable = 'jobId', example = EXAMPLE_JOB_ID) =>
  fromProviderState(template.replace('{id}', `\${${variable}}`), template.replace('{id}', example));
