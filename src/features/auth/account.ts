import {
  changePassword as putPassword,
  confirmPasswordReset as postResetConfirm,
  deleteAccount as postDeleteAccount,
  requestPasswordReset as postResetRequest,
  signOutEverywhere as deleteSessions,
} from '../../api/gen/endpoints/auth';
import { replaceToken } from '../../entities/session';
import { logout } from './store';

// The account's own calls, apart from the session store: only the account and password pages use
// them, so they load with those pages, not with the app's start (store.ts).

/**
 * PUT /auth/password: the server signs out every other session and answers a new token for this
 * one, which replaces the old token where it was kept.
 */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  const { access_token } = await putPassword({ current_password: currentPassword, new_password: newPassword });
  replaceToken(access_token);
}

/** DELETE /auth/sessions: every session ends, this one too. */
export async function signOutEverywhere(): Promise<void> {
  await deleteSessions();
  logout();
}

/** POST /auth/account/delete, confirmed with the account's email; then signed out for good. */
export async function deleteAccount(email: string): Promise<void> {
  await postDeleteAccount({ email });
  logout();
}

/** POST /auth/password-reset: the server emails a link if the email has an account. */
export async function requestPasswordReset(email: string): Promise<void> {
  await postResetRequest({ email });
}

/** POST /auth/password-reset/confirm with the link's token. */
export async function confirmPasswordReset(token: string, password: string): Promise<void> {
  await postResetConfirm({ token, password });
}
