import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { LibraryDetail } from './LibraryDetail';

const meta = {
  title: 'Screens/LibraryDetail',
  component: LibraryDetail,
  args: { jobId: '9b2e7c1a-4d5f-4e6a-8b9c-0d1e2f3a4b5c' },
  parameters: { auth: { user: {} } },
} satisfies Meta<typeof LibraryDetail>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Placeholder: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText(/audiobook 9b2e7c1a/)).toBeVisible();
  },
};
