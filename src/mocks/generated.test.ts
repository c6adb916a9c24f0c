import { describe, expect, it } from 'vitest';
import { getGetAudioMetadataResponseMock } from '../api/gen/endpoints/audio/get-audio-metadata.msw';
import { getGetAudioStreamResponseMock } from '../api/gen/endpoints/audio/get-audio-stream.msw';
import { getGetCurrentUserResponseMock } from '../api/gen/endpoints/auth/get-current-user.msw';
import { getLoginResponseMock } from '../api/gen/endpoints/auth/login.msw';
import { getRegisterResponseMock } from '../api/gen/endpoints/auth/register.msw';
import { getGetEnvironmentResponseMock } from '../api/gen/endpoints/environment/get-environment.msw';
import { getUploadFileResponseMock } from '../api/gen/endpoints/files/upload-file.msw';
import { getCreateJobResponseMock } from '../api/gen/endpoints/jobs/create-job.msw';
import { getGetJobStepsResponseMock } from '../api/gen/endpoints/jobs/get-job-steps.msw';
import { getGetJobResponseMock } from '../api/gen/endpoints/jobs/get-job.msw';
import { getListJobsResponseMock } from '../api/gen/endpoints/jobs/list-jobs.msw';
import { getPreviewJobResponseMock } from '../api/gen/endpoints/jobs/preview-job.msw';
import { getRetryJobResponseMock } from '../api/gen/endpoints/jobs/retry-job.msw';
import { getGetRecentProgressResponseMock } from '../api/gen/endpoints/progress/get-recent-progress.msw';
import { getSaveProgressResponseMock } from '../api/gen/endpoints/progress/save-progress.msw';
import { getConnectVoiceAssistantResponseMock } from '../api/gen/endpoints/voice-assistant/connect-voice-assistant.msw';
import { getGetVoiceAssistantStatusResponseMock } from '../api/gen/endpoints/voice-assistant/get-voice-assistant-status.msw';
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
    ['register', User, getRegisterResponseMock],
    ['login', TokenResponse, getLoginResponseMock],
    ['me', User, getGetCurrentUserResponseMock],
    ['environment', EnvironmentInfo, getGetEnvironmentResponseMock],
    ['upload', FileUploadResponse, getUploadFileResponseMock],
    ['list jobs', JobListResponse, getListJobsResponseMock],
    ['create job', Job, getCreateJobResponseMock],
    ['preview', JobPreview, getPreviewJobResponseMock],
    ['get job', Job, getGetJobResponseMock],
    ['steps', JobStepList, getGetJobStepsResponseMock],
    ['retry', Job, getRetryJobResponseMock],
    ['stream', StreamInfo, getGetAudioStreamResponseMock],
    ['metadata', AudioMetadata, getGetAudioMetadataResponseMock],
    ['recent progress', PlaybackProgressList, getGetRecentProgressResponseMock],
    ['save progress', PlaybackProgress, getSaveProgressResponseMock],
    ['voice status', VoiceAssistantStatus, getGetVoiceAssistantStatusResponseMock],
    ['voice connect', VoiceAssistantConnectResponse, getConnectVoiceAssistantResponseMock],
  ] as const)('%s', (_, schema, mock) => {
    for (let i = 0; i < 20; i += 1) {
      const result = schema.safeParse(mock());
      expect(result.error?.issues ?? []).toEqual([]);
    }
  });
});
