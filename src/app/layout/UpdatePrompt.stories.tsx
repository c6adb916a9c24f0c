import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { serviceWorkerUpdate } from '../service-worker/update';
import { UpdatePrompt } from './UpdatePrompt';

/** The prompt over a page, as the app shows it. */
function PageWithPrompt() {
  return (
    <>
      <main style={{ padding: 16 }}>
        <h1>Library</h1>
      </main>
      <UpdatePrompt />
    </>
  );
}

/** Stands in for the service worker's take-over (which would reload the page). */
const activate = fn(async () => {
  serviceWorkerUpdate.waiting = false;
});

/**
 * The update prompt: a new version of the app is installed and waiting. It never reloads by
 * itself; the listener presses Reload when it suits them. The stories set the waiting state.
 */
const meta = {
  title: 'App/UpdatePrompt',
  component: PageWithPrompt,
  beforeEach: () => {
    activate.mockClear();
    return () => {
      serviceWorkerUpdate.waiting = false;
      serviceWorkerUpdate.activate = null;
    };
  },
} satisfies Meta<typeof PageWithPrompt>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A new version waits: "Update available" with a Reload button, and nothing reloads yet. */
export const UpdateAvailable: Story = {
  name: 'Update available: a Reload button, nothing reloaded until it is pressed',
  beforeEach: () => {
    serviceWorkerUpdate.activate = activate;
    serviceWorkerUpdate.waiting = true;
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const prompt = canvas.getByRole('status');
    await expect(prompt).toHaveTextContent('Update available');
    await expect(within(prompt).getByRole('button', { name: 'Reload to update' })).toHaveTextContent('Reload');
    await expect(activate).not.toHaveBeenCalled();
  },
};

/** Pressing Reload hands over to the new version (the page then reloads into it). */
export const ReloadPressed: Story = {
  name: 'Reload pressed: the new version takes over',
  beforeEach: () => {
    serviceWorkerUpdate.activate = activate;
    serviceWorkerUpdate.waiting = true;
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Reload to update' }));
    await expect(activate).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(canvas.queryByText('Update available')).toBeNull());
  },
};

/** No new version: no prompt. */
export const UpToDate: Story = {
  name: 'Up to date: no prompt',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Library' })).toBeVisible();
    await expect(canvas.queryByText('Update available')).toBeNull();
    await expect(canvas.queryByRole('button', { name: 'Reload to update' })).toBeNull();
  },
};
