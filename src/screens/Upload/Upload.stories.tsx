import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Upload } from './Upload';

const meta = {
  title: 'Screens/Upload',
  component: Upload,
  parameters: { auth: { user: {} } },
} satisfies Meta<typeof Upload>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Placeholder: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: 'Upload Story' })).toBeVisible();
  },
};
