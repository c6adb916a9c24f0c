import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { Button } from '../../components/ui';
import { bookJobId } from '../../mocks/audio';
import { cancelExportHandler, exportListFixture, exportsHandler, startExportHandler } from '../../mocks/exports';
import { errorBodyFixture } from '../../mocks/fixtures';
import { DownloadDialog, DownloadMenu } from './DownloadMenu';

/** A finished book's Download menu: the reader picks M4B, one MP3, a ZIP of chapters or an EPUB with read-along; each is built once, shows its progress, can be stopped, and then downloads. */
const meta = {
  title: 'Features/Exports/DownloadMenu',
  component: DownloadMenu,
  args: { jobId: bookJobId, title: 'The Tell-Tale Heart' },
  parameters: { auth: { user: {} }, layout: 'padded' },
  decorators: [
    (Story) => (
      <div style={{ minHeight: 640 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof DownloadMenu>;

export default meta;
type Story = StoryObj<typeof meta>;
type Canvas = ReturnType<typeof within>;

const openMenu = async (canvas: Canvas) => {
  await userEvent.click(canvas.getByRole('button', { name: 'Download' }));
  return canvas.findByRole('group', { name: 'Download The Tell-Tale Heart' });
};

/** Closed: one Download button. */
export const Closed: Story = {
  name: 'Closed: one Download button',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: 'Download' })).toHaveAttribute('aria-expanded', 'false');
    await expect(canvas.queryByRole('group')).toBeNull();
  },
};

/** Open, nothing prepared yet: the four formats, each to prepare. */
export const NothingPrepared: Story = {
  name: 'Open, nothing prepared yet: the four formats, each to prepare',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const menu = within(await openMenu(canvas));
    for (const label of ['M4B', 'MP3', 'ZIP', 'EPUB with read-along']) {
      await expect(await menu.findByRole('button', { name: `Prepare ${label}` })).toBeEnabled();
    }
    await expect(canvas.getByRole('button', { name: 'Download' })).toHaveAttribute('aria-expanded', 'true');
  },
};

/** Just after Download is opened, before the server has listed the formats: the menu says it is loading. */
export const Loading: Story = {
  name: 'Loading the downloads',
  parameters: { msw: { handlers: { exports: exportsHandler(exportListFixture(), { delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const menu = within(await openMenu(within(canvasElement)));
    await expect(await menu.findByText('Loading downloads...')).toBeVisible();
  },
};

/** Preparing: the M4B is being built, with its progress and a way to stop. */
export const Preparing: Story = {
  name: 'Preparing: the M4B is being built, with its progress and a way to stop',
  parameters: {
    msw: { handlers: { exports: exportsHandler(exportListFixture({ m4b: { status: 'building', progress: 42 } })) } },
  },
  play: async ({ canvasElement }) => {
    const menu = within(await openMenu(within(canvasElement)));
    const bar = await menu.findByRole('progressbar', { name: 'Preparing M4B' });
    await expect(bar).toHaveAttribute('aria-valuenow', '42');
    await expect(menu.getByRole('button', { name: 'Stop preparing M4B' })).toBeEnabled();
  },
};

/** Start preparing: a click on Prepare MP3 shows its progress. */
export const StartPreparing: Story = {
  name: 'Start preparing: a click on Prepare MP3 shows its progress',
  parameters: {
    msw: {
      handlers: {
        exports: exportsHandler((call) =>
          exportListFixture(call === 1 ? {} : { mp3: { status: 'building', progress: Math.min(90, call * 15) } }),
        ),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const menu = within(await openMenu(within(canvasElement)));
    await userEvent.click(await menu.findByRole('button', { name: 'Prepare MP3' }));
    await expect(await menu.findByRole('progressbar', { name: 'Preparing MP3' })).toBeVisible();
    await expect(menu.queryByRole('button', { name: 'Prepare MP3' })).toBeNull();
  },
};

/** Starting: Prepare M4B waits for the server, and cannot be pressed twice. */
export const Starting: Story = {
  name: 'Starting: Prepare M4B waits for the server, and cannot be pressed twice',
  parameters: { msw: { handlers: { startExport: startExportHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const menu = within(await openMenu(within(canvasElement)));
    await userEvent.click(await menu.findByRole('button', { name: 'Prepare M4B' }));
    await expect(await menu.findByRole('button', { name: 'Starting...' })).toBeDisabled();
    await expect(menu.getByRole('button', { name: 'Prepare MP3' })).toBeEnabled();
  },
};

/** Prepare refused: the server says why, the format can be asked for again. */
export const PrepareRefused: Story = {
  name: 'Prepare refused: the server says why, the format can be asked for again',
  parameters: {
    msw: {
      handlers: {
        startExport: startExportHandler({
          status: 503,
          body: errorBodyFixture('The database is unavailable for a moment; try again shortly'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const menu = within(await openMenu(within(canvasElement)));
    await userEvent.click(await menu.findByRole('button', { name: 'Prepare ZIP' }));
    await expect(await menu.findByRole('alert')).toHaveTextContent('The database is unavailable for a moment');
    await expect(menu.getByRole('button', { name: 'Prepare ZIP' })).toBeEnabled();
  },
};

/** Stopping: the build of the EPUB is being stopped. */
export const Stopping: Story = {
  name: 'Stopping: the build of the EPUB is being stopped',
  parameters: {
    msw: {
      handlers: {
        exports: exportsHandler(exportListFixture({ epub: { status: 'building', progress: 60 } })),
        cancelExport: cancelExportHandler({ delay: 'infinite' }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const menu = within(await openMenu(within(canvasElement)));
    await userEvent.click(await menu.findByRole('button', { name: 'Stop preparing EPUB with read-along' }));
    await expect(await menu.findByRole('button', { name: 'Stopping...' })).toBeDisabled();
    await expect(menu.getByRole('progressbar', { name: 'Preparing EPUB with read-along' })).toBeVisible();
  },
};

/** Stop failed: the build goes on and the reader is told why. */
export const StopFailed: Story = {
  name: 'Stop failed: the build goes on and the reader is told why',
  parameters: {
    msw: {
      handlers: {
        exports: exportsHandler(exportListFixture({ m4b: { status: 'building', progress: 30 } })),
        cancelExport: cancelExportHandler({
          status: 503,
          body: errorBodyFixture('The database is unavailable for a moment; try again shortly'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const menu = within(await openMenu(within(canvasElement)));
    await userEvent.click(await menu.findByRole('button', { name: 'Stop preparing M4B' }));
    await expect(await menu.findByRole('alert')).toHaveTextContent('The database is unavailable for a moment');
    await expect(menu.getByRole('progressbar', { name: 'Preparing M4B' })).toBeVisible();
    await expect(menu.getByRole('button', { name: 'Stop preparing M4B' })).toBeEnabled();
  },
};

/** Stop preparing: the ZIP goes back to Prepare. */
export const StopPreparing: Story = {
  name: 'Stop preparing: the ZIP goes back to Prepare',
  parameters: {
    msw: {
      handlers: {
        exports: exportsHandler((call) =>
          exportListFixture(call === 1 ? { zip: { status: 'building', progress: 20 } } : {}),
        ),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const menu = within(await openMenu(within(canvasElement)));
    await userEvent.click(await menu.findByRole('button', { name: 'Stop preparing ZIP' }));
    await expect(await menu.findByRole('button', { name: 'Prepare ZIP' })).toBeEnabled();
  },
};

/** Ready: each format is a link to its file, with its name and size. */
export const Ready: Story = {
  name: 'Ready: each format is a link to its file, with its name and size',
  parameters: {
    msw: {
      handlers: {
        exports: exportsHandler(
          exportListFixture({
            m4b: { status: 'ready' },
            mp3: { status: 'ready' },
            zip: { status: 'ready' },
            epub: { status: 'ready' },
          }),
        ),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const menu = within(await openMenu(within(canvasElement)));
    const m4b = await menu.findByRole('link', { name: 'Download M4B' });
    await expect(m4b).toHaveAttribute('download', 'The Tell-Tale Heart.m4b');
    await expect(m4b.getAttribute('href')).toContain('format=m4b');
    await expect(menu.getByText('The Tell-Tale Heart.m4b, 30.0 MB')).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Download EPUB with read-along' })).toBeVisible();
  },
};

/** Failed: the EPUB says why and can be tried again. */
export const Failed: Story = {
  name: 'Failed: the EPUB says why and can be tried again',
  parameters: {
    msw: {
      handlers: {
        exports: exportsHandler(
          exportListFixture({
            epub: { status: 'failed', error_message: 'A stored audio file of "The Tell-Tale Heart" is missing' },
          }),
        ),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const menu = within(await openMenu(within(canvasElement)));
    await expect(await menu.findByRole('alert')).toHaveTextContent('A stored audio file');
    await expect(menu.getByRole('button', { name: 'Try EPUB with read-along again' })).toBeEnabled();
  },
};

/** Not finished: a book still converting has no downloads yet. */
export const NotFinished: Story = {
  name: 'Not finished: a book still converting has no downloads yet',
  parameters: {
    msw: {
      handlers: {
        exports: exportsHandler(exportListFixture(), {
          status: 409,
          body: errorBodyFixture(
            'The audiobook is not finished yet (status PROCESSING): downloads are made from a finished book',
          ),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const menu = within(await openMenu(within(canvasElement)));
    await expect(await menu.findByRole('alert')).toHaveTextContent('The audiobook is not finished yet');
  },
};

/** Closes with Escape, the focus back on Download. */
export const ClosesWithEscape: Story = {
  name: 'Closes with Escape, the focus back on Download',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await openMenu(canvas);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(canvas.queryByRole('group')).toBeNull());
    await expect(canvas.getByRole('button', { name: 'Download' })).toHaveFocus();
  },
};

/** The library's "More actions" opens the downloads in a dialog. */
function FromAMenu() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Download…</Button>
      {open && <DownloadDialog jobId={bookJobId} title="The Tell-Tale Heart" onClose={() => setOpen(false)} />}
    </>
  );
}

/** In a dialog: the same downloads from a menu item. */
export const InADialog: StoryObj<typeof FromAMenu> = {
  name: 'In a dialog: the same downloads from a menu item',
  render: () => <FromAMenu />,
  parameters: {
    msw: { handlers: { exports: exportsHandler(exportListFixture({ mp3: { status: 'ready' } })) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Download…' }));
    const dialog = within(await canvas.findByRole('dialog', { name: 'Download' }));
    await expect(await dialog.findByRole('link', { name: 'Download MP3' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Prepare M4B' })).toBeEnabled();
  },
};
