import type { Meta, StoryObj } from '@storybook/react-vite';
import { Card } from './Card';

/** Card: a raised surface that groups one thing (a job, a form). */
const meta = {
  title: 'UI/Card',
  component: Card,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof Card>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A card with its content. */
export const Default: Story = {
  render: () => (
    <Card aria-label="Total Jobs">
      <h2>Total Jobs</h2>
      <p>12</p>
    </Card>
  ),
};
