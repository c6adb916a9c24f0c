import { useState } from 'react';
import { Alert, Button, TextField } from '../../components/ui';
import {
  changePassword,
  changePasswordSchema,
  FormStack,
  loadStrengthEstimator,
  NewPasswordFields,
  personalInputs,
  useAuthForm,
  weakPasswordMessage,
  type ChangePasswordForm,
} from '../../features/auth';
import { Muted, Section } from './Section';

const initialValues: ChangePasswordForm = { currentPassword: '', password: '', confirmPassword: '' };

/**
 * A new password, with the current one: the sign-up strength rule applies, every other device is
 * signed out, and this one stays signed in.
 */
export function ChangePasswordSection({ email }: { email: string }) {
  // A new form after each change, so the fields start empty again.
  const [round, setRound] = useState(0);
  const [changed, setChanged] = useState(false);
  return (
    <Section title="Password">
      {changed && (
        <Alert tone="success">
          Your password is changed. Every other device was signed out; this one stays signed in.
        </Alert>
      )}
      <ChangePasswordForm
        key={round}
        email={email}
        onChanged={() => {
          setChanged(true);
          setRound((n) => n + 1);
        }}
      />
    </Section>
  );
}

function ChangePasswordForm({ email, onChanged }: { email: string; onChanged: () => void }) {
  const form = useAuthForm(changePasswordSchema, initialValues);
  const onSubmit = form.onSubmit(async (values) => {
    const estimate = await loadStrengthEstimator().catch(() => null);
    const rated = estimate?.(values.password, personalInputs(email));
    if (rated && !rated.acceptable) return { password: weakPasswordMessage(rated) };
    await changePassword(values.currentPassword, values.password);
    onChanged();
  }, 'Your password could not be changed. Check your connection and try again.');
  return (
    <>
      <Muted>Changing it signs out every other device where you are signed in.</Muted>
      {form.serverError && <Alert tone="error">{form.serverError}</Alert>}
      <FormStack noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Change password">
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          {...form.text('currentPassword')}
        />
        <NewPasswordFields email={email} password={form.text('password')} confirm={form.text('confirmPassword')} />
        <div>
          <Button type="submit" disabled={form.submitting}>
            {form.submitting ? 'Changing...' : 'Change password'}
          </Button>
        </div>
      </FormStack>
    </>
  );
}
