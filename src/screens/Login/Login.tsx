import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import { Link, useLocation } from 'wouter';
import { Alert, Button, Checkbox, TextField } from '../../components/ui';
import { paths } from '../../lib/paths';
import { AuthFrame, FormStack, login, loginFormSchema, useAuthForm, type LoginForm } from '../../features/auth';

const SignupInvite = lazy(() => import('./SignupInvite').then((m) => ({ default: m.SignupInvite })));

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
  const form = useAuthForm(loginFormSchema, initialValues);
  const onSubmit = form.onSubmit(async (values) => {
    await login({ email: values.email, password: values.password }, values.rememberMe);
    navigate(paths.dashboard());
  }, 'Failed to login. Please try again.');

  return (
    <AuthFrame title="Sign in">
      {form.serverError && <Alert tone="error">{form.serverError}</Alert>}
      <FormStack noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Sign in">
        <TextField label="Email" type="email" autoComplete="email" {...form.text('email')} />
        <TextField label="Password" type="password" autoComplete="current-password" {...form.text('password')} />
        <Row>
          <Checkbox label="Remember me" {...form.checkbox('rememberMe')} />
          <Link href={paths.forgotPassword()}>Forgot password?</Link>
        </Row>
        <Button type="submit" fullWidth disabled={form.submitting}>
          {form.submitting ? 'Signing in...' : 'Sign in'}
        </Button>
      </FormStack>
      <Suspense fallback={null}>
        <SignupInvite />
      </Suspense>
    </AuthFrame>
  );
}
