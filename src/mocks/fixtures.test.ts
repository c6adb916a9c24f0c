import { describe, expect, it } from 'vitest';
import { EnvironmentInfo, ErrorBody, Job, JobListResponse, TokenResponse, User } from '../api/gen/model';
import {
  environmentFixture,
  errorBodyFixture,
  jobFixture,
  jobListFixture,
  runningCountFixture,
  tokenFixture,
  userFixture,
} from './fixtures';

describe('fixtures match the generated schemas', () => {
  it.each([
    ['user', User, userFixture()],
    ['token', TokenResponse, tokenFixture()],
    ['environment (dev)', EnvironmentInfo, environmentFixture()],
    ['environment (production)', EnvironmentInfo, environmentFixture({ environment: 'production', features: { signup_enabled: false } })],
    ['error body', ErrorBody, errorBodyFixture('Email already registered')],
    ['job', Job, jobFixture()],
    ['job list', JobListResponse, jobListFixture([jobFixture(), jobFixture({ status: 'COMPLETED', progress: 100 })])],
    ['empty job list', JobListResponse, jobListFixture()],
    ['running count', JobListResponse, runningCountFixture(3)],
    ['running count zero', JobListResponse, runningCountFixture(0)],
  ])('%s', (_name, schema, value) => {
    expect(() => schema.parse(value)).not.toThrow();
  });
});
