import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { PlayerAudio, playerState, resetPlayer } from '../../features/player';
import { progressFixture, recentProgressHandler } from '../../mocks/audio';
import { convertingBookFixture, coreOf, jobAtStatus, jobsBackend, jobUuid } from '../../mocks/jobs';
import { Dashboard } from './Dashboard';

const specs = [
  ['The Tell-Tale Heart', 'PROCESSING', '2025-02-07'],
  ['The Raven', 'COMPLETED', '2025-02-06'],
  ['', 'FAILED', '2025-02-05'],
  ['Annabel Lee', 'PENDING', '2025-02-04'],
  ['The Black Cat', 'COMPLETED', '2025-02-03'],
  ['The Oval Portrait', 'CANCELLED', '2025-02-08'],
] as const;
const jobs = specs.map(([title, status, day], index) =>
  jobAtStatus(status, { id: jobUuid(index + 1), title, created_at: `${day}T10:00:00Z` }),
);
const [heart, raven, untitled, , blackCat, oval] = jobs;
// A finished chapter job of a cancelled book, newer than every book: the home lists and counts
// books and single texts only, never their chapter jobs.
const strayChapter = jobAtStatus('COMPLETED', {
  id: jobUuid(9),
  title: 'Huge Paste - Chapter 1',
  parent_job_id: oval!.id,
  parent: coreOf(oval!),
  created_at: '2025-02-09T10:00:00Z',
});

const populatedApi = jobsBackend([strayChapter, ...jobs]);
const recentListening = recentProgressHandler([
  progressFixture({ job_id: raven!.id, job_title: 'The Raven', position_seconds: 1800, duration_seconds: 3600 }),
  progressFixture({ id: jobUuid(77, 3), job_id: blackCat!.id, job_title: 'The Black Cat', is_completed: true }),
]);

// A book converting (3 of its 12 chapters ready) and a text that has not reached its chapters yet.
const longNovel = convertingBookFixture({
  title: 'A Long Novel',
  count: 12,
  done: 3,
  createdAt: '2025-02-10T10:00:00Z',
});
const queued = jobAtStatus('PENDING', { id: jobUuid(88), title: 'Morning Paper', progress: 5 });
const convertingApi = jobsBackend([longNovel.book, ...longNovel.chapters, queued, raven!]);

/**
 * Dashboard: the first page after sign-in, listening first: the books to continue, the books converting now, then
 * the counts and the latest jobs.
 */
const meta = {
  title: 'Screens/Dashboard',
  component: Dashboard,
  parameters: {
    route: '/dashboard',
    routeStubs: ['/upload', '/jobs', '/library', `/jobs/${heart!.id}`, `/library/${raven!.id}`],
    auth: { user: { email: 'reader@example.com' } },
    msw: { handlers: { ...populatedApi.handlers, recentProgress: recentListening } },
  },
  // The app keeps its one <audio> element in the layout; the screen alone needs it beside it.
  decorators: [
    (Story) => (
      <>
        <Story />
        <PlayerAudio />
      </>
    ),
  ],
  beforeEach: () => {
    populatedApi.reset();
    convertingApi.reset();
    resetPlayer();
    return () => resetPlayer();
  },
} satisfies Meta<typeof Dashboard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The number shown under a counter's label. */
function counter(canvasElement: HTMLElement, label: string): string | null | undefined {
  return within(canvasElement).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
}

/**
 * A story has no tap to give the browser, which blocks audio that starts without one ("Tap play to
 * start"). Muted, the browser lets it play: the story shows the playing state it names.
 */
const muteForStory = (root: HTMLElement) => {
  const audio = root.ownerDocument.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
  if (audio) audio.muted = true;
};

/** Just after sign-in, while the shelves load: placeholders keep the layout still. */
export const Loading: Story = {
  parameters: { msw: { handlers: jobsBackend([], { list: { delay: 'infinite' } }).handlers } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('Loading jobs...')).toBeVisible();
    await expect(counter(canvasElement, 'Total Jobs')).toBe('…');
    await expect(canvas.getByText('Welcome, reader@example.com')).toBeVisible();
  },
};

/** A new reader with no books: one invitation to add the first. */
export const ShelvesEmpty: Story = {
  name: 'Shelves empty: nothing added yet',
  parameters: { msw: { handlers: { ...jobsBackend([]).handlers, recentProgress: recentProgressHandler([]) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { name: 'Nothing to listen to yet' })).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Add your first book' })).toHaveAttribute('href', '/upload');
    // Each counter is its own request: wait for its number, however loaded the machine is.
    for (const label of ['Total Jobs', 'Completed', 'Running', 'Failed', 'Cancelled']) {
      await waitFor(() => expect(counter(canvasElement, label)).toBe('0'), { timeout: 10_000 });
    }
    await expect(canvas.queryByRole('region', { name: 'Continue listening' })).toBeNull();
    await expect(canvas.getByText('No jobs yet.')).toBeVisible();
  },
};

/** The new reader follows Add your first book to the upload page. */
export const EmptyCtaNavigates: Story = {
  tags: ['navigates'],
  name: 'Shelves empty: Add your first book opens the upload page',
  parameters: ShelvesEmpty.parameters,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('link', { name: 'Add your first book' }));
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /upload' })).toBeVisible();
  },
};

/**
 * A reader with books under way: Continue listening first, then what converts, the counts and recent jobs.
 */
export const ShelvesPopulated: Story = {
  name: 'Shelves populated: listening first, then the counts and the recent jobs',
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement);
    await step('Continue listening: the unfinished book, with a play button and the time left', async () => {
      const shelf = within(await canvas.findByRole('region', { name: 'Continue listening' }));
      await expect(shelf.getByRole('button', { name: 'Play The Raven' })).toBeVisible();
      await expect(shelf.getByText('30m left')).toBeVisible();
      await expect(shelf.queryByText('The Black Cat')).toBeNull();
    });
    await step('Recently added: the books that can be played, newest first', async () => {
      const shelf = within(await canvas.findByRole('region', { name: 'Recently added' }));
      const titles = shelf.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
      await expect(titles).toEqual(['The Raven', 'The Black Cat']);
    });
    await step('the counters count books and single texts, cancelled ones too: the parts add up', async () => {
      const expected = { 'Total Jobs': '6', Completed: '2', Running: '2', Failed: '1', Cancelled: '1' };
      for (const [label, count] of Object.entries(expected))
        await waitFor(() => expect(counter(canvasElement, label)).toBe(count), { timeout: 10_000 });
    });
    await step('recent jobs: books and single texts only, the cancelled one shown as cancelled', async () => {
      const recent = within(canvas.getByRole('list', { name: 'Recent jobs' }));
      await expect(recent.getAllByRole('link')).toHaveLength(5);
      await expect(recent.queryByRole('link', { name: /Chapter 1/ })).toBeNull();
      await expect(recent.getByRole('link', { name: /The Oval Portrait/ })).toHaveTextContent('CANCELLED');
      await expect(recent.getByRole('link', { name: new RegExp(`Job ${untitled!.id.slice(0, 8)}`) })).toBeVisible();
    });
  },
};

/** Play on a shelf starts the book right on the home page, in the mini-player. */
export const PlayFromTheShelf: Story = {
  name: 'Shelves populated: Play starts the book right here',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const shelf = within(await canvas.findByRole('region', { name: 'Continue listening' }));
    muteForStory(canvasElement);
    await userEvent.click(shelf.getByRole('button', { name: 'Play The Raven' }));
    // The page stays; the player has the book (the mini-player shows it in the app).
    await expect(await shelf.findByRole('button', { name: 'Pause The Raven' }, { timeout: 5000 })).toBeVisible();
    await expect(playerState.currentJobId).toBe(raven!.id);
    await expect(canvas.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  },
};

/** A long book is converting: it shows how many chapters are ready and offers Listen once one is. */
export const ShelvesConverting: Story = {
  name: 'Shelves converting: chapters ready, and Listen once the first one is',
  parameters: { msw: { handlers: { ...convertingApi.handlers, recentProgress: recentProgressHandler([]) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const shelf = within(await canvas.findByRole('region', { name: 'Converting now' }));
    await expect(shelf.getByText('3 of 12 chapters ready')).toBeVisible();
    await expect(shelf.getByRole('button', { name: 'Listen to A Long Novel' })).toBeVisible();
    // A text not yet read into chapters has nothing to play.
    await expect(shelf.getByText('Converting (5%)')).toBeVisible();
    await expect(shelf.queryByRole('button', { name: /Morning Paper/ })).toBeNull();
    // A converting book with chapters ready is in Recently added too (its own query: wait for it).
    const added = within(await canvas.findByRole('region', { name: 'Recently added' }));
    await expect(await added.findByRole('heading', { name: 'A Long Novel' })).toBeVisible();
  },
};

/** The populated home in the dark theme, for listening at night. */
export const DarkMode: Story = {
  name: 'Dark mode: shelves populated',
  parameters: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('region', { name: 'Continue listening' })).toBeVisible();
    // The dark theme's page, not the light one's.
    await expect(getComputedStyle(canvasElement.ownerDocument.body).backgroundColor).toBe('rgb(25, 21, 18)');
  },
};

/** The reader opens a job from the recent list to follow it. */
export const OpensARecentJob: Story = {
  tags: ['navigates'],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // The Recent Jobs row (the shelves' covers open the book page instead).
    const recent = within(await canvas.findByRole('list', { name: 'Recent jobs' }));
    await userEvent.click(await recent.findByRole('link', { name: /The Tell-Tale Heart/ }));
    await expect(await canvas.findByRole('heading', { name: `Navigated to /jobs/${heart!.id}` })).toBeVisible();
  },
};

/** The Dashboard's actions, in the specification's words and order: upload, every job, the library. */
export const Actions: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('link', { name: 'Upload New Story' })).toHaveAttribute('href', '/upload');
    await expect(canvas.getByRole('link', { name: 'View All Jobs' })).toHaveAttribute('href', '/jobs');
    await expect(canvas.getByRole('link', { name: 'Browse Library' })).toHaveAttribute('href', '/library');
    const actions = canvas.getAllByRole('link', { name: /^(Upload New Story|View All Jobs|Browse Library)$/ });
    await expect(actions.map((link) => link.textContent)).toEqual([
      'Upload New Story',
      'View All Jobs',
      'Browse Library',
    ]);
    // The shelves still come first below the actions, before the counters.
    const shelf = await canvas.findByRole('region', { name: 'Continue listening' });
    const counts = canvas.getByRole('heading', { name: 'Your jobs' });
    await expect(shelf.compareDocumentPosition(counts) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  },
};

/** View All Jobs opens the jobs list. */
export const ViewAllJobsNavigates: Story = {
  tags: ['navigates'],
  name: 'Actions: View All Jobs opens the jobs list',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('link', { name: 'View All Jobs' }));
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /jobs' })).toBeVisible();
  },
};

/** The jobs cannot be loaded: the home says so and keeps its actions. */
export const Error: Story = {
  parameters: { msw: { handlers: jobsBackend([], { list: { status: 500 } }).handlers } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      'Your jobs could not be loaded. Reload the page to try again.',
    );
    await waitFor(() => expect(counter(canvasElement, 'Total Jobs')).toBe('—'));
    await expect(canvas.getByRole('link', { name: 'Upload New Story' })).toBeVisible();
  },
};
