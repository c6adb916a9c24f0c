import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { KEPT_BOOKS_CACHE } from '../../lib/kept-cache';
import { bookJobId } from '../../mocks/audio';
import { keptBookFixture } from '../../mocks/kept-books';
import { completedJobFixture, jobHandler } from '../../mocks/library';
import { KEEP_MESSAGES, READ_ALONG_CACHE } from './cache';
import { KeepOnDevice } from './KeepOnDevice';
import { kept, resetKept } from './state';

/**
 * A finished book kept on this device, for listening without a connection: "Download to this
 * device", its progress while it downloads, what it takes once kept and "Remove from this device",
 * and a clear word when the browser refuses the space.
 */
const meta = {
  title: 'Features/KeptBooks/KeepOnDevice',
  component: KeepOnDevice,
  args: { jobId: bookJobId, title: 'The Tell-Tale Heart' },
  parameters: { auth: { user: {} }, layout: 'padded', msw: { handlers: { job: jobHandler(completedJobFixture()) } } },
  beforeEach: async () => {
    localStorage.removeItem('lectio.keptBooks');
    localStorage.removeItem('lectio.unsentPlaces');
    resetKept();
    await Promise.all([caches.delete(KEPT_BOOKS_CACHE), caches.delete(READ_ALONG_CACHE)]);
  },
} satisfies Meta<typeof KeepOnDevice>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Not kept: one button, nothing downloading. */
export const NotKept: Story = {
  name: 'Not kept: one "Download to this device" button',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: 'Download to this device' })).toBeEnabled();
    await expect(canvas.queryByRole('progressbar')).toBeNull();
    await expect(canvas.queryByText(/On this device/)).toBeNull();
  },
};

/** Downloading: how far it is, in words and as a named progress bar, and a way to stop it. */
export const Downloading: Story = {
  name: 'Downloading: "Downloading… 42 %" and a named progress bar',
  beforeEach: () => {
    kept.downloads[bookJobId] = { status: 'downloading', percent: 42 };
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('status')).toHaveTextContent('Downloading… 42 %');
    const bar = canvas.getByRole('progressbar', { name: 'Downloading The Tell-Tale Heart to this device' });
    await expect(bar).toHaveAttribute('aria-valuenow', '42');
    await expect(canvas.getByRole('button', { name: 'Cancel download' })).toBeEnabled();
    await expect(canvas.queryByRole('button', { name: 'Download to this device' })).toBeNull();
  },
};

/** Kept: what it takes on this device, and the way to let it go. */
export const Kept: Story = {
  name: 'Kept: "On this device · 48.0 MB" and "Remove from this device"',
  beforeEach: () => {
    kept.books[bookJobId] = keptBookFixture();
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('On this device · 48.0 MB')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Remove from this device' })).toBeEnabled();
    await expect(canvas.queryByRole('button', { name: 'Download to this device' })).toBeNull();
    // Persistent storage was granted: no word about the browser clearing it.
    await expect(canvas.queryByText(/may clear it/)).toBeNull();
  },
};

/** Kept without persistent storage: the page says the browser may clear it when space runs low. */
export const KeptNotPersisted: Story = {
  name: 'Kept without persistent storage: the browser may clear it',
  beforeEach: () => {
    kept.books[bookJobId] = keptBookFixture({ persisted: false, bytes: 12 * 1024 * 1024 });
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('On this device · 12.0 MB')).toBeVisible();
    await expect(canvas.getByText('The browser may clear it if this device runs low on space.')).toBeVisible();
  },
};

/** Storage refused: why, in words, and the button for a new try; nothing is kept. */
export const StorageRefused: Story = {
  name: 'Storage refused: a clear message and a new try, nothing kept',
  beforeEach: () => {
    kept.downloads[bookJobId] = { status: 'failed', message: KEEP_MESSAGES.refused };
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent(KEEP_MESSAGES.refused);
    await expect(canvas.getByRole('button', { name: 'Download to this device' })).toBeEnabled();
    await expect(canvas.queryByText(/On this device ·/)).toBeNull();
  },
};

/** No room on the device: the message says so. */
export const NoRoom: Story = {
  name: 'No room: the message says to free some space',
  beforeEach: () => {
    kept.downloads[bookJobId] = { status: 'failed', message: KEEP_MESSAGES.quota };
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent('not enough space on this device');
    await expect(canvas.getByRole('button', { name: 'Download to this device' })).toBeEnabled();
  },
};

/**
 * The whole way, in the browser: the book's answers and the sample audio go into Cache Storage,
 * and the page says what it takes.
 */
export const DownloadKeepsTheBook: Story = {
  name: 'Download: the book is kept, with what it takes',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Download to this device' }));
    await waitFor(() => expect(canvas.getByText(/^On this device · /)).toBeVisible(), { timeout: 10_000 });
    await expect(canvas.getByRole('button', { name: 'Remove from this device' })).toBeEnabled();
    const cache = await caches.open(KEPT_BOOKS_CACHE);
    await expect(await cache.match(new URL(`/api/v1/audio/${bookJobId}/metadata`, location.href).href)).toBeDefined();
    await expect(JSON.parse(localStorage.getItem('lectio.keptBooks') ?? '{}')).toHaveProperty(bookJobId);
  },
};

/** Remove: the book leaves the device, and the button to keep it is back. */
export const RemoveFromDevice: Story = {
  name: 'Remove from this device: back to "Download to this device"',
  beforeEach: () => {
    kept.books[bookJobId] = keptBookFixture();
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Remove from this device' }));
    await expect(await canvas.findByRole('button', { name: 'Download to this device' })).toBeEnabled();
    await expect(canvas.queryByText(/On this device ·/)).toBeNull();
  },
};
