import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { PlayerAudio, resetPlayer } from '../../features/player';
import { recentProgressHandler } from '../../mocks/audio';
import { errorBodyFixture } from '../../mocks/fixtures';
import { jobsBackend } from '../../mocks/jobs';
import {
  convertingBookSummary,
  growingBookListHandler,
  jobsListHandler,
  libraryBookIds,
  libraryProgressFixture,
  libraryShelfFixture,
} from '../../mocks/library';
import { Library } from './Library';

const records = libraryProgressFixture();

const meta = {
  title: 'Screens/Library',
  component: Library,
  parameters: {
    auth: { user: {} },
    route: '/library',
    routeStubs: ['/upload'],
    msw: { handlers: { jobs: jobsListHandler(libraryShelfFixture()), recentProgress: recentProgressHandler(records) } },
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
    resetPlayer();
    localStorage.removeItem('lectio.library.view');
  },
} satisfies Meta<typeof Library>;

export default meta;
type Story = StoryObj<typeof meta>;

const titlesShown = (canvas: ReturnType<typeof within>) =>
  within(canvas.getByRole('list', { name: 'Books' }))
    .getAllByRole('heading', { level: 2 })
    .map((heading) => heading.textContent);

export const Loading: Story = {
  parameters: { msw: { handlers: { jobs: jobsListHandler([], { delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('status')).toHaveTextContent('Loading...');
  },
};

export const Empty: Story = {
  parameters: { msw: { handlers: { jobs: jobsListHandler([]) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const link = await canvas.findByRole('link', { name: 'Upload Your First Story' });
    await expect(link).toHaveAttribute('href', '/upload');
    await expect(canvas.queryByRole('button', { name: 'Clear Filters' })).toBeNull();
  },
};

export const EmptyCtaNavigates: Story = {
  tags: ['navigates'],
  name: 'Empty: the call to action opens the upload page',
  parameters: Empty.parameters,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('link', { name: 'Upload Your First Story' }));
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /upload' })).toBeVisible();
  },
};

export const NoMatches: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Search books'), 'nevermore');
    await expect(canvas.getByRole('heading', { name: 'No books match your filters' })).toBeVisible();
    await expect(canvas.queryByRole('link', { name: 'Upload Your First Story' })).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Clear Filters' }));
    await expect(titlesShown(canvas)).toHaveLength(4);
    await expect(canvas.getByLabelText('Search books')).toHaveValue('');
  },
};

export const Populated: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('list', { name: 'Books' });
    // Newest first by default.
    await expect(titlesShown(canvas)).toEqual([
      'The Raven',
      'The Cask of Amontillado',
      'The Tell-Tale Heart',
      'The Fall of the House of Usher',
    ]);
    const stat = (name: string) => canvas.getByRole('region', { name });
    await expect(stat('Total Books')).toHaveTextContent('4');
    await expect(stat('Total Duration')).toHaveTextContent('1h 30m');
    await expect(stat('OpenAI')).toHaveTextContent('2');
    await expect(stat('ElevenLabs')).toHaveTextContent('2');
    // Durations in seconds, shown as hours and minutes (docs/product.md#durations-and-dates).
    const usher = canvas.getByRole('listitem', { name: 'The Fall of the House of Usher' });
    await expect(usher).toHaveTextContent('1h 02m');
    await expect(canvas.getByRole('listitem', { name: 'The Raven' })).toHaveTextContent('2m 05s');
    const heart = canvas.getByRole('listitem', { name: 'The Tell-Tale Heart' });
    await expect(heart).toHaveTextContent('3 chapters');
    // Real listening progress (25 of 60 s) and Continue where there is some.
    await expect(within(heart).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '42');
    await expect(within(heart).getByRole('button', { name: 'Continue The Tell-Tale Heart' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Play The Cask of Amontillado' })).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Add New Book' })).toHaveAttribute('href', '/upload');
    await expect(canvas.getByRole('link', { name: 'The Raven' })).toHaveAttribute(
      'href',
      `/library/${libraryBookIds.raven}`,
    );
    await expect(canvas.getByRole('button', { name: 'Grid' })).toHaveAttribute('aria-pressed', 'true');
  },
};

export const Sorted: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const sort = await canvas.findByLabelText('Sort by');
    await userEvent.selectOptions(sort, 'duration');
    await expect(titlesShown(canvas)[0]).toBe('The Fall of the House of Usher');
    await userEvent.selectOptions(sort, 'title');
    await expect(titlesShown(canvas)[0]).toBe('The Cask of Amontillado');
    await userEvent.selectOptions(sort, 'progress');
    await expect(titlesShown(canvas)).toEqual([
      'The Raven',
      'The Fall of the House of Usher',
      'The Tell-Tale Heart',
      'The Cask of Amontillado',
    ]);
  },
};

export const ListView: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'List' }));
    await expect(canvas.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    await expect(canvas.getByRole('list', { name: 'Books' })).toHaveAttribute('data-view', 'list');
    // Remembered for the next visit.
    await expect(localStorage.getItem('lectio.library.view')).toBe('list');
  },
};

export const FilterInProgress: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.selectOptions(await canvas.findByLabelText('Filter'), 'in_progress');
    await waitFor(() => expect(titlesShown(canvas)).toEqual(['The Tell-Tale Heart']));
  },
};

export const FilterCompleted: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.selectOptions(await canvas.findByLabelText('Filter'), 'completed');
    await waitFor(() => expect(titlesShown(canvas)).toEqual(['The Raven', 'The Fall of the House of Usher']));
    await userEvent.selectOptions(canvas.getByLabelText('Filter'), 'elevenlabs');
    await expect(titlesShown(canvas)).toEqual(['The Raven', 'The Cask of Amontillado']);
  },
};

export const PlayPauseContinue: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Play The Cask of Amontillado' }));
    const pause = await canvas.findByRole('button', { name: 'Pause The Cask of Amontillado' }, { timeout: 5000 });
    await userEvent.click(pause);
    await expect(await canvas.findByRole('button', { name: 'Continue The Cask of Amontillado' })).toBeVisible();
  },
};

export const Finished: Story = {
  name: 'Finished: a book listened to the end says Finished and offers Listen again',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // The Raven is marked completed; Usher's saved place is at 96 %: both are finished.
    for (const title of ['The Raven', 'The Fall of the House of Usher']) {
      const card = within(await canvas.findByRole('listitem', { name: title }));
      await expect(card.getByText('Finished')).toBeVisible();
      await expect(card.queryByRole('progressbar')).toBeNull();
      await expect(card.getByRole('button', { name: `Listen again to ${title}` })).toBeVisible();
      await expect(card.queryByRole('button', { name: `Continue ${title}` })).toBeNull();
    }
    // A book in progress keeps its percentage and Continue.
    const heart = within(canvas.getByRole('listitem', { name: 'The Tell-Tale Heart' }));
    await expect(heart.queryByText('Finished')).toBeNull();
    await expect(heart.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '42');
  },
};

export const ConvertingBook: Story = {
  name: 'Converting book: listed with how many chapters are ready, and playable',
  parameters: { msw: { handlers: { jobs: jobsListHandler([convertingBookSummary(), ...libraryShelfFixture()]) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = within(await canvas.findByRole('listitem', { name: 'The Long Voyage' }));
    await expect(card.getByText('Converting · 3 of 12 chapters ready')).toBeVisible();
    await expect(card.getByText('12 chapters')).toBeVisible();
    // Every book has a cover (the server draws one for a book without its own).
    await expect(await card.findByRole('img', { name: 'Cover of The Long Voyage' }, { timeout: 5000 })).toBeVisible();
    await expect(card.queryByText('Finished')).toBeNull();
    await expect(card.getByRole('button', { name: 'Play The Long Voyage' })).toBeEnabled();
    await expect(card.getByRole('link', { name: 'The Long Voyage' })).toHaveAttribute(
      'href',
      '/library/5e6f7a8b-9c0d-4e1f-8a2b-4c5d6e7f8091',
    );
    // Finished books are listed beside it as before.
    await expect(titlesShown(canvas)).toHaveLength(5);
    await expect(canvas.getByRole('listitem', { name: 'The Raven' })).not.toHaveTextContent('Converting');
  },
};

export const ConvertingBookGrows: Story = {
  name: 'Converting book: the count grows as chapters become ready (the list is polled)',
  parameters: { msw: { handlers: { jobs: growingBookListHandler() } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = within(await canvas.findByRole('listitem', { name: 'The Long Voyage' }));
    // The next poll (every 5 s while a book converts) brings the fourth chapter.
    await expect(await card.findByText('Converting · 4 of 12 chapters ready', {}, { timeout: 9_000 })).toBeVisible();
  },
};

export const Error: Story = {
  parameters: {
    msw: { handlers: { jobs: jobsListHandler([], { status: 500, body: errorBodyFixture('Database unavailable') }) } },
  },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('alert')).toHaveTextContent('Database unavailable');
  },
};

const shelfApi = jobsBackend(libraryShelfFixture());

export const DeleteBook: Story = {
  name: 'Delete a book: confirmed, it leaves the library',
  parameters: {
    msw: {
      handlers: {
        jobs: shelfApi.handlers.jobs,
        cancelJob: shelfApi.handlers.cancelJob,
        recentProgress: recentProgressHandler(records),
      },
    },
  },
  beforeEach: () => shelfApi.reset(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Delete The Raven' }));
    const dialog = await canvas.findByRole('alertdialog', { name: 'Delete "The Raven"?' });
    await expect(dialog).toHaveAccessibleDescription(/listening progress are removed for good/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await expect(await canvas.findByText('Deleted "The Raven" from your library.')).toBeVisible();
    await waitFor(() => expect(titlesShown(canvas)).not.toContain('The Raven'));
    await expect(canvas.queryByRole('alertdialog')).toBeNull();
    await expect(titlesShown(canvas)).toHaveLength(3);
  },
};

export const DeleteBookAsks: Story = {
  name: 'Delete a book: the confirmation dialog is open',
  parameters: {
    msw: {
      handlers: {
        jobs: shelfApi.handlers.jobs,
        cancelJob: shelfApi.handlers.cancelJob,
        recentProgress: recentProgressHandler(records),
      },
    },
  },
  beforeEach: () => shelfApi.reset(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Delete The Cask of Amontillado' }));
    const dialog = await canvas.findByRole('alertdialog', { name: 'Delete "The Cask of Amontillado"?' });
    await expect(within(dialog).getByRole('button', { name: 'Keep it' })).toHaveFocus();
    await expect(titlesShown(canvas)).toHaveLength(4);
  },
};
