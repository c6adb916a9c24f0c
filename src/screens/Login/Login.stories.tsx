import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { environmentHandler, loginHandler, loginRejectedHandler } from '../../mocks/handlers';
import { Login } from './Login';

/**
 * Sign in: where a returning reader enters their email and password to reach their library; the first page
 * anyone signed out sees.
 */
const meta = {
  title: 'Screens/Login',
  component: Login,
  parameters: { route: '/login', routeStubs: ['/dashboard'] },
} satisfies Meta<typeof Login>;

export default meta;
type Story = StoryObj<typeof meta>;

async function fillIn(canvasElement: HTMLElement, email: string, password: string) {
  const canvas = within(canvasElement);
  if (email) await userEvent.type(canvas.getByLabelText('Email'), email);
  if (password) await userEvent.type(canvas.getByLabelText('Password'), password);
  return canvas;
}

/** A reader arrives signed out: the empty form, with sign-up and password help at hand. */
export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(canvas.getByLabelText('Email')).toHaveValue('');
    await expect(canvas.getByLabelText('Password')).toHaveValue('');
    await expect(canvas.getByLabelText('Remember me')).not.toBeChecked();
    await expect(canvas.getByRole('link', { name: 'Forgot password?' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    await expect(await canvas.findByRole('link', { name: 'Create an account' }, { timeout: 10_000 })).toHaveAttribute(
      'href',
      '/register',
    );
  },
};

/** The reader submits a malformed email or a missing password: each field says what is wrong. */
export const ValidationErrors: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, 'not-an-email', '123');
    await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
    const email = canvas.getByLabelText('Email');
    const password = canvas.getByLabelText('Password');
    await expect(canvas.getByText('Invalid email address')).toBeVisible();
    await expect(canvas.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription('Invalid email address');
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await expect(password).toHaveAccessibleDescription('Password must be at least 6 characters');
    // Corrected input clears its message.
    await userEvent.type(password, '456');
    await expect(canvas.queryByText('Password must be at least 6 characters')).toBeNull();
  },
};

/** While the server checks the password: the button is busy and the form cannot be sent twice. */
export const Submitting: Story = {
  parameters: { msw: { handlers: { login: loginHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, 'reader@example.com', 'secret123');
    await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
    const button = await canvas.findByRole('button', { name: 'Signing in...' });
    await expect(button).toBeDisabled();
  },
};

/** The server refuses the sign-in (wrong password, throttled): its message is shown above the form. */
export const ServerError: Story = {
  parameters: { msw: { handlers: { login: loginRejectedHandler('Incorrect email or password') } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, 'reader@example.com', 'wrong-password');
    await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Incorrect email or password');
    await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  },
};

/** A refusal without a message from the server: the page says so in its own words. */
export const WrongPasswordDefaultMessage: Story = {
  parameters: { msw: { handlers: { login: loginHandler({ status: 500 }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, 'reader@example.com', 'wrong-password');
    await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to login. Please try again.');
  },
};

/** On a server where sign-up is closed: no link to create an account. */
export const SignupDisabled: Story = {
  parameters: {
    msw: {
      handlers: { environment: environmentHandler({ environment: 'production', features: { signup_enabled: false } }) },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeVisible();
    // Give the environment answer time to arrive, then make sure the link never appeared.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(canvas.queryByRole('link', { name: 'Create an account' })).toBeNull();
  },
};

/** The reader asks for help with a forgotten password: the link leads to the page that sends a reset link. */
export const ForgotPassword: Story = {
  tags: ['navigates'],
  parameters: { routeStubs: ['/forgot-password'] },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    await userEvent.click(canvas.getByRole('link', { name: 'Forgot password?' }));
    await canvas.findByRole('heading', { name: 'Navigated to /forgot-password' });
  },
};

/** Remember me ticked: the session outlives the browser tab. */
export const RememberMe: Story = {
  tags: ['navigates'],
  play: async ({ canvasElement, step }) => {
    await step('checked: the session is kept in localStorage', async () => {
      const canvas = await fillIn(canvasElement, 'reader@example.com', 'secret123');
      await userEvent.click(canvas.getByLabelText('Remember me'));
      await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
      await canvas.findByRole('heading', { name: 'Navigated to /dashboard' });
      await expect(localStorage.getItem('access_token')).toBe('test-access-token');
      await expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toMatchObject({ email: 'reader@example.com' });
      await expect(sessionStorage.getItem('access_token')).toBeNull();
    });
  },
};

/** Remember me left off: the session ends with the tab. */
export const NotRemembered: Story = {
  tags: ['navigates'],
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, 'reader@example.com', 'secret123');
    await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
    await canvas.findByRole('heading', { name: 'Navigated to /dashboard' });
    await expect(sessionStorage.getItem('access_token')).toBe('test-access-token');
    await expect(sessionStorage.getItem('user')).not.toBeNull();
    await expect(localStorage.getItem('access_token')).toBeNull();
  },
};

/** A correct sign-in: the reader lands on the home page. */
export const Success: Story = {
  tags: ['navigates'],
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, 'reader@example.com', 'secret123');
    await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(canvas.getByRole('heading', { name: 'Navigated to /dashboard' })).toBeVisible());
  },
};
