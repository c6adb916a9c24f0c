import { useState } from 'react';
import { Link } from 'wouter';
import { Alert, Button } from '../../components/ui';
import { paths } from '../../lib/paths';
import {
  Aside,
  AuthFrame,
  confirmPasswordReset,
  FormStack,
  loadStrengthEstimator,
  logout,
  newPasswordSchema,
  NewPasswordFields,
  useAuthForm,
  weakPasswordMessage,
  type NewPasswordForm,
} from '../../features/auth';

const initialValues: NewPasswordForm = { password: '', confirmPassword: '' };

/** The token of a reset link (`/reset-password#token=...`: a fragment never reaches a server's log). */
function tokenFromHash(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token === null || token.trim() === '' ? null : token.trim();
}

/**
 * The page a reset link opens (emailed, or made by the operator): a new password, once. Every
 * session of the account is signed out; the reader then signs in with the new password.
 */
export function ResetPassword({ hash = globalThis.location?.hash ?? '' }: { hash?: string }) {
  const [token] = useState(() => tokenFromHash(hash));
  const [done, setDone] = useState(false);
  const form = useAuthForm(newPasswordSchema, initialValues);
  const onSubmit = form.onSubmit(async (values) => {
    const estimate = await loadStrengthEstimator().catch(() => null);
    const rated = estimate?.(values.password, []);
    if (rated && !rated.acceptable) return { password: weakPasswordMessage(rated) };
    await confirmPasswordReset(token!, values.password);
    // Every session of the account has just ended, this browser's too.
    logout();
    setDone(true);
  }, 'Your new password could not be saved. Check your connection and try again.');

  if (token === null) {
    return (
      <AuthFrame title="Set a new password">
        <Alert tone="error">This link is incomplete. Open the whole link from the email, or ask for a new one.</Alert>
        <Aside>
          <Link href={paths.forgotPassword()}>Ask for a new link</Link>
        </Aside>
      </AuthFrame>
    );
  }
  if (done) {
    return (
      <AuthFrame title="Set a new password">
        <Alert tone="success">Your new password is set, and every device that was signed in has been signed out.</Alert>
        <Aside>
          <Link href={paths.login()}>Sign in with your new password</Link>
        </Aside>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Set a new password">
      {form.serverError && (
        <Alert tone="error">
          {form.serverError} <Link href={paths.forgotPassword()}>Ask for a new link</Link>
        </Alert>
      )}
      <FormStack noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Set a new password">
        <NewPasswordFields password={form.text('password')} confirm={form.text('confirmPassword')} />
        <Button type="submit" fullWidth disabled={form.submitting}>
          {form.submitting ? 'Saving...' : 'Set new password'}
        </Button>
      </FormStack>
    </AuthFrame>
  );
}
