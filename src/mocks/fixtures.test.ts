import {
  AudioMetadata,
  FileUploadResponse,
  JobPreview,
  PlaybackProgress,
  PlaybackProgressList,
  PlaybackProgressOrNull,
  StreamInfo,
} from '../api/gen/model';
import { audioMetadataFixture, progressFixture, streamInfoFixture } from './audio';
import { tutoringAnalysisFixture } from './jobs';
import {
  cloudPreviewFixture,
  completedJobFixture,
  jobPreviewFixture,
  textPreviewFixture,
  libraryShelfFixture,
} from './library';
import { describe, expect, it } from 'vitest';
import { CurrentUser, EnvironmentInfo, ErrorBody, Job, JobListResponse, TokenResponse, User } from '../api/gen/model';
import {
  currentUserFixture,
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
    ['current user (GET /auth/me)', CurrentUser, currentUserFixture()],
    ['token', TokenResponse, tokenFixture()],
    ['environment (dev)', EnvironmentInfo, environmentFixture()],
    [
      'environment (production)',
      EnvironmentInfo,
      environmentFixture({ environment: 'production', features: { signup_enabled: false } }),
    ],
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

describe('voice assistant fixtures match the generated schemas', async () => {
  const { VoiceAssistantConnectResponse, VoiceAssistantStatus } = await import('../api/gen/model');
  const { voiceConnectFixture, voiceStatusFixture } = await import('./voice');
  it.each([
    ['status stopped', VoiceAssistantStatus, voiceStatusFixture()],
    ['status running', VoiceAssistantStatus, voiceStatusFixture({ status: 'running' })],
    ['connect', VoiceAssistantConnectResponse, voiceConnectFixture()],
  ])('%s', (_name, schema, value) => {
    expect(() => schema.parse(value)).not.toThrow();
  });
});

describe('audio and library fixtures match the generated schemas', () => {
  it.each([
    ['stream info', StreamInfo, streamInfoFixture()],
    ['audio metadata', AudioMetadata, audioMetadataFixture()],
    ['progress', PlaybackProgress, progressFixture()],
    ['no progress', PlaybackProgressOrNull, null],
    ['recent progress', PlaybackProgressList, [progressFixture(), progressFixture({ is_completed: true })]],
    ['completed job', Job, completedJobFixture()],
    ['job preview', JobPreview, jobPreviewFixture()],
    ['job preview with cloud voices', JobPreview, cloudPreviewFixture()],
    ['text preview', JobPreview, textPreviewFixture('A poem', 420)],
    ['job with analysis', Job, completedJobFixture({ config: { tutoring_analysis: tutoringAnalysisFixture() } })],
    ['library shelf', JobListResponse, jobListFixture(libraryShelfFixture())],
    ['file upload', FileUploadResponse, { file_key: 'uploads/a.txt', filename: 'a.txt', size_bytes: 12 }],
  ])('%s', (_name, schema, value) => {
    expect(() => schema.parse(value)).not.toThrow();
  });
});
