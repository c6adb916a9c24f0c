import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Dashboard } from './Dashboard';

const meta = {
  title: 'Screens/Dashboard',
  component: Dashboard,
  parameters: { auth: { user: { email: 'reader@example.com' } } },
} satisfies Meta<typeof Dashboard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Welcome: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(canvas.getByText('Welcome, reader@example.com')).toBeVisible();
  },
};
