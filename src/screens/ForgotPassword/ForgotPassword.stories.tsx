import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { requestPasswordResetHandler } from '../../mocks/account';
import { errorBodyFixture } from '../../mocks/fixtures';
import { environmentHandler } from '../../mocks/handlers';
import { ForgotPassword } from './ForgotPassword';

/**
 * "Forgot password?": where the server emails reset links, the reader asks for one with their
 * email; where it sends no email, the page says to ask the operator, who can make a link.
 */
const meta = {
  title: 'Screens/Forgot password',
  component: ForgotPassword,
  parameters: {
    route: '/forgot-password',
    msw: { handlers: { environment: environmentHandler({ features: { password_reset_email: true } }) } },
  },
} satisfies Meta<typeof ForgotPassword>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Email is set up: the reader asks for a link, and is told it is on its way (whether or not the account exists). */
export const LinkSent: Story = {
  name: 'Email set up: a link is sent',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Email'), 'reader@example.com');
    await userEvent.click(canvas.getByRole('button', { name: 'Send me a link' }));
    await expect(await canvas.findByText(/If reader@example\.com has an account, a link/)).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  },
};

/** A malformed email is caught before anything is sent. */
export const InvalidEmail: Story = {
  name: 'Email set up: a malformed email',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Email'), 'not-an-email');
    await userEvent.click(canvas.getByRole('button', { name: 'Send me a link' }));
    await expect(canvas.getByLabelText('Email')).toHaveAccessibleDescription('Invalid email address');
  },
};

/** Too many requests from one network: the server's reason shows. */
export const TooManyRequests: Story = {
  name: 'Email set up: too many requests',
  parameters: {
    msw: {
      handlers: {
        environment: environmentHandler({ features: { password_reset_email: true } }),
        requestPasswordReset: requestPasswordResetHandler({
          status: 429,
          body: errorBodyFixture('Too many reset requests from your network. Try again in 40 minutes.'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Email'), 'reader@example.com');
    await userEvent.click(canvas.getByRole('button', { name: 'Send me a link' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      'Too many reset requests from your network. Try again in 40 minutes.',
    );
  },
};

/** The server sends no email (no SMTP_URL): the reader is told to ask the operator. */
export const NoEmail: Story = {
  name: 'No email: ask the operator',
  parameters: {
    msw: { handlers: { environment: environmentHandler({ features: { password_reset_email: false } }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText(/This server does not send email\. Ask the person who runs it/)).toBeVisible();
    await expect(canvas.queryByLabelText('Email')).toBeNull();
  },
};
