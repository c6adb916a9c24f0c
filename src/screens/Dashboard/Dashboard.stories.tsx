import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { progressFixture, recentProgressHandler } from '../../mocks/audio';
import { coreOf, jobAtStatus, jobsBackend, jobUuid } from '../../mocks/jobs';
import { Dashboard } from './Dashboard';

const specs = [
  ['The Tell-Tale Heart', 'PROCESSING'],
  ['The Raven', 'COMPLETED'],
  ['', 'FAILED'],
  ['Annabel Lee', 'PENDING'],
  ['The Black Cat', 'COMPLETED'],
  ['The Oval Portrait', 'CANCELLED'],
] as const;
const jobs = specs.map(([title, status], index) =>
  jobAtStatus(status, { id: jobUuid(index + 1), title, created_at: `2025-02-0${7 - index}T10:00:00Z` }),
);
const [heart, raven, untitled, , blackCat, oval] = jobs;

const populatedApi = jobsBackend(jobs);
// A finished chapter job, newer than every book: the library plays books, so Continue Listening
// must not offer it.
const ravenChapter = jobAtStatus('COMPLETED', {
  id: jobUuid(9),
  title: 'The Raven - Chapter 1',
  parent_job_id: raven!.id,
  parent: coreOf(raven!),
  created_at: '2025-02-09T10:00:00Z',
});
const completedOnly = jobsBackend([ravenChapter, ...jobs.filter((job) => job.status === 'COMPLETED')]);

const meta = {
  title: 'Screens/Dashboard',
  component: Dashboard,
  parameters: {
    route: '/dashboard',
    routeStubs: [
      '/upload',
      '/jobs',
      '/library',
      `/jobs/${heart!.id}`,
      `/library/${raven!.id}`,
      `/library/${blackCat!.id}`,
    ],
    auth: { user: { email: 'reader@example.com' } },
    msw: {
      handlers: {
        ...populatedApi.handlers,
        recentProgress: recentProgressHandler([
          progressFixture({
            job_id: raven!.id,
            job_title: 'The Raven',
            position_seconds: 1800,
            duration_seconds: 3600,
          }),
          progressFixture({ id: jobUuid(77, 3), job_id: blackCat!.id, job_title: 'The Black Cat', is_completed: true }),
        ]),
      },
    },
  },
  beforeEach: () => {
    populatedApi.reset();
    completedOnly.reset();
  },
} satisfies Meta<typeof Dashboard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The number shown under a counter's label. */
function counter(canvasElement: HTMLElement, label: string): string | null | undefined {
  return within(canvasElement).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
}

export const Loading: Story = {
  parameters: { msw: { handlers: jobsBackend([], { list: { delay: 'infinite' } }).handlers } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('Loading jobs...')).toBeVisible();
    await expect(counter(canvasElement, 'Total Jobs')).toBe('…');
    await expect(canvas.getByText('Welcome, reader@example.com')).toBeVisible();
  },
};

export const Empty: Story = {
  parameters: { msw: { handlers: { ...jobsBackend([]).handlers, recentProgress: recentProgressHandler([]) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText(/No jobs yet/)).toBeVisible();
    for (const label of ['Total Jobs', 'Completed', 'Running', 'Failed']) {
      await expect(counter(canvasElement, label)).toBe('0');
    }
    await expect(canvas.queryByRole('heading', { name: 'Continue Listening' })).toBeNull();
    await expect(canvas.getByRole('link', { name: 'Upload Story' })).toHaveAttribute('href', '/upload');
  },
};

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

export const Populated: Story = {
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement);
    await step('counters are the server totals', async () => {
      await expect(await canvas.findByRole('link', { name: /The Tell-Tale Heart/ })).toBeVisible();
      await expect(counter(canvasElement, 'Total Jobs')).toBe('6');
      await expect(counter(canvasElement, 'Completed')).toBe('2');
      await expect(counter(canvasElement, 'Running')).toBe('2');
      await expect(counter(canvasElement, 'Failed')).toBe('1');
    });
    await step('recent jobs: the first 5, untitled ones as Job + short id', async () => {
      const recent = within(canvas.getByRole('list', { name: 'Recent jobs' }));
      await expect(recent.getAllByRole('link')).toHaveLength(5);
      await expect(recent.getByRole('link', { name: new RegExp(`Job ${untitled!.id.slice(0, 8)}`) })).toBeVisible();
      await expect(recent.queryByRole('link', { name: new RegExp(oval!.title) })).toBeNull();
      await expect(recent.getByRole('link', { name: /The Tell-Tale Heart/ })).toHaveTextContent('PROCESSING');
    });
    await step('Continue Listening: the unfinished recent book with its percentage', async () => {
      const listening = within(await canvas.findByRole('list', { name: 'Continue listening' }));
      await expect(listening.getByText('50% listened')).toBeVisible();
      await expect(listening.getAllByRole('link')).toHaveLength(1);
      await expect(listening.getByRole('link', { name: 'The Raven' })).toHaveAttribute('href', `/library/${raven!.id}`);
    });
  },
};

export const ContinueListeningOpensTheBook: Story = {
  tags: ['navigates'],
  name: 'Populated: Continue Listening opens the book page',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const listening = within(await canvas.findByRole('list', { name: 'Continue listening' }));
    await userEvent.click(listening.getByRole('link', { name: 'The Raven' }));
    await expect(await canvas.findByRole('heading', { name: `Navigated to /library/${raven!.id}` })).toBeVisible();
  },
};

export const OpensARecentJob: Story = {
  tags: ['navigates'],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('link', { name: /The Tell-Tale Heart/ }));
    await expect(await canvas.findByRole('heading', { name: `Navigated to /jobs/${heart!.id}` })).toBeVisible();
  },
};

export const Actions: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('link', { name: 'Upload New Story' })).toHaveAttribute('href', '/upload');
    await expect(canvas.getByRole('link', { name: 'Browse Library' })).toHaveAttribute('href', '/library');
    await expect(canvas.getByRole('link', { name: 'View All Jobs' })).toHaveAttribute('href', '/jobs');
  },
};

export const ViewAllJobsNavigates: Story = {
  tags: ['navigates'],
  name: 'Actions: View All Jobs opens the jobs list',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('link', { name: 'View All Jobs' }));
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /jobs' })).toBeVisible();
  },
};

export const ContinueListeningFallback: Story = {
  name: 'Continue Listening without recent progress: the latest completed jobs',
  parameters: {
    msw: { handlers: { ...completedOnly.handlers, recentProgress: recentProgressHandler([], { status: 500 }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const listening = within(await canvas.findByRole('list', { name: 'Continue listening' }));
    await expect(listening.getByRole('link', { name: 'The Raven' })).toHaveAttribute('href', `/library/${raven!.id}`);
    await expect(listening.getByRole('link', { name: 'The Black Cat' })).toBeVisible();
    await expect(listening.getAllByText(/Ready to play · 1h 02m/)).toHaveLength(2);
    await expect(listening.queryByRole('link', { name: 'The Raven - Chapter 1' })).toBeNull();
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

export const Error: Story = {
  parameters: { msw: { handlers: jobsBackend([], { list: { status: 500 } }).handlers } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to fetch jobs');
    await waitFor(() => expect(counter(canvasElement, 'Total Jobs')).toBe('—'));
    await expect(canvas.getByRole('link', { name: 'Upload New Story' })).toBeVisible();
  },
};
