import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { connectivity } from '../../features/connectivity';
import { OfflineBanner } from './OfflineBanner';

const MESSAGE = "You're offline. Books kept on this device still play.";

/** A signed-in page's top, with the offline line above it when the browser has no network. */
function PageTop() {
  return (
    <>
      <OfflineBanner />
      <main style={{ padding: 16 }}>
        <h1>Library</h1>
      </main>
    </>
  );
}

/**
 * The offline banner: a quiet line at the top of every signed-in page while the browser is
 * offline, saying that kept books still play. The stories set the online state themselves.
 */
const meta = {
  title: 'App/OfflineBanner',
  component: PageTop,
  parameters: { auth: { user: {} }, route: '/library' },
  // Whatever a story sets, the next one starts online, as the browser running them is.
  beforeEach: () => () => {
    connectivity.online = true;
  },
} satisfies Meta<typeof PageTop>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Online: no line, only the empty live region that will announce one. */
export const Online: Story = {
  name: 'Online: no banner',
  beforeEach: () => {
    connectivity.online = true;
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Library' })).toBeVisible();
    await expect(canvas.queryByText(MESSAGE)).toBeNull();
    await expect(canvas.getByRole('status')).toBeEmptyDOMElement();
  },
};

/** Offline: the listener sees the quiet line; it goes when the network comes back. */
export const Offline: Story = {
  name: 'Offline: "You\'re offline. Books kept on this device still play."',
  beforeEach: () => {
    connectivity.online = false;
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('status')).toHaveTextContent(MESSAGE);
    await expect(canvas.getByText(MESSAGE)).toBeVisible();
  },
};

/** The browser's own online event clears the line without a reload. */
export const BackOnline: Story = {
  name: 'Back online: the banner goes by itself',
  beforeEach: () => {
    connectivity.online = false;
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText(MESSAGE)).toBeVisible();
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(canvas.queryByText(MESSAGE)).toBeNull());
    await expect(canvas.getByRole('status')).toBeEmptyDOMElement();
  },
};
