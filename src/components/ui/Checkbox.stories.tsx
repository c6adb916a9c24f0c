import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { Checkbox } from './Checkbox';

/** Checkbox: a yes/no choice with its label. */
const meta = {
  title: 'UI/Checkbox',
  component: Checkbox,
  args: { label: 'Remember me' },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof Checkbox>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Unticked, then ticked. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    const box = within(canvasElement).getByLabelText('Remember me');
    await userEvent.click(box);
    await expect(box).toBeChecked();
  },
};
/** A required choice left unticked: the reason is read with it. */
export const WithError: Story = {
  args: { label: 'I accept the terms', error: 'You must accept the terms and conditions' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('checkbox')).toHaveAccessibleDescription(
      'You must accept the terms and conditions',
    );
  },
};
