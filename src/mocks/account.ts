import { getChangePasswordMockHandler } from '../api/gen/endpoints/auth/change-password.msw';
import { getConfirmPasswordResetMockHandler } from '../api/gen/endpoints/auth/confirm-password-reset.msw';
import { getDeleteAccountMockHandler } from '../api/gen/endpoints/auth/delete-account.msw';
import { getGetPreferencesMockHandler } from '../api/gen/endpoints/auth/get-preferences.msw';
import { getPutPreferencesMockHandler } from '../api/gen/endpoints/auth/put-preferences.msw';
import { getRequestPasswordResetMockHandler } from '../api/gen/endpoints/auth/request-password-reset.msw';
import { getSignOutEverywhereMockHandler } from '../api/gen/endpoints/auth/sign-out-everywhere.msw';
import type { DefaultVoice, Preferences, PreferencesUpdate } from '../api/gen/model';
import { answer, type ReplyOptions } from './answer';
import { tokenFixture } from './fixtures';

/** The account page's and the password reset's calls (src/screens/Account, ForgotPassword, ResetPassword). */
function preferencesFixture(
  defaultVoice: DefaultVoice | null = null,
  defaultSpeed: Preferences['default_speed'] = null,
): Preferences {
  return { default_voice: defaultVoice, default_speed: defaultSpeed };
}

/** GET /auth/preferences: the saved voice and speed for new books (null: nothing saved). */
export function preferencesHandler(
  defaultVoice: DefaultVoice | null = null,
  options: ReplyOptions = {},
  defaultSpeed: Preferences['default_speed'] = null,
) {
  return getGetPreferencesMockHandler(answer(options, () => preferencesFixture(defaultVoice, defaultSpeed)));
}

/**
 * PUT /auth/preferences: a partial update, answered as the server saves it: the fields sent over
 * `saved` (what GET answers in the same story), the others as they were.
 */
export function putPreferencesHandler(options: ReplyOptions = {}, saved: Partial<Preferences> = {}) {
  return getPutPreferencesMockHandler(
    answer(options, async ({ request }) => ({
      ...preferencesFixture(),
      ...saved,
      ...((await request.clone().json()) as PreferencesUpdate),
    })),
  );
}

export function changePasswordHandler(options: ReplyOptions = {}) {
  return getChangePasswordMockHandler(answer(options, () => tokenFixture({ access_token: 'token-after-change' })));
}

export function signOutEverywhereHandler(options: ReplyOptions = {}) {
  return getSignOutEverywhereMockHandler(answer(options, () => undefined));
}

export function deleteAccountHandler(options: ReplyOptions = {}) {
  return getDeleteAccountMockHandler(answer(options, () => undefined));
}

export function requestPasswordResetHandler(options: ReplyOptions = {}) {
  return getRequestPasswordResetMockHandler(answer(options, () => undefined));
}

export function confirmPasswordResetHandler(options: ReplyOptions = {}) {
  return getConfirmPasswordResetMockHandler(answer(options, () => undefined));
}
