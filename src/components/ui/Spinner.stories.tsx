import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Spinner } from './Spinner';

/** Spinner: something is loading (announced as a status). */
const meta = { title: 'UI/Spinner', component: Spinner } satisfies Meta<typeof Spinner>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Loading, in the default words. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Loading...');
  },
};
/** Loading, saying what. */
export const CustomLabel: Story = { args: { label: 'Loading audio...' } };
