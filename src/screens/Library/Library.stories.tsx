import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Library } from './Library';

const meta = {
  title: 'Screens/Library',
  component: Library,
  parameters: { auth: { user: {} } },
} satisfies Meta<typeof Library>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Placeholder: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: 'Library' })).toBeVisible();
  },
};
