import { useId, useState } from 'react';
import styled from 'styled-components';
import { Link, Redirect, useLocation } from 'wouter';
import { Alert, Button, Checkbox, Spinner, TextField } from '../../components/ui';
import { paths } from '../../lib/paths';
import {
  Aside,
  AuthFrame,
  FormStack,
  loadStrengthEstimator,
  PasswordStrengthMeter,
  personalInputs,
  register,
  registerFormSchema,
  useAuthForm,
  usePasswordStrength,
  weakPasswordMessage,
  type RegisterForm,
} from '../../features/auth';
import { useEnvironment } from '../../features/environment';

const Policies = styled.p`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
  display: flex;
  gap: ${({ theme }) => theme.space(1)};
  flex-wrap: wrap;
  align-items: baseline;
`;

const initialValues: RegisterForm = { email: '', password: '', confirmPassword: '', acceptTerms: false };

type Policy = 'terms' | 'privacy';
const policyTitle: Record<Policy, string> = { terms: 'Terms of Service', privacy: 'Privacy Policy' };

export function Register() {
  const [, navigate] = useLocation();
  const environment = useEnvironment();
  const noteId = useId();
  const form = useAuthForm(registerFormSchema, initialValues);
  const [openPolicy, setOpenPolicy] = useState<Policy | null>(null);
  const strength = usePasswordStrength(form.values.password, form.values.email);

  if (!environment) return <Spinner />;
  if (!environment.features.signup_enabled) return <Redirect to={paths.login()} replace />;

  const onSubmit = form.onSubmit(async (values) => {
    // The server refuses easily guessed passwords too; saying so here saves a round trip. If the
    // estimator cannot load, the server's answer decides.
    const estimate = await loadStrengthEstimator().catch(() => null);
    const rated = estimate?.(values.password, personalInputs(values.email));
    if (rated && !rated.acceptable) return { password: weakPasswordMessage(rated) };
    await register({ email: values.email, password: values.password });
    navigate(paths.dashboard());
  }, 'Failed to create account. Please try again.');

  // The documents are not published yet (docs/product.md#session): say so rather than link nowhere.
  const policyButton = (policy: Policy) => (
    <Button
      variant="link"
      aria-expanded={openPolicy === policy}
      aria-controls={noteId}
      onClick={() => setOpenPolicy(openPolicy === policy ? null : policy)}
    >
      {policyTitle[policy]}
    </Button>
  );

  return (
    <AuthFrame title="Create your account">
      {form.serverError && <Alert tone="error">{form.serverError}</Alert>}
      <FormStack noValidate onSubmit={onSubmit} aria-label="Create account">
        <TextField label="Email" type="email" autoComplete="email" {...form.text('email')} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters, and hard to guess: a few unusual words work well."
          {...form.text('password')}
        />
        <PasswordStrengthMeter strength={strength} />
        <TextField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          {...form.text('confirmPassword')}
        />
        <Checkbox
          label="I accept the Terms of Service and the Privacy Policy"
          required
          {...form.checkbox('acceptTerms')}
        />
        <Policies>
          <span>Read the</span>
          {policyButton('terms')}
          <span>and the</span>
          {policyButton('privacy')}
        </Policies>
        <div id={noteId}>
          {openPolicy && (
            <Alert tone="info">
              The {policyTitle[openPolicy]} is not published in the app yet. Ask your administrator for a copy before
              you accept.
            </Alert>
          )}
        </div>
        <Button type="submit" fullWidth disabled={form.submitting}>
          {form.submitting ? 'Creating account...' : 'Create account'}
        </Button>
      </FormStack>
      <Aside>
        Already have an account? <Link href={paths.login()}>Sign in</Link>
      </Aside>
    </AuthFrame>
  );
}
