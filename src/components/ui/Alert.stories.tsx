import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Alert } from './Alert';

const meta = {
  title: 'UI/Alert',
  component: Alert,
  args: { children: 'Failed to login. Please try again.' },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof Alert>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Error: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent('Failed to login');
  },
};
export const Info: Story = {
  args: { tone: 'info', children: 'Password reset is not available yet. Contact your administrator.' },
};
export const Success: Story = { args: { tone: 'success', children: 'Your audiobook is ready.' } };
