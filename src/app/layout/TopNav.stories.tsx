import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { resetPlayer } from '../../features/player';
import { bookJobId, progressFixture } from '../../mocks/audio';
import { jobsRunningCountHandler } from '../../mocks/handlers';
import { convertingBookFixture, jobAtStatus, jobsBackend, jobUuid } from '../../mocks/jobs';
import { getSaveProgressMockHandler } from '../../api/gen/endpoints/progress/save-progress.msw';
import { TopNav } from './TopNav';

/** The top bar: the app’s places, the running jobs count, the light/dark toggle and sign out. */
const meta = {
  title: 'App/TopNav',
  component: TopNav,
  parameters: { route: '/jobs', routeStubs: ['/login'], auth: { user: { email: 'reader@example.com' } } },
} satisfies Meta<typeof TopNav>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Jobs are running: the count shows on Jobs. */
export const WithBadge: Story = {
  parameters: { msw: { handlers: { jobs: jobsRunningCountHandler(3) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const jobs = await canvas.findByRole('link', { name: 'Jobs (3 running)' });
    await expect(jobs).toHaveAttribute('aria-current', 'page');
    await expect(canvas.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
    await expect(canvas.getByRole('link', { name: 'Upload New Story' })).toHaveAttribute('href', '/upload');
    // The places in the order of the specification, each under its own name.
    const places = within(canvas.getByRole('navigation', { name: 'Main' })).getAllByRole('link');
    await expect(places.map((link) => link.textContent?.replace(/\(\d+ running\)|\d/g, '').trim())).toEqual([
      'Dashboard',
      'Jobs',
      'Library',
      'Voice Assistant',
    ]);
    await expect(canvas.getByText('reader@example.com')).toBeVisible();
  },
};

// One book converting (3 chapters: 1 done, 1 converting, 1 waiting) and one single text running.
const runningBook = convertingBookFixture({ title: 'A Long Novel', count: 3, done: 1 });
const bookBadgeApi = jobsBackend([
  runningBook.book,
  ...runningBook.chapters,
  jobAtStatus('PROCESSING', { id: jobUuid(70), title: 'The Raven' }),
]);

/** A converting book counts as one job, not one per chapter. */
export const RunningBookCountsAsOne: Story = {
  name: 'Badge: a converting book counts as one job, not one per chapter',
  parameters: { msw: { handlers: { jobs: bookBadgeApi.handlers.jobs } } },
  beforeEach: () => bookBadgeApi.reset(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // The book and the single text; its two unfinished chapter jobs are not counted again.
    await expect(await canvas.findByRole('link', { name: 'Jobs (2 running)' })).toBeVisible();
    const asked = bookBadgeApi.listRequests.at(-1);
    await expect(asked?.searchParams.get('status')).toBe('running');
    await expect(asked?.searchParams.get('top_level')).toBe('true');
  },
};

/** Nothing running: no count. */
export const WithoutBadge: Story = {
  parameters: { route: '/library', msw: { handlers: { jobs: jobsRunningCountHandler(0) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('link', { name: 'Library' })).toHaveAttribute('aria-current', 'page');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(canvas.getByRole('link', { name: 'Jobs' })).toBeVisible();
  },
};

/** The count cannot be fetched: no count, no error. */
export const JobsRouteMissing: Story = {
  name: 'Without badge when the jobs call fails',
  parameters: { msw: { handlers: { jobs: jobsRunningCountHandler(0, { status: 404 }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(canvas.getByRole('link', { name: 'Jobs' })).toBeVisible();
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/** The toggle switches the theme and remembers it. */
export const DarkModeToggle: Story = {
  name: 'Dark mode: the toggle switches the theme and remembers it',
  parameters: { msw: { handlers: { jobs: jobsRunningCountHandler(0) } } },
  beforeEach: () => {
    localStorage.setItem('lectio.colorScheme', 'light');
    return () => localStorage.removeItem('lectio.colorScheme');
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const body = canvasElement.ownerDocument.body;
    const toggle = canvas.getByRole('button', { name: 'Dark mode' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await expect(getComputedStyle(body).backgroundColor).toBe('rgb(250, 246, 240)');
    await userEvent.click(toggle);
    await waitFor(() =>
      expect(canvas.getByRole('button', { name: 'Dark mode' })).toHaveAttribute('aria-pressed', 'true'),
    );
    await expect(getComputedStyle(body).backgroundColor).toBe('rgb(25, 21, 18)');
    // Kept for the next visit, whatever the system prefers.
    await expect(localStorage.getItem('lectio.colorScheme')).toBe('dark');
  },
};

/** The top bar in the dark theme. */
export const DarkMode: Story = {
  name: 'Dark mode: the top bar at night',
  parameters: { theme: 'dark', msw: { handlers: { jobs: jobsRunningCountHandler(2) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('link', { name: 'Jobs (2 running)' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Dark mode' })).toHaveAttribute('aria-pressed', 'true');
  },
};

/** What the server received when the reader signed out in the middle of a book. */
const savedOnSignOut: { authorization: string | null; position: number | null }[] = [];

/** Signing out while listening saves the place first. */
export const SignOutKeepsThePlace: Story = {
  tags: ['navigates'],
  name: 'Sign out while listening keeps the place',
  parameters: {
    msw: {
      handlers: {
        saveProgress: getSaveProgressMockHandler(async ({ request }) => {
          const body = (await request.json()) as { position_seconds: number };
          savedOnSignOut.push({ authorization: request.headers.get('authorization'), position: body.position_seconds });
          return progressFixture({ job_id: bookJobId, position_seconds: body.position_seconds });
        }),
      },
    },
  },
  beforeEach: () => {
    savedOnSignOut.length = 0;
    resetPlayer({
      currentJobId: bookJobId,
      streamFrom: bookJobId,
      currentPosition: 754.2,
      duration: 1800,
      isLoading: false,
    });
    return () => resetPlayer();
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(canvas.getByRole('heading', { name: 'Navigated to /login' })).toBeVisible());
    // Saved once, with the reader's token still on the request, before the session was cleared.
    await expect(savedOnSignOut).toEqual([{ authorization: expect.stringMatching(/^Bearer .+/), position: 754.2 }]);
    await expect(localStorage.getItem('access_token')).toBeNull();
  },
};

/** Sign out goes to the sign-in page. */
export const SignOut: Story = {
  tags: ['navigates'],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(canvas.getByRole('heading', { name: 'Navigated to /login' })).toBeVisible());
    await expect(localStorage.getItem('access_token')).toBeNull();
    await expect(localStorage.getItem('user')).toBeNull();
  },
};

/** Account, beside Sign out, opens the reader's account page (their storage). */
export const AccountLink: Story = {
  tags: ['navigates'],
  name: 'Account opens the account page',
  parameters: { routeStubs: ['/login', '/account'], msw: { handlers: { jobs: jobsRunningCountHandler(0) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const account = canvas.getByRole('link', { name: 'Account' });
    await expect(account).toHaveAttribute('href', '/account');
    await expect(account).not.toHaveAttribute('aria-current');
    await userEvent.click(account);
    await waitFor(() => expect(canvas.getByRole('heading', { name: 'Navigated to /account' })).toBeVisible());
  },
};
