import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { errorBodyFixture } from '../../mocks/fixtures';
import { meHandler } from '../../mocks/handlers';
import { Account } from './Account';

const MB = 1024 * 1024;
const GB = 1024 * MB;

/**
 * The reader’s account: for now how much of their storage their books, uploads and downloads take,
 * as words and as a meter, with a hint when it is nearly full. (A fuller page comes later.)
 */
const meta = {
  title: 'Screens/Account',
  component: Account,
  parameters: {
    route: '/account',
    auth: { user: {} },
    msw: { handlers: { me: meHandler({ storage: { used_bytes: 12 * MB, quota_bytes: 2 * GB } }) } },
  },
} satisfies Meta<typeof Account>;

export default meta;
type Story = StoryObj<typeof meta>;

const meterOf = async (canvasElement: HTMLElement) =>
  within(canvasElement).findByRole('meter', { name: 'Storage used' });

/** A reader with plenty of room: what is used, what is left, and no warning. */
export const PlentyOfRoom: Story = {
  name: 'Plenty of room',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { level: 2, name: 'Storage' })).toBeVisible();
    await expect(canvas.getByText('12 MB of 2 GB used')).toBeVisible();
    await expect(canvas.getByText('2 GB left')).toBeVisible();
    const meter = await meterOf(canvasElement);
    await expect(meter).toHaveAttribute('aria-valuenow', '1');
    await expect(meter).toHaveAttribute('aria-valuetext', '12 MB of 2 GB used (1%)');
    await expect(canvas.getByText('Signed in as reader@example.com')).toBeVisible();
    await expect(canvas.queryByRole('alert')).toBeNull();
    await expect(canvas.queryByText(/nearly full/)).toBeNull();
  },
};

/** Past nine tenths of the quota: the meter turns red and a hint says how to make room. */
export const NearlyFull: Story = {
  name: 'Nearly full: a hint to make room',
  parameters: {
    msw: { handlers: { me: meHandler({ storage: { used_bytes: 1900 * MB, quota_bytes: 2 * GB } }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('1.9 GB of 2 GB used')).toBeVisible();
    await expect(canvas.getByText('148 MB left')).toBeVisible();
    await expect(await meterOf(canvasElement)).toHaveAttribute('aria-valuenow', '93');
    await expect(canvas.getByRole('status')).toHaveTextContent(
      'Your storage is nearly full. A new book may not fit: delete books you no longer need to make room.',
    );
  },
};

/** Nothing left: the reader is told that new books wait until they delete some. */
export const Full: Story = {
  name: 'Full: new books cannot be added',
  parameters: {
    msw: { handlers: { me: meHandler({ storage: { used_bytes: 500 * MB, quota_bytes: 500 * MB } }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('500 MB of 500 MB used')).toBeVisible();
    await expect(canvas.getByText('No space left')).toBeVisible();
    await expect(await meterOf(canvasElement)).toHaveAttribute('aria-valuenow', '100');
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      'Your storage is full. New books cannot be added until you delete books you no longer need.',
    );
  },
};

/** While the server is asked. */
export const Loading: Story = {
  parameters: { msw: { handlers: { me: meHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('status')).toHaveTextContent('Loading your storage...');
  },
};

/** The server cannot say: its reason, and nothing made up. */
export const LoadError: Story = {
  name: 'Error: the storage cannot be loaded',
  parameters: {
    msw: {
      handlers: {
        me: meHandler({
          status: 503,
          body: errorBodyFixture('The database is unavailable for a moment; try again shortly'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      'The database is unavailable for a moment; try again shortly',
    );
    await expect(canvas.queryByRole('meter')).toBeNull();
  },
};
