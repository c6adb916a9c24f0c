import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Jobs } from './Jobs';

const meta = {
  title: 'Screens/Jobs',
  component: Jobs,
  parameters: { auth: { user: {} } },
} satisfies Meta<typeof Jobs>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Placeholder: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: 'Jobs' })).toBeVisible();
  },
};
