import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { Link, useLocation, useSearch } from 'wouter';
import { errorMessage } from '../../api/errors';
import { Alert, Button, Checkbox, TextField } from '../../components/ui';
import { paths } from '../../lib/paths';
import {
  Aside,
  AuthFrame,
  FormStack,
  login,
  loginFormSchema,
  validate,
  type FieldErrors,
  type LoginForm,
} from '../../features/auth';
import { useEnvironment } from '../../features/environment';

const Row = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
`;

const initialValues: LoginForm = { email: '', password: '', rememberMe: false };

export function Login() {
  const [, navigate] = useLocation();
  const search = useSearch();
  const forgotPassword = new URLSearchParams(search).get('forgot') === '1';
  const environment = useEnvironment();
  const [values, setValues] = useState<LoginForm>(initialValues);
  const [errors, setErrors] = useState<FieldErrors<LoginForm>>({});
  const [attempted, setAttempted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const update = <K extends keyof LoginForm>(field: K, value: LoginForm[K]) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // After a first submit, messages follow the input as it is corrected.
    if (attempted) setErrors(validate(loginFormSchema, next) ?? {});
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAttempted(true);
    const invalid = validate(loginFormSchema, values);
    setErrors(invalid ?? {});
    if (invalid) return;
    setSubmitting(true);
    setServerError(null);
    try {
      await login({ email: values.email, password: values.password }, values.rememberMe);
      navigate(paths.dashboard());
    } catch (error) {
      setServerError(errorMessage(error, 'Failed to login. Please try again.'));
      setSubmitting(false);
    }
  };

  return (
    <AuthFrame title="Sign in">
      {forgotPassword && (
        <Alert tone="info">Password reset is not available yet. Contact your administrator.</Alert>
      )}
      {serverError && <Alert tone="error">{serverError}</Alert>}
      <FormStack noValidate onSubmit={onSubmit} aria-label="Sign in">
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
          autoComplete="current-password"
          value={values.password}
          error={errors.password}
          onChange={(e) => update('password', e.target.value)}
        />
        <Row>
          <Checkbox
            label="Remember me"
            name="rememberMe"
            checked={values.rememberMe}
            onChange={(e) => update('rememberMe', e.target.checked)}
          />
          <Link href={paths.forgotPassword()}>Forgot password?</Link>
        </Row>
        <Button type="submit" fullWidth disabled={submitting}>
          {submitting ? 'Signing in...' : 'Sign in'}
        </Button>
      </FormStack>
      {environment?.features.signup_enabled && (
        <Aside>
          New to Lectio? <Link href={paths.register()}>Create an account</Link>
        </Aside>
      )}
    </AuthFrame>
  );
}
