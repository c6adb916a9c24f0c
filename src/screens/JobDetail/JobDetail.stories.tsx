import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { errorBodyFixture } from '../../mocks/fixtures';
import { bookWithChaptersFixture, jobAtStatus, jobsBackend, jobUuid, tutoringAnalysisFixture } from '../../mocks/jobs';
import { playerState, resetPlayer } from '../../features/player';
import { JobDetail } from './JobDetail';

const processing = jobAtStatus('PROCESSING', { id: jobUuid(1), title: 'The Tell-Tale Heart' });
const completed = jobAtStatus('COMPLETED', { id: jobUuid(2), title: 'The Raven' });
const failed = jobAtStatus('FAILED', { id: jobUuid(3), title: 'The Gold-Bug' });
const analysed = jobAtStatus('COMPLETED', {
  id: jobUuid(4),
  title: 'The Black Cat',
  config: {
    provider: 'openai',
    voice_config: { provider: 'openai', voice_id: 'alloy' },
    tutoring_analysis: tutoringAnalysisFixture(),
  },
});
// Analysed, then cancelled: there is no book to talk about.
const cancelledAnalysed = jobAtStatus('CANCELLED', {
  id: jobUuid(5),
  title: 'Huge Paste',
  config: analysed.config,
});
// Analysed, then failed: nothing finished to talk about either.
const analysedFailed = jobAtStatus('FAILED', { id: jobUuid(7), title: 'Ligeia', config: analysed.config });
const { book, chapters } = bookWithChaptersFixture();
const runningChapter = chapters[2]!;

const api = jobsBackend([
  processing,
  completed,
  failed,
  analysed,
  cancelledAnalysed,
  analysedFailed,
  book,
  ...chapters,
]);

/**
 * A job’s page: one conversion followed step by step (extract, analyse, synthesise, encode, store), with its
 * chapters, its tutoring analysis and its actions.
 */
const meta = {
  title: 'Screens/JobDetail',
  component: JobDetail,
  args: { jobId: processing.id },
  parameters: {
    route: `/jobs/${processing.id}`,
    routeStubs: [
      '/jobs',
      `/jobs/${book.id}`,
      `/jobs/${chapters[0]!.id}`,
      `/library/${completed.id}`,
      `/library/${book.id}`,
    ],
    auth: { user: {} },
    msw: { handlers: api.handlers },
  },
  beforeEach: () => {
    api.reset();
    resetPlayer();
  },
} satisfies Meta<typeof JobDetail>;

export default meta;
type Story = StoryObj<typeof meta>;

/** While the job loads. */
export const Loading: Story = {
  parameters: { msw: { handlers: jobsBackend([], { job: { delay: 'infinite' } }).handlers } },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('Loading job...')).toBeVisible();
  },
};

/** A conversion under way: the current step and its progress. */
export const Processing: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { level: 1, name: 'The Tell-Tale Heart' })).toBeVisible();
    const overall = within(canvas.getByRole('region', { name: 'Overall Progress' }));
    await expect(overall.getByRole('progressbar', { name: 'Overall progress' })).toHaveAttribute('aria-valuenow', '60');
    await expect(overall.getByText('60%')).toBeVisible();
    const steps = within(canvas.getByRole('list', { name: 'Steps' }));
    await expect(steps.getByRole('button', { name: /Synthesize/ })).toHaveTextContent('running');
    await expect(steps.getByRole('progressbar', { name: 'Synthesize progress' })).toHaveAttribute(
      'aria-valuenow',
      '60',
    );
    await expect(steps.getByRole('button', { name: /Acquire content/ })).toHaveTextContent('completed');
    await expect(steps.getAllByRole('progressbar')).toHaveLength(1);
    await expect(canvas.getByRole('button', { name: 'Cancel Job' })).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Play Audiobook' })).toBeNull();
    await expect(canvas.queryByRole('heading', { name: 'Error Details' })).toBeNull();
    await expect(canvas.queryByRole('heading', { name: 'Chapters' })).toBeNull();
  },
};

/** A step running for a while: its elapsed time counts up. */
export const RunningStepElapsed: Story = {
  name: 'Task Progress: a running step counts its elapsed time',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const steps = within(await canvas.findByRole('list', { name: 'Steps' }));
    // The running step (open by default) shows how long it has run: 125 s when the job arrived, then on.
    const elapsed = steps.getByText('Elapsed').nextElementSibling!;
    await expect(elapsed).toHaveTextContent(/^2m 0[5-9]s$/);
    const first = elapsed.textContent;
    await waitFor(() => expect(elapsed.textContent).not.toBe(first), { timeout: 3000 });
    await expect(steps.getAllByText('Elapsed')).toHaveLength(1);
  },
};

/** The page polls: progress moves on without a reload. */
export const Polling: Story = {
  name: 'Polling: progress moves on without a reload',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const heading = await canvas.findByRole('heading', { level: 1, name: 'The Tell-Tale Heart' });
    const bar = canvas.getByRole('progressbar', { name: 'Overall progress' });
    await expect(bar).toHaveAttribute('aria-valuenow', '60');
    api.patch(processing.id, {
      progress: 80,
      updated_at: '2025-02-01T10:05:00Z',
      steps: processing.steps.map((step) => (step.status === 'RUNNING' ? { ...step, progress: 90 } : step)),
    });
    // The detail page asks again every 3 s while the job is active.
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '80'), { timeout: 5000 });
    await expect(canvas.getByRole('progressbar', { name: 'Synthesize progress' })).toHaveAttribute(
      'aria-valuenow',
      '90',
    );
    // Same elements: the page was updated in place, never replaced by a loading state.
    await expect(heading.isConnected).toBe(true);
    await expect(canvas.queryByText('Loading job...')).toBeNull();
  },
};

/** The reader opens and folds every step’s details. */
export const ExpandCollapse: Story = {
  name: 'Task Progress: Expand All / Collapse All',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const steps = within(await canvas.findByRole('list', { name: 'Steps' }));
    const toggles = () => steps.getAllByRole('button');
    // The running step starts open, the others closed.
    await expect(toggles().map((button) => button.getAttribute('aria-expanded'))).toEqual([
      'false',
      'false',
      'true',
      'false',
      'false',
    ]);
    await userEvent.click(canvas.getByRole('button', { name: 'Expand All' }));
    await expect(toggles().every((button) => button.getAttribute('aria-expanded') === 'true')).toBe(true);
    await expect(steps.getAllByText('Started')).toHaveLength(5);
    for (const label of steps.getAllByText('Started')) await expect(label).toBeVisible();
    await expect(steps.getAllByText('Duration')[0]?.nextElementSibling).toHaveTextContent(/^45s$/);
    await userEvent.click(canvas.getByRole('button', { name: 'Collapse All' }));
    await expect(toggles().every((button) => button.getAttribute('aria-expanded') === 'false')).toBe(true);
    for (const label of steps.getAllByText('Started')) await expect(label).not.toBeVisible();
    // Really out of sight, not only marked hidden: the details take no space on the page.
    for (const label of steps.getAllByText('Started'))
      await expect(getComputedStyle(label.closest('dl')!).display).toBe('none');
    await userEvent.click(steps.getByRole('button', { name: /Analyze/ }));
    await expect(steps.getByRole('button', { name: /Analyze/ })).toHaveAttribute('aria-expanded', 'true');
  },
};

/** A finished conversion: every step done, Play Audiobook offered. */
export const Completed: Story = {
  args: { jobId: completed.id },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { level: 1, name: 'The Raven' })).toBeVisible();
    await expect(canvas.getByRole('progressbar', { name: 'Overall progress' })).toHaveAttribute('aria-valuenow', '100');
    await expect(canvas.queryByRole('button', { name: 'Cancel Job' })).toBeNull();
    await expect(canvas.queryByRole('button', { name: 'Retry' })).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Play Audiobook' })).toBeEnabled();
    // A listener never sees the job's internals (its id, its type).
    await expect(canvas.queryByText('Technical details')).toBeNull();
    await expect(canvasElement).not.toHaveTextContent(completed.id);
  },
};

/** Play Audiobook starts the book and opens its page. */
export const CompletedPlayNavigates: Story = {
  tags: ['navigates'],
  name: 'Completed: Play Audiobook starts the book and opens its page',
  args: { jobId: completed.id },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Play Audiobook' }));
    await waitFor(() => expect(playerState.currentJobId).toBe(completed.id));
    await expect(await canvas.findByRole('heading', { name: `Navigated to /library/${completed.id}` })).toBeVisible();
  },
};

/** A failed conversion: which step failed, why, and Retry. */
export const Failed: Story = {
  args: { jobId: failed.id },
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement);
    await step('the failed step, its error and the Error Details card', async () => {
      const steps = within(await canvas.findByRole('list', { name: 'Steps' }));
      await expect(steps.getByRole('button', { name: /Synthesize/ })).toHaveTextContent('failed');
      await expect(steps.getByText('The voice engine stopped responding')).toBeVisible();
      await expect(canvas.getByRole('heading', { name: 'Error Details' })).toBeVisible();
      await expect(canvas.getByText('Speech synthesis failed: the voice engine stopped responding')).toBeVisible();
      await expect(canvas.queryByRole('button', { name: 'Cancel Job' })).toBeNull();
      await expect(canvas.getByRole('button', { name: 'Retry' })).toBeEnabled();
    });
  },
};

/** Retry: the job is queued again from the failed step. */
export const FailedRetried: Story = {
  name: 'Failed, then retried: the job is queued again from the failed step',
  args: { jobId: failed.id },
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement);
    await step('Retry queues the job again from the failed step', async () => {
      await userEvent.click(await canvas.findByRole('button', { name: 'Retry' }));
      await expect(await canvas.findByText('PENDING')).toBeVisible();
      await expect(canvas.queryByRole('button', { name: /^Retry/ })).toBeNull();
      await expect(canvas.getByRole('button', { name: 'Cancel Job' })).toBeVisible();
      await expect(canvas.queryByRole('heading', { name: 'Error Details' })).toBeNull();
    });
  },
};

/** The retry request fails: the reason is shown. */
export const RetryFails: Story = {
  args: { jobId: failed.id },
  parameters: {
    msw: {
      handlers: {
        retryJob: jobsBackend([failed], {
          retry: { status: 409, body: errorBodyFixture('Only failed jobs can be retried') },
        }).handlers.retryJob,
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Retry' }));
    await expect(await canvas.findByText('Only failed jobs can be retried')).toBeVisible();
  },
};

/** A book: its chapters, each with its own state and Play once ready. */
export const BookWithChapters: Story = {
  args: { jobId: book.id },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { name: 'Chapters' })).toBeVisible();
    const list = within(canvas.getByRole('list', { name: 'Chapters' }));
    await expect(list.getAllByRole('listitem')).toHaveLength(3);
    await expect(list.getAllByRole('button', { name: /^Play/ })).toHaveLength(2);
    await expect(list.getAllByRole('link', { name: /^View/ })).toHaveLength(3);
    await expect(list.queryByRole('button', { name: `Play ${runningChapter.title}` })).toBeNull();
    await expect(canvas.queryByRole('link', { name: 'Go to Parent Book' })).toBeNull();
    await expect(list.getByRole('button', { name: `Play ${chapters[0]!.title}` })).toBeEnabled();
    // A book's progress counts its chapters (2 of 3 done), not its steps.
    await expect(canvas.getByText('2 of 3 chapters done')).toBeVisible();
    await expect(canvas.getByRole('progressbar', { name: 'Overall progress' })).toHaveAttribute('aria-valuenow', '67');
  },
};

/** Play on a chapter starts THE BOOK at that chapter and opens the book's page (never the chapter as a book). */
export const PlayChapterNavigates: Story = {
  tags: ['navigates'],
  name: 'Book with chapters: Play on a chapter starts the book there',
  args: { jobId: book.id },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const list = within(await canvas.findByRole('list', { name: 'Chapters' }));
    await userEvent.click(list.getByRole('button', { name: `Play ${chapters[0]!.title}` }));
    await expect(await canvas.findByRole('heading', { name: `Navigated to /library/${book.id}` })).toBeVisible();
    await waitFor(() => expect(playerState.currentJobId).toBe(book.id));
  },
};

/** A chapter’s own page: it names its book. */
export const ChapterOfBook: Story = {
  args: { jobId: runningChapter.id },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const crumbs = within(await canvas.findByRole('navigation', { name: 'Breadcrumb' }));
    await expect(crumbs.getByRole('link', { name: 'Jobs' })).toHaveAttribute('href', '/jobs');
    await expect(crumbs.getByRole('link', { name: 'Collected Tales' })).toHaveAttribute('href', `/jobs/${book.id}`);
    await expect(crumbs.getByText(runningChapter.title)).toHaveAttribute('aria-current', 'page');
    await expect(canvas.getByRole('link', { name: 'Go to Parent Book' })).toHaveAttribute('href', `/jobs/${book.id}`);
  },
};

/** Go to Parent Book opens the book. */
export const ParentBookNavigates: Story = {
  tags: ['navigates'],
  name: 'Chapter of a book: Go to Parent Book opens the book',
  args: { jobId: runningChapter.id },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('link', { name: 'Go to Parent Book' }));
    await expect(await canvas.findByRole('heading', { name: `Navigated to /jobs/${book.id}` })).toBeVisible();
  },
};

/** A book analysed for the assistant: its themes and characters, Ask Tutor and X-ray Lookup. */
export const WithTutoringAnalysis: Story = {
  args: { jobId: analysed.id },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('link', { name: 'Ask Tutor' })).toHaveAttribute(
      'href',
      `/voice-assistant?mode=tutor&jobId=${analysed.id}`,
    );
    await expect(canvas.getByRole('link', { name: 'X-ray Lookup' })).toHaveAttribute(
      'href',
      `/voice-assistant?mode=xray&jobId=${analysed.id}`,
    );
  },
};

/** A cancelled job keeps its analysis but offers no assistant. */
export const CancelledWithAnalysis: Story = {
  name: 'Cancelled, though analysed: no Ask Tutor, no X-ray Lookup',
  args: { jobId: cancelledAnalysed.id },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { level: 1, name: 'Huge Paste' })).toBeVisible();
    await expect(canvas.getByText('CANCELLED', { selector: 'span' })).toBeVisible();
    await expect(canvas.queryByRole('link', { name: 'Ask Tutor' })).toBeNull();
    await expect(canvas.queryByRole('link', { name: 'X-ray Lookup' })).toBeNull();
  },
};

/** A job without an analysis: no assistant actions. */
export const WithoutTutoringAnalysis: Story = {
  args: { jobId: completed.id },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('button', { name: 'Play Audiobook' })).toBeVisible();
    await expect(canvas.queryByRole('link', { name: 'Ask Tutor' })).toBeNull();
    await expect(canvas.queryByRole('link', { name: 'X-ray Lookup' })).toBeNull();
  },
};

/** Analysed, then failed: no Ask Tutor or X-ray (nothing finished to talk about). */
export const AnalysedButFailed: Story = {
  name: 'Analysed, then failed: no Ask Tutor or X-ray (nothing finished to talk about)',
  args: { jobId: analysedFailed.id },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('button', { name: 'Retry' })).toBeEnabled();
    await expect(canvas.queryByRole('link', { name: 'Ask Tutor' })).toBeNull();
    await expect(canvas.queryByRole('link', { name: 'X-ray Lookup' })).toBeNull();
  },
};

/** Cancel Job asks first. */
export const CancelAsksFirst: Story = {
  name: 'Cancel Job: the confirmation dialog is open',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Cancel Job' }));
    const dialog = await canvas.findByRole('alertdialog', { name: 'Cancel "The Tell-Tale Heart"?' });
    await expect(dialog).toHaveAccessibleDescription(/A cancelled conversion cannot be resumed/);
    await expect(within(dialog).getByRole('button', { name: 'Keep converting' })).toHaveFocus();
    await expect(within(dialog).getByRole('button', { name: 'Cancel conversion' })).toBeEnabled();
    await expect(canvas.getByText('PROCESSING')).toBeVisible();
    await expect(api.jobs().find((job) => job.id === processing.id)?.status).toBe('PROCESSING');
  },
};

/** Cancel confirmed: the job is cancelled. */
export const CancelledAfterConfirming: Story = {
  name: 'Cancel Job, confirmed: the job is CANCELLED',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Cancel Job' }));
    const dialog = await canvas.findByRole('alertdialog', { name: 'Cancel "The Tell-Tale Heart"?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel conversion' }));
    await expect(await canvas.findByText('CANCELLED')).toBeVisible();
    await expect(canvas.queryByRole('alertdialog')).toBeNull();
    await expect(canvas.queryByRole('button', { name: 'Cancel Job' })).toBeNull();
    await expect(api.jobs().find((job) => job.id === processing.id)?.status).toBe('CANCELLED');
  },
};

/** A job that does not exist (or is another reader’s): not found. */
export const NotFound: Story = {
  args: { jobId: jobUuid(999) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { name: 'Job not found' })).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Back to Jobs' })).toHaveAttribute('href', '/jobs');
  },
};

/** Back to Jobs from a missing job. */
export const NotFoundBackNavigates: Story = {
  tags: ['navigates'],
  name: 'Not found: Back to Jobs opens the jobs list',
  args: { jobId: jobUuid(999) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('link', { name: 'Back to Jobs' }));
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /jobs' })).toBeVisible();
  },
};

/** An address that is not a job id: not found, without asking the server. */
export const NotAJobAddress: Story = {
  name: 'Not found: an address that is not a job id',
  args: { jobId: 'not-a-job' },
  parameters: {
    msw: {
      handlers: jobsBackend([], { job: { status: 422, body: errorBodyFixture('JobId must be a UUID') } }).handlers,
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { name: 'Job not found' })).toBeVisible();
    // The reader is told the job is not there, never the validation message behind it.
    await expect(canvas.queryByText(/UUID/)).toBeNull();
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/** The job cannot be loaded: the error text. */
export const LoadError: Story = {
  name: 'Load error: the error text',
  parameters: {
    msw: {
      handlers: jobsBackend([], { job: { status: 500, body: errorBodyFixture('The database is restarting') } })
        .handlers,
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('The database is restarting');
    await expect(canvas.getByRole('heading', { name: 'Job not found' })).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Back to Jobs' })).toBeVisible();
  },
};
