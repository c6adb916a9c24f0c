import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { convertingBookFixture, jobAtStatus, jobsBackend, jobUuid, manyJobsFixture } from '../../mocks/jobs';
import { Jobs } from './Jobs';

const titles = [
  'The Tell-Tale Heart',
  'The Raven',
  'The Gold-Bug',
  'Annabel Lee',
  'The Black Cat',
  'The Oval Portrait',
];
const statuses = ['PROCESSING', 'COMPLETED', 'FAILED', 'PENDING', 'COMPLETED', 'CANCELLED'] as const;
const populated = titles.map((title, index) =>
  jobAtStatus(statuses[index] ?? 'COMPLETED', {
    id: jobUuid(index + 1),
    title,
    created_at: `2025-02-0${7 - index}T10:00:00Z`,
    updated_at: `2025-02-0${7 - index}T10:30:00Z`,
    config:
      index === 1
        ? { provider: 'elevenlabs', voice_config: { provider: 'elevenlabs', voice_id: 'adam' } }
        : { provider: 'openai', voice_config: { provider: 'openai', voice_id: 'alloy' } },
  }),
);
const raven = populated[1]!;
const heart = populated[0]!;

const populatedApi = jobsBackend(populated);
const emptyApi = jobsBackend([]);
const pagedApi = jobsBackend(manyJobsFixture(73));
// A 12-chapter book, 9 chapters done: its chapter jobs are stored (and listed by GET /jobs without
// top_level) like the server's, but the list shows them only under the book.
const { book, chapters } = convertingBookFixture({ title: 'A Long Novel', count: 12, done: 9 });
const familyApi = jobsBackend([book, ...chapters, ...populated]);

/**
 * Jobs: every conversion the reader started, to follow, search, filter, sort, cancel, retry or delete; books
 * list their chapters.
 */
const meta = {
  title: 'Screens/Jobs',
  component: Jobs,
  parameters: {
    route: '/jobs',
    routeStubs: [
      '/upload',
      `/library/${raven.id}`,
      `/jobs/${book.id}`,
      `/jobs/${heart.id}`,
      `/jobs/${chapters[9]!.id}`,
    ],
    auth: { user: {} },
    msw: { handlers: populatedApi.handlers },
  },
  beforeEach: () => {
    for (const api of [populatedApi, emptyApi, pagedApi, familyApi]) api.reset();
  },
} satisfies Meta<typeof Jobs>;

export default meta;
type Story = StoryObj<typeof meta>;

const lastList = (api: typeof populatedApi) =>
  api.listRequests.filter((url) => url.searchParams.get('page_size') === '10').at(-1);

/** While the list loads. */
export const Loading: Story = {
  parameters: { msw: { handlers: jobsBackend([], { list: { delay: 'infinite' } }).handlers } },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('Loading jobs...')).toBeVisible();
  },
};

/** A reader who has converted nothing yet: an invitation to upload a story. */
export const Empty: Story = {
  name: 'Empty (no jobs yet)',
  parameters: { msw: { handlers: emptyApi.handlers } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { name: 'No jobs yet' })).toBeVisible();
    await expect(canvas.getByText('0 jobs')).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Upload Story' })).toHaveAttribute('href', '/upload');
  },
};

/** Upload Story from the empty list opens the upload page. */
export const EmptyCtaNavigates: Story = {
  tags: ['navigates'],
  name: 'Empty: Upload Story opens the upload page',
  parameters: Empty.parameters,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('link', { name: 'Upload Story' }));
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /upload' })).toBeVisible();
  },
};

/** The filters leave nothing: Clear Filters brings the list back. */
export const NoMatches: Story = {
  name: 'No matches (filters active; Clear Filters)',
  parameters: { route: '/jobs?q=nothing-like-this&status=failed' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { name: 'No jobs match your filters' })).toBeVisible();
    await expect(canvas.getByLabelText('Search')).toHaveValue('nothing-like-this');
    await expect(canvas.getByLabelText('Status')).toHaveValue('failed');
    await userEvent.click(canvas.getByRole('button', { name: 'Clear Filters' }));
    await expect(await canvas.findByText('6 jobs')).toBeVisible();
    await expect(canvas.getByLabelText('Search')).toHaveValue('');
    await expect(canvas.getByLabelText('Status')).toHaveValue('all');
    const request = lastList(populatedApi);
    await expect(request?.searchParams.has('q')).toBe(false);
    await expect(request?.searchParams.has('status')).toBe(false);
  },
};

/** A reader with jobs in every state: status, progress and the action each allows. */
export const Populated: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('6 jobs')).toBeVisible();
    const card = canvas.getByRole('article', { name: 'The Raven' });
    const inCard = within(card);
    await expect(inCard.getByText('COMPLETED')).toBeVisible();
    // No raw ids at first glance: the job page keeps them under Technical details.
    await expect(inCard.queryByText(raven.id.slice(0, 8))).toBeNull();
    // People read the voice's name, not the wire value.
    await expect(inCard.getByText('ElevenLabs')).toBeVisible();
    await expect(inCard.queryByRole('button', { name: /^Cancel/ })).toBeNull();
    const running = within(canvas.getByRole('article', { name: 'The Tell-Tale Heart' }));
    await expect(running.getByRole('button', { name: 'Cancel The Tell-Tale Heart' })).toBeVisible();
    await expect(running.queryByRole('link', { name: /^Play/ })).toBeNull();
    await expect(running.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '60');
    // A page that fits needs no pager.
    await expect(canvas.queryByRole('navigation', { name: 'Jobs pages' })).toBeNull();
    await expect(inCard.getByRole('link', { name: 'Play The Raven' })).toHaveAttribute('href', `/library/${raven.id}`);
  },
};

/** Play on a finished job opens its book page. */
export const PlayOpensTheBook: Story = {
  tags: ['navigates'],
  name: 'Populated: Play on a finished job opens its book page',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = within(await canvas.findByRole('article', { name: 'The Raven' }));
    await userEvent.click(card.getByRole('link', { name: 'Play The Raven' }));
    await expect(await canvas.findByRole('heading', { name: `Navigated to /library/${raven.id}` })).toBeVisible();
  },
};

/** The reader keeps only the running jobs. */
export const FilterByStatus: Story = {
  name: 'Filter: Running sends status=running',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('6 jobs');
    await userEvent.selectOptions(canvas.getByLabelText('Status'), 'running');
    await expect(await canvas.findByText('2 jobs')).toBeVisible();
    await expect(lastList(populatedApi)?.searchParams.get('status')).toBe('running');
    await expect(canvas.getByRole('article', { name: 'The Tell-Tale Heart' })).toBeVisible();
    await expect(canvas.getByRole('article', { name: 'Annabel Lee' })).toBeVisible();
    await expect(canvas.queryByRole('article', { name: 'The Raven' })).toBeNull();
  },
};

/** The reader searches by title; the list asks once typing pauses. */
export const Search: Story = {
  name: 'Search: q is sent once typing pauses',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('6 jobs');
    await userEvent.type(canvas.getByLabelText('Search'), 'raven');
    await expect(await canvas.findByText('1 job')).toBeVisible();
    await expect(canvas.getByRole('article', { name: 'The Raven' })).toBeVisible();
    const sent = populatedApi.listRequests.map((url) => url.searchParams.get('q')).filter(Boolean);
    // Debounced: one search for the whole word, none per keystroke.
    await expect(sent).toEqual(['raven']);
  },
};

/** Searching by the start of a job id, as support would ask. */
export const SearchById: Story = {
  name: 'Search by the start of an id',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('6 jobs');
    await userEvent.type(canvas.getByLabelText('Search'), raven.id.slice(0, 8));
    await expect(await canvas.findByText('1 job')).toBeVisible();
    await expect(canvas.getByRole('article', { name: 'The Raven' })).toBeVisible();
  },
};

/** Sorting by date, newest or oldest first. */
export const Sort: Story = {
  name: 'Sort: the date sorts send sort and order',
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('6 jobs');
    const titlesShown = () => canvas.getAllByRole('article').map((card) => card.querySelector('h2')?.textContent);
    await expect(titlesShown()[0]).toBe('The Tell-Tale Heart');
    await step('Oldest', async () => {
      await userEvent.selectOptions(canvas.getByLabelText('Sort by'), 'oldest');
      await waitFor(() => expect(titlesShown()[0]).toBe('The Oval Portrait'));
      const request = lastList(populatedApi);
      await expect(request?.searchParams.get('sort')).toBe('created_at');
      await expect(request?.searchParams.get('order')).toBe('asc');
    });
    await step('Recently updated', async () => {
      await userEvent.selectOptions(canvas.getByLabelText('Sort by'), 'updated');
      await waitFor(() => expect(lastList(populatedApi)?.searchParams.get('sort')).toBe('updated_at'));
      await expect(lastList(populatedApi)?.searchParams.get('order')).toBe('desc');
      await waitFor(() => expect(titlesShown()[0]).toBe('The Tell-Tale Heart'));
    });
    await step('Title', async () => {
      await userEvent.selectOptions(canvas.getByLabelText('Sort by'), 'title');
      await waitFor(() => expect(titlesShown()[0]).toBe('Annabel Lee'));
      await expect(lastList(populatedApi)?.searchParams.get('order')).toBe('asc');
    });
  },
};

/** More jobs than a page holds: at most five page buttons. */
export const SeveralPages: Story = {
  name: 'Several pages (at most 5 page buttons)',
  parameters: { msw: { handlers: pagedApi.handlers } },
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('73 jobs')).toBeVisible();
    const pager = within(canvas.getByRole('navigation', { name: 'Jobs pages' }));
    const numbers = () => pager.getAllByRole('button', { name: /^Page \d+$/ }).map((button) => button.textContent);
    await expect(numbers()).toEqual(['1', '2', '3', '4', '5']);
    await expect(pager.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await expect(canvas.getAllByRole('article')).toHaveLength(10);
    await step('page 2 asks the server for page=2', async () => {
      await userEvent.click(pager.getByRole('button', { name: 'Page 2' }));
      await waitFor(() => expect(lastList(pagedApi)?.searchParams.get('page')).toBe('2'));
      await expect(lastList(pagedApi)?.searchParams.get('page_size')).toBe('10');
      await expect(await canvas.findByRole('article', { name: 'Story 11' })).toBeVisible();
      await expect(pager.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    });
    await step('Next moves the window', async () => {
      await userEvent.click(pager.getByRole('button', { name: 'Next' }));
      await userEvent.click(pager.getByRole('button', { name: 'Next' }));
      await expect(await canvas.findByRole('article', { name: 'Story 31' })).toBeVisible();
      await expect(numbers()).toEqual(['2', '3', '4', '5', '6']);
      await userEvent.click(pager.getByRole('button', { name: 'Page 6' }));
      await userEvent.click(pager.getByRole('button', { name: 'Page 8' }));
      await expect(await canvas.findByRole('article', { name: 'Story 73' })).toBeVisible();
      await expect(canvas.getAllByRole('article')).toHaveLength(3);
      await expect(numbers()).toEqual(['4', '5', '6', '7', '8']);
      await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();
    });
    await step('Previous goes back one page', async () => {
      await userEvent.click(pager.getByRole('button', { name: 'Previous' }));
      await waitFor(() => expect(lastList(pagedApi)?.searchParams.get('page')).toBe('7'));
    });
  },
};

/** The list cannot be loaded: the error and a way to try again. */
export const Error: Story = {
  parameters: { msw: { handlers: jobsBackend([], { list: { status: 500 } }).handlers } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to fetch jobs');
    await expect(canvas.queryByRole('heading', { name: 'No jobs yet' })).toBeNull();
  },
};

/** The list cannot be loaded and the server says why. */
export const ErrorWithServerMessage: Story = {
  parameters: {
    msw: {
      handlers: jobsBackend([], {
        list: { status: 503, body: { detail: 'The database is restarting', message: 'The database is restarting' } },
      }).handlers,
    },
  },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('alert')).toHaveTextContent('The database is restarting');
  },
};

const bookCard = async (canvasElement: HTMLElement) => {
  const canvas = within(canvasElement);
  const card = await canvas.findByRole('article', { name: 'A Long Novel' });
  return { canvas, card: within(card) };
};

/** A book’s row: its overall progress, its chapters folded away. */
export const BookCollapsed: Story = {
  name: 'BookCollapsed (a book row with its progress, chapters hidden)',
  parameters: { msw: { handlers: familyApi.handlers } },
  play: async ({ canvasElement }) => {
    const { canvas, card } = await bookCard(canvasElement);
    // The book and the six single texts; its twelve chapter jobs are not rows of their own.
    await expect(await canvas.findByText('7 jobs')).toBeVisible();
    await expect(lastList(familyApi)?.searchParams.get('top_level')).toBe('true');
    await expect(card.getByText('9 of 12 chapters done')).toBeVisible();
    const toggle = card.getByRole('button', { name: 'Show chapters of A Long Novel' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(canvas.queryByRole('list', { name: 'Chapters of A Long Novel' })).toBeNull();
    await expect(canvas.queryByText('Chapter 1')).toBeNull();
    await expect(canvas.queryByRole('article', { name: /Chapter/ })).toBeNull();
    await expect(canvas.getAllByRole('article')).toHaveLength(7);
    // Closed, nothing is fetched for the book's chapters.
    await expect(card.queryByText('Loading chapters...')).toBeNull();
  },
};

/** A book opened: its chapters in chapter order, each with its state. */
export const BookExpanded: Story = {
  name: 'BookExpanded (a book opened: its chapters in chapter order)',
  parameters: { msw: { handlers: familyApi.handlers } },
  play: async ({ canvasElement }) => {
    const { canvas, card } = await bookCard(canvasElement);
    const toggle = card.getByRole('button', { name: 'Show chapters of A Long Novel' });
    await userEvent.click(toggle);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const list = await card.findByRole('list', { name: 'Chapters of A Long Novel' });
    await expect(toggle).toHaveAttribute('aria-controls', list.parentElement?.id);
    const rows = within(list).getAllByRole('listitem');
    // Chapter order, not the titles' text: "Chapter 10" comes after "Chapter 9", not after "Chapter 1".
    await expect(rows.map((row) => row.querySelector('.title')?.textContent)).toEqual(
      Array.from({ length: 12 }, (_, index) => `Chapter ${index + 1}`),
    );
    const ninth = within(rows[8]!);
    await expect(ninth.getByText('COMPLETED')).toBeVisible();
    await expect(ninth.getByRole('link', { name: 'Play A Long Novel - Chapter 9' })).toBeVisible();
    const tenth = within(rows[9]!);
    await expect(tenth.getByText('PROCESSING')).toBeVisible();
    await expect(tenth.queryByRole('link', { name: /^Play/ })).toBeNull();
    await expect(tenth.getByRole('link', { name: 'View A Long Novel - Chapter 10' })).toHaveAttribute(
      'href',
      `/jobs/${chapters[9]!.id}`,
    );
    await expect(within(rows[11]!).getByText('PENDING')).toBeVisible();
    // Still one row per book: the chapters are inside the book's card.
    await expect(canvas.getAllByRole('article')).toHaveLength(7);
  },
};

/** A book opened and closed again: its chapters hidden once more. */
export const BookChaptersHidden: Story = {
  name: 'A book opened and closed again: its chapters are hidden',
  parameters: { msw: { handlers: familyApi.handlers } },
  play: async ({ canvasElement }) => {
    const { canvas, card } = await bookCard(canvasElement);
    const toggle = card.getByRole('button', { name: 'Show chapters of A Long Novel' });
    await userEvent.click(toggle);
    await card.findByRole('list', { name: 'Chapters of A Long Novel' });
    await userEvent.click(toggle);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(canvas.queryByRole('list', { name: 'Chapters of A Long Novel' })).toBeNull();
  },
};

/** Opens the cancel confirmation for the running Tell-Tale Heart and returns the dialog. */
const askToCancel = async (canvas: ReturnType<typeof within>) => {
  const card = within(await canvas.findByRole('article', { name: 'The Tell-Tale Heart' }));
  await userEvent.click(card.getByRole('button', { name: 'Cancel The Tell-Tale Heart' }));
  return canvas.findByRole('alertdialog', { name: 'Cancel "The Tell-Tale Heart"?' });
};

/** Cancel on a running job asks first. */
export const CancelAsksFirst: Story = {
  name: 'Cancel an active job: the confirmation dialog is open',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const dialog = await askToCancel(canvas);
    await expect(dialog).toHaveAccessibleDescription(
      /"The Tell-Tale Heart" stops converting now\. A cancelled conversion cannot be resumed/,
    );
    await expect(within(dialog).getByRole('button', { name: 'Keep converting' })).toHaveFocus();
    await expect(within(dialog).getByRole('button', { name: 'Cancel conversion' })).toBeEnabled();
    // Nothing is cancelled until the reader confirms.
    await expect(populatedApi.jobs().find((job) => job.id === heart.id)?.status).toBe('PROCESSING');
  },
};

/** The reader changes their mind: the job keeps converting. */
export const CancelKeptConverting: Story = {
  name: 'Cancel, then Keep converting: the job still runs',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const dialog = await askToCancel(canvas);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep converting' }));
    await expect(canvas.queryByRole('alertdialog')).toBeNull();
    const card = within(canvas.getByRole('article', { name: 'The Tell-Tale Heart' }));
    await expect(card.getByText('PROCESSING')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Cancel The Tell-Tale Heart' })).toHaveFocus();
    await expect(populatedApi.jobs().find((job) => job.id === heart.id)?.status).toBe('PROCESSING');
  },
};

/** Cancel confirmed: the job is cancelled. */
export const CancelledAfterConfirming: Story = {
  name: 'Cancel, confirmed: the job is CANCELLED',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = within(await canvas.findByRole('article', { name: 'The Tell-Tale Heart' }));
    await expect(card.getByText('PROCESSING')).toBeVisible();
    const dialog = await askToCancel(canvas);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel conversion' }));
    await expect(await card.findByText('CANCELLED')).toBeVisible();
    await expect(canvas.queryByRole('alertdialog')).toBeNull();
    await expect(card.queryByRole('button', { name: /^Cancel/ })).toBeNull();
    await expect(populatedApi.jobs().find((job) => job.id === heart.id)?.status).toBe('CANCELLED');
  },
};

/** The cancel request fails: nothing changes on screen. */
export const CancelFails: Story = {
  name: 'Cancel fails: only logged',
  parameters: {
    msw: { handlers: { cancelJob: jobsBackend(populated, { cancel: { status: 409 } }).handlers.cancelJob } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = within(await canvas.findByRole('article', { name: 'The Tell-Tale Heart' }));
    const dialog = await askToCancel(canvas);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel conversion' }));
    await waitFor(() => expect(card.getByRole('button', { name: 'Cancel The Tell-Tale Heart' })).toBeEnabled());
    await expect(card.getByText('PROCESSING')).toBeVisible();
    await expect(canvas.queryByRole('alert')).toBeNull();
    await expect(canvas.queryByRole('alertdialog')).toBeNull();
  },
};

const deleteApi = jobsBackend(populated);
const deleteFailsApi = jobsBackend(populated, {
  remove: { status: 404, body: { detail: 'Job not found', message: 'Job not found' } },
});

/** Delete on a finished job asks first. */
export const DeleteAsks: Story = {
  name: 'Delete a finished job: the confirmation dialog is open',
  parameters: { msw: { handlers: deleteApi.handlers } },
  beforeEach: () => deleteApi.reset(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('6 jobs');
    // Running jobs are cancelled, not deleted.
    const running = within(canvas.getByRole('article', { name: 'The Tell-Tale Heart' }));
    await expect(running.queryByRole('button', { name: /^Delete/ })).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Delete The Raven' }));
    const dialog = await canvas.findByRole('alertdialog', { name: 'Delete "The Raven"?' });
    await expect(dialog).toHaveAccessibleDescription(/removed for good/);
    await expect(within(dialog).getByRole('button', { name: 'Keep it' })).toHaveFocus();
    await expect(deleteApi.jobs()).toHaveLength(6);
  },
};

/** The reader keeps the job: nothing is deleted. */
export const DeleteKept: Story = {
  name: 'Delete, then Keep it: nothing is deleted',
  parameters: { msw: { handlers: deleteApi.handlers } },
  beforeEach: () => deleteApi.reset(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('6 jobs');
    await userEvent.click(canvas.getByRole('button', { name: 'Delete The Raven' }));
    const dialog = await canvas.findByRole('alertdialog', { name: 'Delete "The Raven"?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await expect(canvas.queryByRole('alertdialog')).toBeNull();
    await expect(canvas.getByRole('article', { name: 'The Raven' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Delete The Raven' })).toHaveFocus();
    await expect(deleteApi.jobs()).toHaveLength(6);
  },
};

/** Delete confirmed: the job leaves the list. */
export const Deleted: Story = {
  name: 'Delete confirmed: the job leaves the list',
  parameters: { msw: { handlers: deleteApi.handlers } },
  beforeEach: () => deleteApi.reset(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('6 jobs');
    await userEvent.click(canvas.getByRole('button', { name: 'Delete The Raven' }));
    const dialog = await canvas.findByRole('alertdialog', { name: 'Delete "The Raven"?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(canvas.queryByRole('alertdialog')).toBeNull());
    await expect(await canvas.findByText('Deleted "The Raven".')).toBeVisible();
    await expect(await canvas.findByText('5 jobs')).toBeVisible();
    await expect(canvas.queryByRole('article', { name: 'The Raven' })).toBeNull();
    await expect(deleteApi.jobs().map((job) => job.title)).not.toContain('The Raven');
  },
};

/** Deleting fails: the reason is shown in the dialog. */
export const DeleteFailed: Story = {
  name: 'Delete failed: the reason is shown in the dialog',
  parameters: { msw: { handlers: deleteFailsApi.handlers } },
  beforeEach: () => deleteFailsApi.reset(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('6 jobs');
    await userEvent.click(canvas.getByRole('button', { name: 'Delete The Raven' }));
    const dialog = await canvas.findByRole('alertdialog', { name: 'Delete "The Raven"?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await expect(await within(dialog).findByRole('alert')).toHaveTextContent('Job not found');
    await expect(canvas.getByRole('article', { name: 'The Raven' })).toBeVisible();
  },
};
