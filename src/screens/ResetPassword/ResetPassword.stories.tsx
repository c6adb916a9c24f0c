import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { confirmPasswordResetHandler } from '../../mocks/account';
import { errorBodyFixture } from '../../mocks/fixtures';
import { ResetPassword } from './ResetPassword';

/**
 * The page a reset link opens: the reader chooses a new password (the sign-up rules), once; every
 * device that was signed in is signed out.
 */
const meta = {
  title: 'Screens/Reset password',
  component: ResetPassword,
  args: { hash: '#token=story-reset-token' },
  parameters: { route: '/reset-password' },
} satisfies Meta<typeof ResetPassword>;

export default meta;
type Story = StoryObj<typeof meta>;

const estimatorLoad = { timeout: 15_000 };

async function choose(canvasElement: HTMLElement, password: string, confirm = password) {
  const canvas = within(canvasElement);
  await userEvent.type(canvas.getByLabelText('New password'), password);
  await userEvent.type(canvas.getByLabelText('Confirm new password'), confirm);
  await userEvent.click(canvas.getByRole('button', { name: 'Set new password' }));
  return canvas;
}

/** A strong new password is set: the reader is sent to sign in with it. */
export const PasswordSet: Story = {
  name: 'A new password is set',
  play: async ({ canvasElement }) => {
    const canvas = await choose(canvasElement, 'violet lantern orchard');
    await expect(await canvas.findByText(/Your new password is set/, {}, estimatorLoad)).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Sign in with your new password' })).toHaveAttribute(
      'href',
      '/login',
    );
  },
};

/** The passwords differ, or the new one is too easy to guess: the fields say why. */
export const Refused: Story = {
  name: 'A weak or mistyped password',
  play: async ({ canvasElement }) => {
    const canvas = await choose(canvasElement, 'violet lantern orchard', 'violet lantern');
    await expect(canvas.getByLabelText('Confirm new password')).toHaveAccessibleDescription("Passwords don't match");
    await userEvent.clear(canvas.getByLabelText('New password'));
    await userEvent.clear(canvas.getByLabelText('Confirm new password'));
    await choose(canvasElement, 'password');
    await expect(await canvas.findByText(/^This password is too easy to guess\./, {}, estimatorLoad)).toBeVisible();
  },
};

/** The link was used already or has expired: the server's reason, and a way to ask for a new one. */
export const LinkExpired: Story = {
  name: 'The link expired or was used',
  parameters: {
    msw: {
      handlers: {
        confirmPasswordReset: confirmPasswordResetHandler({
          status: 422,
          body: errorBodyFixture('This reset link has expired or was already used. Ask for a new one.'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = await choose(canvasElement, 'violet lantern orchard');
    const alert = await canvas.findByRole('alert', {}, estimatorLoad);
    await expect(alert).toHaveTextContent('This reset link has expired or was already used. Ask for a new one.');
    await expect(within(alert).getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  },
};

/** A link cut short (no token): nothing to set, and a way to ask for a new one. */
export const IncompleteLink: Story = {
  name: 'An incomplete link',
  args: { hash: '' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent('This link is incomplete.');
    await expect(canvas.queryByLabelText('New password')).toBeNull();
  },
};
