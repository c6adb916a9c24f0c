import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { JobDetail } from './JobDetail';

const meta = {
  title: 'Screens/JobDetail',
  component: JobDetail,
  args: { jobId: '9b2e7c1a-4d5f-4e6a-8b9c-0d1e2f3a4b5c' },
  parameters: { auth: { user: {} } },
} satisfies Meta<typeof JobDetail>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Placeholder: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText(/job 9b2e7c1a/)).toBeVisible();
  },
};
