import styled from 'styled-components';
import { Link, Redirect, useLocation } from 'wouter';
import { Alert, Button, Checkbox, Spinner, TextField } from '../../components/ui';
import { paths } from '../../lib/paths';
import {
  Aside,
  AuthFrame,
  FormStack,
  loadStrengthEstimator,
  NewPasswordFields,
  personalInputs,
  register,
  registerFormSchema,
  useAuthForm,
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

export function Register() {
  const [, navigate] = useLocation();
  const environment = useEnvironment();
  const form = useAuthForm(registerFormSchema, initialValues);

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

  // The operator's own documents when they publish them (TERMS_URL, PRIVACY_URL), else the app's pages.
  // A new tab keeps what the reader has typed here.
  const policyLink = (href: string | undefined, fallback: string, title: string) => (
    <a href={href ?? fallback} target="_blank" rel="noreferrer">
      {title}
    </a>
  );

  return (
    <AuthFrame title="Create your account">
      {form.serverError && <Alert tone="error">{form.serverError}</Alert>}
      <FormStack noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Create account">
        <TextField label="Email" type="email" autoComplete="email" {...form.text('email')} />
        <NewPasswordFields
          label="Password"
          confirmLabel="Confirm password"
          email={form.values.email}
          password={form.text('password')}
          confirm={form.text('confirmPassword')}
        />
        <Checkbox
          label="I accept the Terms of Service and the Privacy Policy"
          required
          {...form.checkbox('acceptTerms')}
        />
        <Policies>
          <span>Read the</span>
          {policyLink(environment.legal?.terms_url, paths.terms(), 'Terms of Service')}
          <span>and the</span>
          {policyLink(environment.legal?.privacy_url, paths.privacy(), 'Privacy Policy')}
          <span>(they open in a new tab).</span>
        </Policies>
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
