import { delay, http, HttpResponse, type JsonBodyType } from 'msw';
import type { EnvironmentInfo, TokenResponse, User } from '../api/gen/model';
import {
  audioMetadataHandler,
  audioCoverHandler,
  audioStreamHandler,
  deleteProgressHandler,
  progressHandler,
  recentProgressHandler,
  saveProgressHandler,
} from './audio';
import { createJobHandler, previewJobHandler, uploadFileHandler } from './library';
import { voiceConnectHandler, voiceStartHandler, voiceStatusHandler, voiceStopHandler } from './voice';
import {
  environmentFixture,
  errorBodyFixture,
  runningCountFixture,
  tokenFixture,
  userFixture,
} from './fixtures';

/**
 * msw handler factories, one per endpoint, shared by stories (parameters.msw.handlers), unit tests
 * (setupServer) and the dev worker (browser.ts). Paths match any origin, so they work whatever
 * base URL the API client is configured with.
 */
export interface ReplyOptions {
  /** An error status; without `body` the answer has no body at all. */
  status?: number;
  /** The error body to send with `status`, e.g. errorBodyFixture('Email already registered'). */
  body?: JsonBodyType;
  /** Milliseconds to wait, or 'infinite' to keep the request pending (loading states). */
  delay?: number | 'infinite';
}

const api = (path: string) => `*/api/v1${path}`;

async function reply(options: ReplyOptions, success: () => JsonBodyType): Promise<Response> {
  if (options.delay !== undefined) await delay(options.delay);
  if (options.status && options.status >= 400) {
    return options.body === undefined
      ? new HttpResponse(null, { status: options.status })
      : HttpResponse.json(options.body, { status: options.status });
  }
  return HttpResponse.json(success(), { status: options.status ?? 200 });
}

export function environmentHandler(
  overrides: Parameters<typeof environmentFixture>[0] = {},
  options: ReplyOptions = {},
) {
  const info: EnvironmentInfo = environmentFixture(overrides);
  return http.get(api('/environment'), () => reply(options, () => info));
}

export function environmentErrorHandler(status = 500) {
  return http.get(api('/environment'), () => reply({ status }, () => null));
}

export function loginHandler(options: ReplyOptions & { token?: Partial<TokenResponse> } = {}) {
  return http.post(api('/auth/login'), () => reply(options, () => tokenFixture(options.token)));
}

/** A login refused with the server's own message, the usual 401 answer. */
export function loginRejectedHandler(message = 'Incorrect email or password') {
  return loginHandler({ status: 401, body: errorBodyFixture(message) });
}

export function registerHandler(options: ReplyOptions & { user?: Partial<User> } = {}) {
  return http.post(api('/auth/register'), async ({ request }) => {
    const { email } = (await request.clone().json()) as { email?: string };
    return reply(options, () => userFixture({ ...(email ? { email } : {}), ...options.user }));
  });
}

export function meHandler(options: ReplyOptions & { user?: Partial<User> } = {}) {
  return http.get(api('/auth/me'), () => reply(options, () => userFixture(options.user)));
}

/** GET /jobs as the top bar asks it (status=running, page_size=1): answers `total` running jobs. */
export function jobsRunningCountHandler(total: number, options: ReplyOptions = {}) {
  return http.get(api('/jobs'), () => reply(options, () => runningCountFixture(total)));
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
  progress: progressHandler(),
  saveProgress: saveProgressHandler(),
  deleteProgress: deleteProgressHandler(),
  recentProgress: recentProgressHandler(),
  voiceStatus: voiceStatusHandler(),
  voiceStart: voiceStartHandler(),
  voiceStop: voiceStopHandler(),
  voiceConnect: voiceConnectHandler(),
};

/** The same happy API as a list (dev worker, setupServer). */
export const handlers = Object.values(defaultHandlers);
