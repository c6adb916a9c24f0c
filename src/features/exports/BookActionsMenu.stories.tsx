import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { bookJobId } from '../../mocks/audio';
import { exportListFixture, exportsHandler } from '../../mocks/exports';
import { BookActionsMenu } from './BookActionsMenu';

const meta = {
  title: 'Features/Exports/BookActionsMenu',
  component: BookActionsMenu,
  args: { jobId: bookJobId, title: 'The Tell-Tale Heart' },
  parameters: { auth: { user: {} }, layout: 'padded' },
  decorators: [
    (Story) => (
      <div style={{ display: 'flex', justifyContent: 'flex-end', minHeight: 200 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof BookActionsMenu>;

export default meta;
type Story = StoryObj<typeof meta>;
type Canvas = ReturnType<typeof within>;

const trigger = (canvas: Canvas) => canvas.getByRole('button', { name: 'More actions for The Tell-Tale Heart' });

export const Closed: Story = {
  name: 'Closed: one button named for the book',
  play: async ({ canvasElement }) => {
    await expect(trigger(within(canvasElement))).toHaveAttribute('aria-expanded', 'false');
  },
};

export const Open: Story = {
  name: 'Open: Download… and Listen in a podcast app, the first one focused',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(trigger(canvas));
    const menu = within(await canvas.findByRole('menu', { name: 'More actions for The Tell-Tale Heart' }));
    await waitFor(() => expect(menu.getByRole('menuitem', { name: 'Download…' })).toHaveFocus());
    await userEvent.keyboard('{ArrowDown}');
    await expect(menu.getByRole('menuitem', { name: 'Listen in a podcast app' })).toHaveFocus();
  },
};

export const Download: Story = {
  name: 'Download…: the downloads in a dialog',
  parameters: { msw: { handlers: { exports: exportsHandler(exportListFixture({ m4b: { status: 'ready' } })) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(trigger(canvas));
    await userEvent.click(await canvas.findByRole('menuitem', { name: 'Download…' }));
    const dialog = within(await canvas.findByRole('dialog', { name: 'Download' }));
    await expect(await dialog.findByRole('link', { name: 'Download M4B' })).toBeVisible();
  },
};

export const Podcast: Story = {
  name: 'Listen in a podcast app: the feed dialog',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(trigger(canvas));
    await userEvent.click(await canvas.findByRole('menuitem', { name: 'Listen in a podcast app' }));
    const dialog = within(await canvas.findByRole('dialog', { name: 'Listen in a podcast app' }));
    await expect(await dialog.findByRole('textbox', { name: 'Feed address' })).toBeVisible();
  },
};

export const ClosedAgain: Story = {
  name: 'Closed again: Escape closes the menu, the focus back on its button',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(trigger(canvas));
    await canvas.findByRole('menu');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(canvas.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(trigger(canvas)).toHaveFocus());
  },
};
