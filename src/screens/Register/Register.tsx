import { useId, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { Link, Redirect, useLocation } from 'wouter';
import { errorMessage } from '../../api/errors';
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
  usePasswordStrength,
  weakPasswordMessage,
  registerFormSchema,
  validate,
  type FieldErrors,
  type RegisterForm,
} from '../../features/auth';
import { useEnvironment } from '../../features/environment';

const Policies = styled.p`
  margin: 0;
  font-size: 0.875rem;
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
  const [values, setValues] = useState<RegisterForm>(initialValues);
  const [errors, setErrors] = useState<FieldErrors<RegisterForm>>({});
  const [attempted, setAttempted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [openPolicy, setOpenPolicy] = useState<Policy | null>(null);
  const strength = usePasswordStrength(values.password, values.email);

  if (!environment) return <Spinner />;
  if (!environment.features.signup_enabled) return <Redirect to={paths.login()} replace />;

  const update = <K extends keyof RegisterForm>(field: K, value: RegisterForm[K]) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (attempted) setErrors(validate(registerFormSchema, next) ?? {});
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAttempted(true);
    const invalid = validate(registerFormSchema, values);
    setErrors(invalid ?? {});
    if (invalid) return;
    setSubmitting(true);
    setServerError(null);
    // The server refuses easily guessed passwords too; saying so here saves a round trip. If the
    // estimator cannot load, the server's answer decides.
    const estimate = await loadStrengthEstimator().catch(() => null);
    const rated = estimate?.(values.password, personalInputs(values.email));
    if (rated && !rated.acceptable) {
      setErrors({ password: weakPasswordMessage(rated) });
      setSubmitting(false);
      return;
    }
    try {
      await register({ email: values.email, password: values.password });
      navigate(paths.dashboard());
    } catch (error) {
      setServerError(errorMessage(error, 'Failed to create account. Please try again.'));
      setSubmitting(false);
    }
  };

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
      {serverError && <Alert tone="error">{serverError}</Alert>}
      <FormStack noValidate onSubmit={onSubmit} aria-label="Create account">
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={values.email}
          error={errors.email}
          onChange={(e) => update('email', e.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          hint="At least 8 characters, and hard to guess: a few unusual words work well."
          value={values.password}
          error={errors.password}
          onChange={(e) => update('password', e.target.value)}
        />
        <PasswordStrengthMeter strength={strength} />
        <TextField
          label="Confirm password"
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          error={errors.confirmPassword}
          onChange={(e) => update('confirmPassword', e.target.value)}
        />
        <Checkbox
          label="I accept the Terms of Service and the Privacy Policy"
          name="acceptTerms"
          required
          checked={values.acceptTerms}
          error={errors.acceptTerms}
          onChange={(e) => update('acceptTerms', e.target.checked)}
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
              The {policyTitle[openPolicy]} is not published in the app yet. Ask your administrator for a copy
              before you accept.
            </Alert>
          )}
        </div>
        <Button type="submit" fullWidth disabled={submitting}>
          {submitting ? 'Creating account...' : 'Create account'}
        </Button>
      </FormStack>
      <Aside>
        Already have an account? <Link href={paths.login()}>Sign in</Link>
      </Aside>
    </AuthFrame>
  );
}
