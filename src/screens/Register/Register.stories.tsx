import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { errorBodyFixture } from '../../mocks/fixtures';
import { environmentHandler, registerHandler } from '../../mocks/handlers';
import { Register } from './Register';

/**
 * Create an account: a new reader chooses an email and a password and accepts the terms; the strength meter
 * guides the password.
 */
const meta = {
  title: 'Screens/Register',
  component: Register,
  parameters: { route: '/register', routeStubs: ['/dashboard', '/login'] },
} satisfies Meta<typeof Register>;

export default meta;
type Story = StoryObj<typeof meta>;

async function fillIn(
  canvasElement: HTMLElement,
  values: { email?: string; password?: string; confirm?: string; accept?: boolean },
) {
  const canvas = within(canvasElement);
  await canvas.findByRole('button', { name: 'Create account' });
  if (values.email) await userEvent.type(canvas.getByLabelText('Email'), values.email);
  if (values.password) await userEvent.type(canvas.getByLabelText('Password'), values.password);
  if (values.confirm) await userEvent.type(canvas.getByLabelText('Confirm password'), values.confirm);
  if (values.accept) await userEvent.click(canvas.getByRole('checkbox'));
  return canvas;
}

const valid = {
  email: 'new.reader@example.com',
  password: 'correct-horse-battery',
  confirm: 'correct-horse-battery',
  accept: true,
};

/** The strength estimator loads on first use (a separate chunk with its dictionaries). */
const estimatorLoad = { timeout: 15_000 };

/** A visitor opens the sign-up page: the empty form, with the terms and the privacy policy a click away. */
export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, {});
    await expect(canvas.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(canvas.getByRole('checkbox')).not.toBeChecked();
    await expect(canvas.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    // The app's own pages, in a new tab so what the visitor typed stays.
    await expect(canvas.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    await expect(canvas.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    await expect(canvas.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('target', '_blank');
  },
};

/** The operator publishes their own terms and privacy notice (TERMS_URL, PRIVACY_URL): the links lead there. */
export const OperatorsOwnPolicies: Story = {
  name: "The operator's own policies",
  parameters: {
    msw: {
      handlers: {
        environment: environmentHandler({
          legal: { terms_url: 'https://example.org/terms', privacy_url: 'https://example.org/privacy' },
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, {});
    await expect(canvas.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      'https://example.org/terms',
    );
    await expect(canvas.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      'https://example.org/privacy',
    );
  },
};

/**
 * The visitor sends a bad email, a short password, passwords that differ or no consent: each field says why.
 */
export const ValidationErrors: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, { email: 'nope', password: '123', confirm: '1234' });
    await userEvent.click(canvas.getByRole('button', { name: 'Create account' }));
    await expect(canvas.getByText('Invalid email address')).toBeVisible();
    await expect(canvas.getByText('Password must be at least 8 characters')).toBeVisible();
    await expect(canvas.getByLabelText('Confirm password')).toHaveAccessibleDescription("Passwords don't match");
    await expect(canvas.getByRole('checkbox')).toHaveAccessibleDescription('You must accept the terms and conditions');
    await expect(canvas.getByRole('checkbox')).toHaveAttribute('aria-invalid', 'true');
  },
};

/** While the account is created: the button is busy. */
export const Submitting: Story = {
  parameters: { msw: { handlers: { register: registerHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, valid);
    await userEvent.click(canvas.getByRole('button', { name: 'Create account' }));
    await expect(await canvas.findByRole('button', { name: 'Creating account...' })).toBeDisabled();
  },
};

/** The server refuses (e.g. the email is taken): its message is shown. */
export const ServerError: Story = {
  parameters: {
    msw: {
      handlers: { register: registerHandler({ status: 409, body: errorBodyFixture('Email already registered') }) },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, valid);
    await userEvent.click(canvas.getByRole('button', { name: 'Create account' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Email already registered');
  },
};

/** A refusal without a message: the page words it itself. */
export const ServerErrorDefaultMessage: Story = {
  parameters: { msw: { handlers: { register: registerHandler({ status: 500 }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, valid);
    await userEvent.click(canvas.getByRole('button', { name: 'Create account' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to create account. Please try again.');
  },
};

/** On a server where sign-up is closed: the visitor is sent to sign in instead. */
export const SignupDisabled: Story = {
  tags: ['navigates'],
  name: 'Sign-up disabled: the page sends the visitor to sign in',
  parameters: { msw: { handlers: { environment: environmentHandler({ features: { signup_enabled: false } }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /login' })).toBeVisible();
  },
};

/** The account is created: the new reader is signed in and lands on the home page. */
export const Success: Story = {
  tags: ['navigates'],
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, valid);
    await userEvent.click(canvas.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(canvas.getByRole('heading', { name: 'Navigated to /dashboard' })).toBeVisible());
    await expect(localStorage.getItem('access_token')).toBe('test-access-token');
  },
};

/** The visitor types a guessable password: the meter says it is weak and why. */
export const WeakPassword: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, { email: 'new.reader@example.com', password: 'password1' });
    const meter = await canvas.findByRole('meter', { name: 'Password strength' }, estimatorLoad);
    await expect(meter).toHaveAttribute('aria-valuenow', '0');
    await expect(meter).toHaveAttribute('aria-valuetext', 'Very weak');
    await expect(canvas.getByText('Password strength: Very weak')).toBeVisible();
    await expect(canvas.getByText(/This is a commonly used password\./)).toBeVisible();
  },
};

/** A long, unguessable password: the meter says it is strong. */
export const StrongPassword: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, { email: 'new.reader@example.com', password: 'correct-horse-battery' });
    const meter = await canvas.findByRole('meter', { name: 'Password strength' }, estimatorLoad);
    await expect(meter).toHaveAttribute('aria-valuenow', '4');
    await expect(canvas.getByText('Password strength: Very strong')).toBeVisible();
    await expect(canvas.queryByText(/less common/)).toBeNull();
  },
};

/** Submitting a weak password: the form refuses it before asking the server. */
export const WeakPasswordRefused: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, { ...valid, password: 'new.reader2024', confirm: 'new.reader2024' });
    await canvas.findByRole('meter', { name: 'Password strength' }, estimatorLoad);
    await userEvent.click(canvas.getByRole('button', { name: 'Create account' }));
    const password = canvas.getByLabelText('Password');
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    await expect(password).toHaveAccessibleDescription(/This password is too easy to guess\./);
    // Still on the form, ready for a better password.
    await expect(canvas.getByRole('button', { name: 'Create account' })).toBeEnabled();
    await expect(canvas.queryByRole('heading', { name: 'Navigated to /dashboard' })).toBeNull();
  },
};

/** The server still finds the password weak: its reason is shown on the field. */
export const WeakPasswordRefusedByServer: Story = {
  parameters: {
    msw: {
      handlers: {
        register: registerHandler({
          status: 422,
          body: errorBodyFixture('This password is too easy to guess. This is similar to a commonly used password.'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, valid);
    await userEvent.click(canvas.getByRole('button', { name: 'Create account' }));
    await expect(await canvas.findByRole('alert', {}, estimatorLoad)).toHaveTextContent(
      'This password is too easy to guess. This is similar to a commonly used password.',
    );
  },
};
