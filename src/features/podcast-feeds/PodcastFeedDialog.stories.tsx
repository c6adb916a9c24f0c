import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { bookJobId } from '../../mocks/audio';
import { createFeedHandler, deleteFeedHandler, feedFixture } from '../../mocks/podcast-feeds';
import { errorBodyFixture } from '../../mocks/fixtures';
import { PodcastFeedButton, PodcastFeedDialog } from './PodcastFeedDialog';

/** A private podcast feed for one book or the whole library: the reader copies its address or scans its QR code in a podcast app, and can revoke it. */
const meta = {
  title: 'Features/Podcast feeds/PodcastFeedDialog',
  component: PodcastFeedDialog,
  args: { jobId: bookJobId, title: 'The Tell-Tale Heart', onClose: fn() },
  parameters: { auth: { user: {} } },
} satisfies Meta<typeof PodcastFeedDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

const URL = feedFixture().url;

/** The browser's clipboard, replaced for one story (headless browsers refuse it). */
function clipboard(write: (text: string) => Promise<void>) {
  const original = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: write } });
  return () => {
    delete (navigator as unknown as Record<string, unknown>).clipboard;
    if (original) Object.defineProperty(Navigator.prototype, 'clipboard', original);
  };
}

/** Making the feed. */
export const Making: Story = {
  name: 'Making the feed',
  parameters: { msw: { handlers: { createFeed: createFeedHandler(feedFixture(), { delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const dialog = within(within(canvasElement).getByRole('dialog', { name: 'Listen in a podcast app' }));
    await expect(await dialog.findByText('Making your private feed...')).toBeVisible();
  },
};

/** Ready: the address to copy, its QR code and a way to stop the feed. */
export const Ready: Story = {
  name: 'Ready: the address to copy, its QR code and a way to stop the feed',
  play: async ({ canvasElement }) => {
    const dialog = within(await within(canvasElement).findByRole('dialog', { name: 'Listen in a podcast app' }));
    await expect(await dialog.findByRole('textbox', { name: 'Feed address' })).toHaveValue(URL);
    await expect(dialog.getByRole('button', { name: 'Copy' })).toBeEnabled();
    await expect(dialog.getByRole('img', { name: 'QR code of the feed address, to scan with a phone' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Stop this feed' })).toBeEnabled();
  },
};

/** Copied: the address is on the clipboard. */
export const Copied: Story = {
  name: 'Copied: the address is on the clipboard',
  beforeEach: () => clipboard(async () => undefined),
  play: async ({ canvasElement }) => {
    const dialog = within(await within(canvasElement).findByRole('dialog', { name: 'Listen in a podcast app' }));
    await userEvent.click(await dialog.findByRole('button', { name: 'Copy' }));
    await expect(await dialog.findByRole('status')).toHaveTextContent('Copied');
  },
};

/** Copy refused: the reader is told to copy the address themselves. */
export const CopyRefused: Story = {
  name: 'Copy refused: the reader is told to copy the address themselves',
  beforeEach: () => clipboard(() => Promise.reject(new Error('NotAllowedError'))),
  play: async ({ canvasElement }) => {
    const dialog = within(await within(canvasElement).findByRole('dialog', { name: 'Listen in a podcast app' }));
    await userEvent.click(await dialog.findByRole('button', { name: 'Copy' }));
    await expect(await dialog.findByRole('alert')).toHaveTextContent('select the address and copy it yourself');
  },
};

/** Stopped: the feed and its links no longer work. */
export const Stopped: Story = {
  name: 'Stopped: the feed and its links no longer work',
  play: async ({ canvasElement }) => {
    const dialog = within(await within(canvasElement).findByRole('dialog', { name: 'Listen in a podcast app' }));
    await userEvent.click(await dialog.findByRole('button', { name: 'Stop this feed' }));
    await expect(await dialog.findByRole('status')).toHaveTextContent('This feed is stopped');
    await expect(dialog.getByRole('button', { name: 'Make a new feed' })).toBeEnabled();
    await expect(dialog.queryByRole('textbox')).toBeNull();
  },
};

/** Stopping: the feed is being stopped. */
export const Stopping: Story = {
  name: 'Stopping: the feed is being stopped',
  parameters: { msw: { handlers: { deleteFeed: deleteFeedHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const dialog = within(await within(canvasElement).findByRole('dialog', { name: 'Listen in a podcast app' }));
    await userEvent.click(await dialog.findByRole('button', { name: 'Stop this feed' }));
    await expect(await dialog.findByRole('button', { name: 'Stopping...' })).toBeDisabled();
    await expect(dialog.getByRole('textbox', { name: 'Feed address' })).toHaveValue(URL);
  },
};

/** Stop failed: the feed still works and the reader is told why. */
export const StopFailed: Story = {
  name: 'Stop failed: the feed still works and the reader is told why',
  parameters: {
    msw: {
      handlers: {
        deleteFeed: deleteFeedHandler({
          status: 503,
          body: errorBodyFixture('The database is unavailable for a moment; try again shortly'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const dialog = within(await within(canvasElement).findByRole('dialog', { name: 'Listen in a podcast app' }));
    await userEvent.click(await dialog.findByRole('button', { name: 'Stop this feed' }));
    await expect(await dialog.findByRole('alert')).toHaveTextContent('The database is unavailable for a moment');
    await expect(dialog.getByRole('textbox', { name: 'Feed address' })).toHaveValue(URL);
    await expect(dialog.getByRole('button', { name: 'Stop this feed' })).toBeEnabled();
  },
};

/** Failed: the feed could not be made. */
export const Failed: Story = {
  name: 'Failed: the feed could not be made',
  parameters: {
    msw: {
      handlers: {
        createFeed: createFeedHandler(feedFixture(), {
          status: 409,
          body: errorBodyFixture('The audiobook is not finished yet (status PROCESSING)'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const dialog = within(await within(canvasElement).findByRole('dialog', { name: 'Listen in a podcast app' }));
    await expect(await dialog.findByRole('alert')).toHaveTextContent('The audiobook is not finished yet');
  },
};

/** The whole library: one feed of every finished book. */
export const Library: Story = {
  name: 'The whole library: one feed of every finished book',
  args: { jobId: undefined, title: 'Your library' },
  parameters: {
    msw: { handlers: { createFeed: createFeedHandler(feedFixture({ job_id: null, title: 'Lectio library' })) } },
  },
  play: async ({ canvasElement }) => {
    const dialog = within(await within(canvasElement).findByRole('dialog', { name: 'Listen in a podcast app' }));
    await expect(dialog.getByText('Your library')).toBeVisible();
    await expect(await dialog.findByRole('textbox', { name: 'Feed address' })).toHaveValue(URL);
  },
};

/** From the book page: the button opens the dialog, Done closes it. */
export const FromTheBookPage: StoryObj<typeof PodcastFeedButton> = {
  name: 'From the book page: the button opens the dialog, Done closes it',
  render: () => <PodcastFeedButton jobId={bookJobId} title="The Tell-Tale Heart" />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Listen in a podcast app' }));
    const dialog = within(await canvas.findByRole('dialog', { name: 'Listen in a podcast app' }));
    await userEvent.click(await dialog.findByRole('button', { name: 'Done' }));
    await expect(canvas.queryByRole('dialog')).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Listen in a podcast app' })).toHaveFocus();
  },
};

/** From the library: the whole library as a podcast. */
export const FromTheLibrary: StoryObj<typeof PodcastFeedButton> = {
  name: 'From the library: the whole library as a podcast',
  render: () => <PodcastFeedButton title="Your library" label="Library as a podcast" />,
  parameters: {
    msw: { handlers: { createFeed: createFeedHandler(feedFixture({ job_id: null, title: 'Lectio library' })) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Library as a podcast' }));
    const dialog = within(await canvas.findByRole('dialog', { name: 'Listen in a podcast app' }));
    await expect(dialog.getByText('Your library')).toBeVisible();
    await expect(await dialog.findByRole('textbox', { name: 'Feed address' })).toHaveValue(URL);
  },
};
