import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { ProgressBar } from './ProgressBar';

/** Progress bar: how far a conversion or a step has come. */
const meta = {
  title: 'UI/ProgressBar',
  component: ProgressBar,
  args: { value: 42, label: 'Overall progress' },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof ProgressBar>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Part of the way. */
export const Partway: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const bar = canvas.getByRole('progressbar', { name: 'Overall progress' });
    await expect(bar).toHaveAttribute('aria-valuenow', '42');
    await expect(canvas.getByText('42%')).toBeVisible();
  },
};
/** A finished conversion: the bar is full. */
export const Complete: Story = { args: { value: 100 } };
/** A value out of range is shown within 0 and 100 %. */
export const Clamped: Story = {
  args: { value: 140 },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  },
};
/** A failed step’s progress. */
export const Danger: Story = { args: { value: 30, tone: 'danger' } };
/** The bar without its percentage. */
export const WithoutValue: Story = { args: { showValue: false } };
