import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { SelectField } from './SelectField';

/** Select field: one choice among a few, with its label. */
const meta = {
  title: 'UI/SelectField',
  component: SelectField,
  args: {
    label: 'Status',
    options: [
      { value: 'all', label: 'All' },
      { value: 'running', label: 'Running' },
    ],
    onChange: fn(),
  },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof SelectField>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The reader picks an option. */
export const Default: Story = {
  play: async ({ canvasElement, args }) => {
    const select = within(canvasElement).getByLabelText('Status');
    await userEvent.selectOptions(select, 'running');
    await expect(args.onChange).toHaveBeenCalled();
  },
};
