import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Alert } from './Alert';

/** Alert: a message above a form or a page: an error, a note or a success. */
const meta = {
  title: 'UI/Alert',
  component: Alert,
  args: { children: 'Failed to login. Please try again.' },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof Alert>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Something failed (announced to screen readers at once). */
export const Error: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent('Failed to login');
  },
};
/** A note the reader should know. */
export const Info: Story = {
  args: { tone: 'info', children: 'Password reset is not available yet. Contact your administrator.' },
};
/** Something worked. */
export const Success: Story = { args: { tone: 'success', children: 'Your audiobook is ready.' } };
