import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { Button } from './Button';

/** Button: the app’s actions, primary (one per view), secondary, and link-like. */
const meta = {
  title: 'UI/Button',
  component: Button,
  args: { children: 'Create Audiobook', onClick: fn() },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof Button>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The main action of a view. */
export const Primary: Story = {
  play: async ({ canvasElement, args }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Create Audiobook' }));
    await expect(args.onClick).toHaveBeenCalledOnce();
  },
};
/** Any other action. */
export const Secondary: Story = { args: { variant: 'secondary', children: 'Cancel' } };
/** An action that reads as a link, in running text. */
export const LinkLike: Story = { args: { variant: 'link', children: 'Terms of Service' } };
/** An action that cannot be taken yet. */
export const Disabled: Story = {
  args: { disabled: true, children: 'Signing in...' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button')).toBeDisabled();
  },
};
/** The one action of a narrow form. */
export const FullWidth: Story = { args: { fullWidth: true, children: 'Sign in' } };
