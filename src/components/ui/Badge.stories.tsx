import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { lightTheme } from '../../styles/theme';
import { Badge, StatusBadge } from './Badge';

/** '#e4f1e3' -> 'rgb(228, 241, 227)', as getComputedStyle says it. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
const { tone } = lightTheme;

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
    // Green, the accent, red and grey: the theme's tones, four different ones.
    await expect(colour('COMPLETED')).toBe(rgb(tone.success.background));
    await expect(colour('PENDING')).toBe(rgb(tone.info.background));
    await expect(colour('PROCESSING')).toBe(rgb(tone.info.background));
    await expect(colour('FAILED')).toBe(rgb(tone.danger.background));
    await expect(colour('CANCELLED')).toBe(rgb(tone.neutral.background));
    await expect(new Set([colour('COMPLETED'), colour('PENDING'), colour('FAILED'), colour('CANCELLED')]).size).toBe(4);
  },
};
