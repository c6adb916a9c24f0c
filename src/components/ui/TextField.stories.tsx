import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { TextField } from './TextField';

/** Text field: a labelled input with an optional hint and its error. */
const meta = {
  title: 'UI/TextField',
  component: TextField,
  args: { label: 'Email', type: 'email', defaultValue: '' },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof TextField>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Empty, ready for typing. */
export const Default: Story = {};
/** With a hint on what is expected. */
export const WithHint: Story = { args: { label: 'Password', type: 'password', hint: 'At least 6 characters.' } };
/** With the reason the value is refused. */
export const WithError: Story = {
  args: { defaultValue: 'not-an-email', error: 'Invalid email address' },
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByLabelText('Email');
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(input).toHaveAccessibleDescription('Invalid email address');
  },
};
