import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Badge, StatusBadge } from './Badge';

const meta = {
  title: 'UI/Badge',
  component: Badge,
  args: { children: '3' },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof Badge>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Neutral: Story = {};
export const Info: Story = { args: { tone: 'info' } };

/** docs/product.md#job-statuses: completed green; pending or processing blue; failed red; cancelled or other grey. */
export const JobStatuses: Story = {
  render: () => (
    <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
      {['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED', 'running', 'completed', 'failed', 'pending'].map(
        (status) => (
          <StatusBadge key={status} status={status} />
        ),
      )}
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const colour = (text: string) => getComputedStyle(canvas.getByText(text)).backgroundColor;
    await expect(colour('COMPLETED')).toBe('rgb(220, 252, 231)');
    await expect(colour('PENDING')).toBe('rgb(219, 234, 254)');
    await expect(colour('PROCESSING')).toBe('rgb(219, 234, 254)');
    await expect(colour('FAILED')).toBe('rgb(254, 226, 226)');
    await expect(colour('CANCELLED')).toBe('rgb(243, 244, 246)');
  },
};
