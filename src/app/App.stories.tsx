import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { userFixture } from '../mocks/fixtures';
import { jobsRunningCountHandler, meHandler } from '../mocks/handlers';
import { AppRoutes } from './routes';

/** The whole SPA on an in-memory location: the route table, guards and start-up. */
const meta = {
  title: 'App/Routing',
  component: AppRoutes,
} satisfies Meta<typeof AppRoutes>;

export default meta;
type Story = StoryObj<typeof meta>;

function storeSession({ withUser }: { withUser: boolean }) {
  localStorage.setItem('access_token', 'stored-token');
  if (withUser) localStorage.setItem('user', JSON.stringify(userFixture()));
}

/** A stored session is being checked: the app waits before choosing a page. */
export const LoadingAuth: Story = {
  name: 'Loading (auth not yet confirmed)',
  parameters: { route: '/dashboard', msw: { handlers: { me: meHandler({ delay: 'infinite' }) } } },
  beforeEach: () => storeSession({ withUser: false }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('Loading...')).toBeVisible();
  },
};

/** A signed-out visitor opens a reader’s page: sign in first. */
export const SignedOutProtectedRoute: Story = {
  name: 'Signed out on a protected route lands on /login',
  parameters: { route: '/jobs' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { name: 'Sign in' })).toBeVisible();
  },
};

/** A returning reader opens the app: straight to the Dashboard. */
export const RestoredSession: Story = {
  name: 'Restored session: / goes to the dashboard',
  parameters: { route: '/', msw: { handlers: { jobs: jobsRunningCountHandler(1) } } },
  beforeEach: () => storeSession({ withUser: true }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // The Dashboard is its own chunk: on a loaded machine it may take more than a second to arrive.
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Dashboard' }, { timeout: 10_000 }),
    ).toBeVisible();
    await expect(canvas.getByText('Welcome, reader@example.com')).toBeVisible();
    await expect(await canvas.findByRole('link', { name: 'Jobs (1 running)' })).toBeVisible();
  },
};

/** A signed-in reader opens the sign-in page: back to the Dashboard. */
export const SignedInVisitsLogin: Story = {
  name: 'Signed in on /login goes to the dashboard',
  parameters: { route: '/login' },
  beforeEach: () => storeSession({ withUser: true }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  },
};

/** The session expired: it is cleared and the reader signs in again. */
export const ExpiredSession: Story = {
  name: 'A 401 clears the session and shows /login',
  parameters: { route: '/library', msw: { handlers: { me: meHandler({ status: 401 }) } } },
  beforeEach: () => storeSession({ withUser: true }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { name: 'Sign in' })).toBeVisible();
    await waitFor(() => expect(localStorage.getItem('access_token')).toBeNull());
    await expect(localStorage.getItem('user')).toBeNull();
  },
};

/** An address the app does not know: the Dashboard. */
export const UnknownPath: Story = {
  name: 'Unknown path goes to the dashboard',
  parameters: { route: '/no/such/page' },
  beforeEach: () => storeSession({ withUser: true }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  },
};
