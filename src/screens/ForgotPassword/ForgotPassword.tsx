import { useState } from 'react';
import { Link } from 'wouter';
import { Alert, Button, Spinner, TextField } from '../../components/ui';
import { paths } from '../../lib/paths';
import {
  Aside,
  AuthFrame,
  FormStack,
  forgotPasswordSchema,
  requestPasswordReset,
  useAuthForm,
  type ForgotPasswordForm,
} from '../../features/auth';
import { useEnvironment } from '../../features/environment';

const initialValues: ForgotPasswordForm = { email: '' };

/**
 * "Forgot password?" (docs/product.md#session): where the server emails reset links, the reader
 * asks for one; elsewhere the page says to ask the operator, who can make a link.
 */
export function ForgotPassword() {
  const environment = useEnvironment();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useAuthForm(forgotPasswordSchema, initialValues);
  const onSubmit = form.onSubmit(async (values) => {
    await requestPasswordReset(values.email.trim());
    setSentTo(values.email.trim());
  }, 'The link could not be requested. Check your connection and try again.');

  const back = (
    <Aside>
      Remembered it? <Link href={paths.login()}>Sign in</Link>
    </Aside>
  );
  if (!environment) return <Spinner label="Loading..." />;
  if (!environment.features.password_reset_email) {
    return (
      <AuthFrame title="Forgot your password?">
        <Alert tone="info">
          This server does not send email. Ask the person who runs it (its operator) for a link to set a new password:
          they can make one for your email address.
        </Alert>
        {back}
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Forgot your password?">
      {sentTo !== null ? (
        <Alert tone="success">
          If {sentTo} has an account, a link to set a new password is on its way. It works once, within an hour. Check
          your spam folder if it does not arrive in a few minutes.
        </Alert>
      ) : (
        <>
          {form.serverError && <Alert tone="error">{form.serverError}</Alert>}
          <p>Enter the email you signed up with, and we will send you a link to set a new password.</p>
          <FormStack noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Ask for a reset link">
            <TextField label="Email" type="email" autoComplete="email" {...form.text('email')} />
            <Button type="submit" fullWidth disabled={form.submitting}>
              {form.submitting ? 'Sending...' : 'Send me a link'}
            </Button>
          </FormStack>
        </>
      )}
      {back}
    </AuthFrame>
  );
}
