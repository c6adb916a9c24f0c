import { getGetCurrentUserMockHandler } from '../api/gen/endpoints/auth/get-current-user.msw';
import { getLoginMockHandler } from '../api/gen/endpoints/auth/login.msw';
import { getRegisterMockHandler } from '../api/gen/endpoints/auth/register.msw';
import { getGetEnvironmentMockHandler } from '../api/gen/endpoints/environment/get-environment.msw';
import { getListJobsMockHandler } from '../api/gen/endpoints/jobs/list-jobs.msw';
import type { CurrentUser, RegisterRequest, TokenResponse, User } from '../api/gen/model';
import { answer, type ReplyOptions } from './answer';
import {
  audioMetadataHandler,
  audioTranscriptHandler,
  audioCoverHandler,
  audioStreamHandler,
  deleteProgressHandler,
  progressHandler,
  recentProgressHandler,
  saveProgressHandler,
} from './audio';
import { createJobHandler, previewJobHandler, uploadFileHandler } from './library';
import {
  changePasswordHandler,
  confirmPasswordResetHandler,
  deleteAccountHandler,
  preferencesHandler,
  putPreferencesHandler,
  requestPasswordResetHandler,
  signOutEverywhereHandler,
} from './account';
import { cancelExportHandler, exportsHandler, startExportHandler } from './exports';
import { createFeedHandler, deleteFeedHandler } from './podcast-feeds';
import {
  voiceClearConversationHandler,
  voiceConnectHandler,
  voiceConversationHandler,
  voiceStartHandler,
  voiceStatusHandler,
  voiceStopHandler,
} from './voice';
import { pronunciationsHandler, putPronunciationsHandler, reconvertHandler } from './pronunciations';
import { voiceSampleHandler, voicesHandler } from './voices';
import {
  currentUserFixture,
  environmentFixture,
  errorBodyFixture,
  runningCountFixture,
  tokenFixture,
  userFixture,
} from './fixtures';

export type { ReplyOptions } from './answer';

/**
 * The generated handler of each endpoint with realistic answers, shared by stories
 * (parameters.msw.handlers), unit tests (setupServer) and the demo mode (browser.ts). Paths match
 * any origin, so they work whatever base URL the API client is configured with.
 */
export function environmentHandler(
  overrides: Parameters<typeof environmentFixture>[0] = {},
  options: ReplyOptions = {},
) {
  return getGetEnvironmentMockHandler(answer(options, () => environmentFixture(overrides)));
}

export function environmentErrorHandler(status = 500) {
  return getGetEnvironmentMockHandler(answer({ status }, () => environmentFixture()));
}

export function loginHandler(options: ReplyOptions & { token?: Partial<TokenResponse> } = {}) {
  return getLoginMockHandler(answer(options, () => tokenFixture(options.token)));
}

/** A login refused with the server's own message, the usual 401 answer. */
export function loginRejectedHandler(message = 'Incorrect email or password') {
  return loginHandler({ status: 401, body: errorBodyFixture(message) });
}

export function registerHandler(options: ReplyOptions & { user?: Partial<User> } = {}) {
  return getRegisterMockHandler(
    answer(options, async ({ request }) => {
      const { email } = (await request.clone().json()) as Partial<RegisterRequest>;
      return userFixture({ ...(email ? { email } : {}), ...options.user });
    }),
  );
}

export function meHandler(
  options: ReplyOptions & { user?: Partial<User>; storage?: Partial<CurrentUser['storage']> } = {},
) {
  return getGetCurrentUserMockHandler(answer(options, () => currentUserFixture(options.user, options.storage)));
}

/** GET /jobs as the top bar asks it (status=running, page_size=1): answers `total` running jobs. */
export function jobsRunningCountHandler(total: number, options: ReplyOptions = {}) {
  return getListJobsMockHandler(answer(options, () => runningCountFixture(total)));
}

/** A happy API, keyed by endpoint so a story or test can replace one entry. */
export const defaultHandlers = {
  environment: environmentHandler(),
  login: loginHandler(),
  register: registerHandler(),
  me: meHandler(),
  jobs: jobsRunningCountHandler(0),
  createJob: createJobHandler(),
  uploadFile: uploadFileHandler(),
  previewJob: previewJobHandler(),
  audioStream: audioStreamHandler(),
  audioCover: audioCoverHandler(),
  audioMetadata: audioMetadataHandler(),
  audioTranscript: audioTranscriptHandler(),
  progress: progressHandler(),
  saveProgress: saveProgressHandler(),
  deleteProgress: deleteProgressHandler(),
  recentProgress: recentProgressHandler(),
  voiceStatus: voiceStatusHandler(),
  voiceStart: voiceStartHandler(),
  voiceStop: voiceStopHandler(),
  voiceConnect: voiceConnectHandler(),
  exports: exportsHandler(),
  startExport: startExportHandler(),
  cancelExport: cancelExportHandler(),
  createFeed: createFeedHandler(),
  deleteFeed: deleteFeedHandler(),
  voiceConversation: voiceConversationHandler(),
  voiceClearConversation: voiceClearConversationHandler(),
  voices: voicesHandler(),
  voiceSample: voiceSampleHandler(),
  pronunciations: pronunciationsHandler(),
  putPronunciations: putPronunciationsHandler(),
  reconvert: reconvertHandler(),
  preferences: preferencesHandler(),
  putPreferences: putPreferencesHandler(),
  changePassword: changePasswordHandler(),
  signOutEverywhere: signOutEverywhereHandler(),
  deleteAccount: deleteAccountHandler(),
  requestPasswordReset: requestPasswordResetHandler(),
  confirmPasswordReset: confirmPasswordResetHandler(),
};

/** The same happy API as a list (demo mode, setupServer). */
export const handlers = Object.values(defaultHandlers);
