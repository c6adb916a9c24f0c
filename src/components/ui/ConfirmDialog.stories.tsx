import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, within } from 'storybook/test';
import { Button } from './Button';
import { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';

/** As screens use it: a button opens the dialog, which closes on either choice. */
function WithTrigger(props: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Delete The Raven
      </Button>
      {open && (
        <ConfirmDialog
          {...props}
          onConfirm={() => {
            props.onConfirm();
            setOpen(false);
          }}
          onDismiss={() => {
            props.onDismiss();
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

/** Confirmation dialog: asks before anything that cannot be undone (cancel, delete). */
const meta = {
  title: 'UI/ConfirmDialog',
  component: ConfirmDialog,
  render: (args) => <WithTrigger {...args} />,
  args: {
    title: 'Delete "The Raven"?',
    description: 'The audiobook, its chapters and your listening progress are removed for good.',
    confirmLabel: 'Delete',
    onConfirm: fn(),
    onDismiss: fn(),
  },
} satisfies Meta<typeof ConfirmDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

const open = async (canvasElement: HTMLElement) => {
  const canvas = within(canvasElement);
  await userEvent.click(canvas.getByRole('button', { name: 'Delete The Raven' }));
  return canvas.findByRole('alertdialog', { name: 'Delete "The Raven"?' });
};

/** Opened: the safe choice has the focus, so Enter never destroys anything. */
export const Open: Story = {
  name: 'Open (the safe choice has the focus)',
  play: async ({ canvasElement }) => {
    const dialog = await open(canvasElement);
    await expect(dialog).toHaveAccessibleDescription(/removed for good/);
    await expect(within(dialog).getByRole('button', { name: 'Keep it' })).toHaveFocus();
  },
};

/** Escape closes it and the focus returns to the button that opened it. */
export const EscapeDismisses: Story = {
  name: 'Escape dismisses (focus back on the button that opened it)',
  play: async ({ canvasElement, args }) => {
    await open(canvasElement);
    await userEvent.keyboard('{Escape}');
    const canvas = within(canvasElement);
    await expect(canvas.queryByRole('alertdialog')).toBeNull();
    await expect(args.onDismiss).toHaveBeenCalledTimes(1);
    await expect(args.onConfirm).not.toHaveBeenCalled();
    await expect(canvas.getByRole('button', { name: 'Delete The Raven' })).toHaveFocus();
  },
};

/** While the action runs: both buttons wait. */
export const Busy: Story = {
  name: 'Busy (deleting)',
  args: { busy: true, busyLabel: 'Deleting...' },
  play: async ({ canvasElement }) => {
    const dialog = await open(canvasElement);
    await expect(within(dialog).getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    await expect(within(dialog).getByRole('button', { name: 'Keep it' })).toBeDisabled();
  },
};

/** The action failed: the reason is shown in the dialog. */
export const Failed: Story = {
  name: 'Failed (the reason is shown in the dialog)',
  args: { error: 'Job not found' },
  play: async ({ canvasElement }) => {
    const dialog = await open(canvasElement);
    await expect(within(dialog).getByRole('alert')).toHaveTextContent('Job not found');
  },
};
