import { describe, expect, it } from 'vitest';
import * as audio from '../api/gen/endpoints/audio/audio.msw';
import * as auth from '../api/gen/endpoints/auth/auth.msw';
import * as environment from '../api/gen/endpoints/environment/environment.msw';
import * as files from '../api/gen/endpoints/files/files.msw';
import * as jobs from '../api/gen/endpoints/jobs/jobs.msw';
import * as progress from '../api/gen/endpoints/progress/progress.msw';
import * as voice from '../api/gen/endpoints/voice-assistant/voice-assistant.msw';
import {
  AudioMetadata,
  EnvironmentInfo,
  FileUploadResponse,
  Job,
  JobListResponse,
  JobPreview,
  JobStepList,
  PlaybackProgress,
  PlaybackProgressList,
  StreamInfo,
  TokenResponse,
  User,
  VoiceAssistantConnectResponse,
  VoiceAssistantStatus,
} from '../api/gen/model';

// The generated handlers' own answers (faker data, used where a story gives no fixture) follow the
// contract: each parses with the schema the client validates that answer with.
describe('generated msw answers follow the contract', () => {
  it.each([
    ['register', User, auth.getRegisterResponseMock],
    ['login', TokenResponse, auth.getLoginResponseMock],
    ['me', User, auth.getGetCurrentUserResponseMock],
    ['environment', EnvironmentInfo, environment.getGetEnvironmentResponseMock],
    ['upload', FileUploadResponse, files.getUploadFileResponseMock],
    ['list jobs', JobListResponse, jobs.getListJobsResponseMock],
    ['create job', Job, jobs.getCreateJobResponseMock],
    ['preview', JobPreview, jobs.getPreviewJobResponseMock],
    ['get job', Job, jobs.getGetJobResponseMock],
    ['steps', JobStepList, jobs.getGetJobStepsResponseMock],
    ['retry', Job, jobs.getRetryJobResponseMock],
    ['stream', StreamInfo, audio.getGetAudioStreamResponseMock],
    ['metadata', AudioMetadata, audio.getGetAudioMetadataResponseMock],
    ['recent progress', PlaybackProgressList, progress.getGetRecentProgressResponseMock],
    ['save progress', PlaybackProgress, progress.getSaveProgressResponseMock],
    ['voice status', VoiceAssistantStatus, voice.getGetVoiceAssistantStatusResponseMock],
    ['voice connect', VoiceAssistantConnectResponse, voice.getConnectVoiceAssistantResponseMock],
  ] as const)('%s', (_, schema, mock) => {
    for (let i = 0; i < 20; i += 1) {
      const result = schema.safeParse(mock());
      expect(result.error?.issues ?? []).toEqual([]);
    }
  });
});
