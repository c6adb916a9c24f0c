import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { errorBodyFixture } from '../../mocks/fixtures';
import { environmentHandler, registerHandler } from '../../mocks/handlers';
import { Register } from './Register';

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

const valid = { email: 'new.reader@example.com', password: 'secret123', confirm: 'secret123', accept: true };

export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, {});
    await expect(canvas.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(canvas.getByRole('checkbox')).not.toBeChecked();
    await expect(canvas.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    // The policies are not published yet: their buttons say so instead of linking nowhere.
    await userEvent.click(canvas.getByRole('button', { name: 'Terms of Service' }));
    await expect(canvas.getByRole('button', { name: 'Terms of Service' })).toHaveAttribute('aria-expanded', 'true');
    await expect(canvas.getByRole('status')).toHaveTextContent('The Terms of Service is not published in the app yet.');
  },
};

export const ValidationErrors: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, { email: 'nope', password: '123', confirm: '1234' });
    await userEvent.click(canvas.getByRole('button', { name: 'Create account' }));
    await expect(canvas.getByText('Invalid email address')).toBeVisible();
    await expect(canvas.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(canvas.getByLabelText('Confirm password')).toHaveAccessibleDescription("Passwords don't match");
    await expect(canvas.getByRole('checkbox')).toHaveAccessibleDescription('You must accept the terms and conditions');
    await expect(canvas.getByRole('checkbox')).toHaveAttribute('aria-invalid', 'true');
  },
};

export const Submitting: Story = {
  parameters: { msw: { handlers: { register: registerHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, valid);
    await userEvent.click(canvas.getByRole('button', { name: 'Create account' }));
    await expect(await canvas.findByRole('button', { name: 'Creating account...' })).toBeDisabled();
  },
};

export const ServerError: Story = {
  parameters: {
    msw: { handlers: { register: registerHandler({ status: 409, body: errorBodyFixture('Email already registered') }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, valid);
    await userEvent.click(canvas.getByRole('button', { name: 'Create account' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Email already registered');
  },
};

export const ServerErrorDefaultMessage: Story = {
  parameters: { msw: { handlers: { register: registerHandler({ status: 500 }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, valid);
    await userEvent.click(canvas.getByRole('button', { name: 'Create account' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to create account. Please try again.');
  },
};

export const SignupDisabled: Story = {
  parameters: { msw: { handlers: { environment: environmentHandler({ features: { signup_enabled: false } }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /login' })).toBeVisible();
  },
};

export const Success: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await fillIn(canvasElement, valid);
    await userEvent.click(canvas.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(canvas.getByRole('heading', { name: 'Navigated to /dashboard' })).toBeVisible());
    await expect(localStorage.getItem('access_token')).toBe('test-access-token');
  },
};
