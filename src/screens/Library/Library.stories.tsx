import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { http, HttpResponse } from 'msw';
import { connectivity } from '../../features/connectivity';
import { keptState, resetKept } from '../../features/kept-books';
import { PlayerAudio, resetPlayer } from '../../features/player';
import { keptBookFixture } from '../../mocks/kept-books';
import { recentProgressHandler } from '../../mocks/audio';
import { exportListFixture, exportsHandler } from '../../mocks/exports';
import { errorBodyFixture } from '../../mocks/fixtures';
import { jobsBackend } from '../../mocks/jobs';
import {
  convertingBookSummary,
  growingBookListHandler,
  jobsListHandler,
  libraryBookIds,
  libraryProgressFixture,
  libraryShelfFixture,
  openingBookSummary,
} from '../../mocks/library';
import { Library } from './Library';

const records = libraryProgressFixture();

/**
 * Library: the reader’s finished and converting books as a shelf of covers (or a list), with their progress,
 * to play, filter, sort and delete.
 */
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
    localStorage.removeItem('lectio.keptBooks');
    localStorage.removeItem('lectio.unsentPlaces');
    resetKept();
    connectivity.online = true;
  },
} satisfies Meta<typeof Library>;

export default meta;
type Story = StoryObj<typeof meta>;

const titlesShown = (canvas: ReturnType<typeof within>) =>
  within(canvas.getByRole('list', { name: 'Books' }))
    .getAllByRole('heading', { level: 2 })
    .map((heading) => heading.textContent);

/**
 * A story has no tap to give the browser, which blocks audio that starts without one ("Tap play to
 * start"). Muted, the browser lets it play: the story shows the playing state it names.
 */
const muteForStory = (root: HTMLElement) => {
  const audio = root.ownerDocument.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
  if (audio) audio.muted = true;
};

/** While the library loads. */
export const Loading: Story = {
  parameters: { msw: { handlers: { jobs: jobsListHandler([], { delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('status')).toHaveTextContent('Loading...');
  },
};

/** A reader with no books: a drawing and one action. */
export const Empty: Story = {
  name: 'Empty: a drawing and one action',
  parameters: { msw: { handlers: { jobs: jobsListHandler([]) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { name: 'Your library is empty' })).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Add a book' })).toHaveAttribute('href', '/upload');
    await expect(canvas.queryByRole('button', { name: 'Clear filters' })).toBeNull();
  },
};

/** The empty library’s action opens the upload page. */
export const EmptyCtaNavigates: Story = {
  tags: ['navigates'],
  name: 'Empty: the call to action opens the upload page',
  parameters: Empty.parameters,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('link', { name: 'Add a book' }));
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /upload' })).toBeVisible();
  },
};

/** The filters leave no book: the page says so. */
export const NoMatches: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Search books'), 'nevermore');
    await expect(canvas.getByRole('heading', { name: 'No books match' })).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Clear filters' }));
    await expect(titlesShown(canvas)).toHaveLength(4);
    await expect(canvas.getByLabelText('Search books')).toHaveValue('');
  },
};

/** A reader’s shelf: covers first, one summary line and one action per book. */
export const Populated: Story = {
  name: 'Populated: covers first, one summary line, one action per book',
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
    // One line: what is there, how long, and which voice really read it.
    await expect(canvas.getByLabelText('Summary')).toHaveTextContent(
      '4 books · 1h 30m · Offline voice 3 · ElevenLabs 1',
    );
    const heart = within(canvas.getByRole('listitem', { name: 'The Tell-Tale Heart' }));
    await expect(heart.getByText('Edgar Allan Poe')).toBeVisible();
    // Real listening progress (25 of 60 s), the time left, and Continue.
    await expect(heart.getByText('35s left')).toBeVisible();
    await expect(heart.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '42');
    await expect(heart.getByRole('button', { name: 'Continue The Tell-Tale Heart' })).toBeVisible();
    const cask = within(canvas.getByRole('listitem', { name: 'The Cask of Amontillado' }));
    await expect(cask.getByText('Not started · 25m 00s')).toBeVisible();
    await expect(cask.getByRole('button', { name: 'Play The Cask of Amontillado' })).toBeVisible();
    // The voice belongs on the book page, and Delete in the menu: neither on the card.
    await expect(cask.queryByText(/requested|OpenAI/)).toBeNull();
    await expect(cask.queryByRole('button', { name: /Delete/ })).toBeNull();
    await expect(cask.getByRole('button', { name: 'More actions for The Cask of Amontillado' })).toBeVisible();
    // Each book its own cover.
    await expect(
      await heart.findByRole('img', { name: 'Cover of The Tell-Tale Heart' }, { timeout: 5000 }),
    ).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'The Raven' })).toHaveAttribute(
      'href',
      `/library/${libraryBookIds.raven}`,
    );
    await expect(canvas.getByRole('button', { name: 'Grid' })).toHaveAttribute('aria-pressed', 'true');
  },
};

/** The shelf in the dark theme. */
export const DarkMode: Story = {
  name: 'Dark mode: the shelf at night',
  parameters: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('list', { name: 'Books' });
    await expect(canvas.getByRole('button', { name: 'Continue The Tell-Tale Heart' })).toBeVisible();
    await expect(getComputedStyle(canvasElement.ownerDocument.body).backgroundColor).toBe('rgb(25, 21, 18)');
  },
};

/** A book’s More actions menu is open. */
export const MoreActionsMenu: Story = {
  name: 'More actions: the menu of a book is open',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const more = await canvas.findByRole('button', { name: 'More actions for The Tell-Tale Heart' });
    await userEvent.click(more);
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    const menu = within(canvas.getByRole('menu', { name: 'More actions for The Tell-Tale Heart' }));
    await expect(menu.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Start over',
      'Download to this device',
      'Download…',
      'Listen in a podcast app',
      'Delete',
    ]);
    // The first action has the focus; the arrows move between them.
    await expect(menu.getByRole('menuitem', { name: 'Start over' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    await expect(menu.getByRole('menuitem', { name: 'Download to this device' })).toHaveFocus();
  },
};

/** More actions: Download… shows the downloads in a dialog. */
export const MoreActionsDownload: Story = {
  name: 'More actions: Download… shows the downloads in a dialog',
  parameters: {
    msw: { handlers: { exports: exportsHandler(exportListFixture({ m4b: { status: 'ready' } })) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'More actions for The Tell-Tale Heart' }));
    await userEvent.click(await canvas.findByRole('menuitem', { name: 'Download…' }));
    const dialog = within(await canvas.findByRole('dialog', { name: 'Download' }));
    await expect(await dialog.findByRole('link', { name: 'Download M4B' })).toBeVisible();
  },
};

/** More actions: Listen in a podcast app shows the book's feed. */
export const MoreActionsPodcast: Story = {
  name: "More actions: Listen in a podcast app shows the book's feed",
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'More actions for The Tell-Tale Heart' }));
    await userEvent.click(await canvas.findByRole('menuitem', { name: 'Listen in a podcast app' }));
    const dialog = within(await canvas.findByRole('dialog', { name: 'Listen in a podcast app' }));
    await expect(await dialog.findByRole('textbox', { name: 'Feed address' })).toBeVisible();
  },
};

/** Escape closes the menu and gives the focus back. */
export const MoreActionsCloses: Story = {
  name: 'More actions: Escape closes the menu and gives the focus back',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const more = await canvas.findByRole('button', { name: 'More actions for The Raven' });
    await userEvent.click(more);
    await expect(canvas.getByRole('menu')).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect(canvas.queryByRole('menu')).toBeNull();
    await expect(more).toHaveFocus();
  },
};

/** The reader sorts the shelf. */
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

/** The shelf as a list, remembered for next time. */
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

/** Only the books the reader is in the middle of. */
export const FilterInProgress: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.selectOptions(await canvas.findByLabelText('Show'), 'In progress');
    await waitFor(() => expect(titlesShown(canvas)).toEqual(['The Tell-Tale Heart']));
  },
};

/** Only the books listened to the end, then by the voice that read them. */
export const FilterFinished: Story = {
  name: 'Filter: Finished (listened to the end), then by the voice that read it',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.selectOptions(await canvas.findByLabelText('Show'), 'Finished');
    await waitFor(() => expect(titlesShown(canvas)).toEqual(['The Raven', 'The Fall of the House of Usher']));
    await userEvent.selectOptions(canvas.getByLabelText('Show'), 'ElevenLabs');
    await expect(titlesShown(canvas)).toEqual(['The Raven']);
    await userEvent.selectOptions(canvas.getByLabelText('Show'), 'Offline voice');
    await expect(titlesShown(canvas)).toHaveLength(3);
  },
};

/** Play, pause and continue from the shelf. */
export const PlayPauseContinue: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    muteForStory(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Play The Cask of Amontillado' }));
    const pause = await canvas.findByRole('button', { name: 'Pause The Cask of Amontillado' }, { timeout: 5000 });
    await userEvent.click(pause);
    await expect(await canvas.findByRole('button', { name: 'Continue The Cask of Amontillado' })).toBeVisible();
  },
};

/** A book listened to the end says Finished and offers Listen again. */
export const Finished: Story = {
  name: 'Finished: a book listened to the end says Finished and offers Listen again',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // The Raven is marked completed; Usher's saved place is at 96 %: both are finished.
    for (const title of ['The Raven', 'The Fall of the House of Usher']) {
      const card = within(await canvas.findByRole('listitem', { name: title }));
      await expect(card.getByText('Finished', { exact: true })).toBeVisible();
      await expect(card.queryByRole('progressbar')).toBeNull();
      await expect(card.getByRole('button', { name: `Listen again to ${title}` })).toBeVisible();
      await expect(card.queryByRole('button', { name: `Continue ${title}` })).toBeNull();
    }
    // A book in progress keeps its percentage and Continue.
    const heart = within(canvas.getByRole('listitem', { name: 'The Tell-Tale Heart' }));
    await expect(heart.queryByText('Finished', { exact: true })).toBeNull();
    await expect(heart.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '42');
  },
};

/** A book still converting: how many chapters are ready, and playable already. */
export const ConvertingBook: Story = {
  name: 'Converting book: listed with how many chapters are ready, and playable',
  parameters: { msw: { handlers: { jobs: jobsListHandler([convertingBookSummary(), ...libraryShelfFixture()]) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = within(await canvas.findByRole('listitem', { name: 'The Long Voyage' }));
    await expect(card.getByText('3 of 12 chapters ready')).toBeVisible();
    // Every book has a cover (the server draws one for a book without its own).
    await expect(await card.findByRole('img', { name: 'Cover of The Long Voyage' }, { timeout: 5000 })).toBeVisible();
    await expect(card.queryByText('Finished', { exact: true })).toBeNull();
    await expect(card.getByRole('button', { name: 'Play The Long Voyage' })).toBeEnabled();
    await expect(card.getByRole('link', { name: 'The Long Voyage' })).toHaveAttribute(
      'href',
      '/library/5e6f7a8b-9c0d-4e1f-8a2b-4c5d6e7f8091',
    );
    // Finished books are listed beside it as before.
    await expect(titlesShown(canvas)).toHaveLength(5);
    await expect(canvas.getByRole('listitem', { name: 'The Raven' })).not.toHaveTextContent('chapters ready');
  },
};

/** A book that has just started: no chapter yet, but its first chapter's opening plays. */
export const ConvertingBookFirstMinutes: Story = {
  name: 'Converting book: listed as soon as its first minutes play, before any chapter is ready',
  parameters: {
    msw: {
      handlers: {
        jobs: jobsListHandler([
          openingBookSummary(),
          // A book with nothing to play yet: the server says so, and it is not on the shelf.
          openingBookSummary({
            id: '5e6f7a8b-9c0d-4e1f-8a2b-4c5d6e7f8092',
            title: 'The Slow Start',
            progress: 0,
            listenable: false,
          }),
          ...libraryShelfFixture(),
        ]),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = within(await canvas.findByRole('listitem', { name: 'The Long Voyage' }));
    await expect(card.getByText('First minutes ready')).toBeVisible();
    await expect(card.queryByText('Finished', { exact: true })).toBeNull();
    await expect(card.getByRole('button', { name: 'Play The Long Voyage' })).toBeEnabled();
    await expect(card.getByRole('link', { name: 'The Long Voyage' })).toHaveAttribute(
      'href',
      '/library/5e6f7a8b-9c0d-4e1f-8a2b-4c5d6e7f8091',
    );
    await expect(canvas.queryByRole('listitem', { name: 'The Slow Start' })).toBeNull();
    await expect(titlesShown(canvas)).toHaveLength(5);
  },
};

/** The count grows as chapters become ready. */
export const ConvertingBookGrows: Story = {
  name: 'Converting book: the count grows as chapters become ready (the list is polled)',
  parameters: { msw: { handlers: { jobs: growingBookListHandler() } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = within(await canvas.findByRole('listitem', { name: 'The Long Voyage' }));
    // The next poll (every 5 s while a book converts) brings the fourth chapter.
    await expect(await card.findByText('4 of 12 chapters ready', {}, { timeout: 9_000 })).toBeVisible();
  },
};

/** The library cannot be loaded: the error. */
export const Error: Story = {
  parameters: {
    msw: { handlers: { jobs: jobsListHandler([], { status: 500, body: errorBodyFixture('Database unavailable') }) } },
  },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('alert')).toHaveTextContent('Database unavailable');
  },
};

const shelfApi = jobsBackend(libraryShelfFixture());

/** A book deleted after confirming: it leaves the library. */
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
    await userEvent.click(await canvas.findByRole('button', { name: 'More actions for The Raven' }));
    await userEvent.click(canvas.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await canvas.findByRole('alertdialog', { name: 'Delete "The Raven"?' });
    await expect(dialog).toHaveAccessibleDescription(/listening progress are removed for good/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await expect(await canvas.findByText('Deleted "The Raven" from your library.')).toBeVisible();
    await waitFor(() => expect(titlesShown(canvas)).not.toContain('The Raven'));
    await expect(canvas.queryByRole('alertdialog')).toBeNull();
    await expect(titlesShown(canvas)).toHaveLength(3);
  },
};

/** Delete asks first. */
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
    await userEvent.click(await canvas.findByRole('button', { name: 'More actions for The Cask of Amontillado' }));
    await userEvent.click(canvas.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await canvas.findByRole('alertdialog', { name: 'Delete "The Cask of Amontillado"?' });
    await expect(within(dialog).getByRole('button', { name: 'Keep it' })).toHaveFocus();
    await expect(titlesShown(canvas)).toHaveLength(4);
  },
};

/** The Tell-Tale Heart is kept on this device (its index, as a download leaves it). */
const keepHeart = () => {
  keptState.books[libraryBookIds.heart] = keptBookFixture({ id: libraryBookIds.heart });
};

/** A kept book carries the "On this device" mark, and "On this device" filters the shelf to the kept books. */
export const OnThisDeviceFilter: Story = {
  name: 'On this device: the kept book is marked, and the filter shows it alone',
  beforeEach: keepHeart,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('list', { name: 'Books' });
    const heart = within(canvas.getByRole('listitem', { name: 'The Tell-Tale Heart' }));
    await expect(heart.getByText('On this device')).toBeVisible();
    const raven = within(canvas.getByRole('listitem', { name: 'The Raven' }));
    await expect(raven.queryByText('On this device')).toBeNull();
    await userEvent.selectOptions(canvas.getByLabelText('Show'), 'On this device');
    await expect(titlesShown(canvas)).toEqual(['The Tell-Tale Heart']);
    await expect(canvas.getByRole('status')).toHaveTextContent('1 book');
  },
};

/** A kept book's menu lets it go from the device; a book not kept offers to keep it. */
export const KeptBookMenu: Story = {
  name: 'More actions: "Remove from this device" for a kept book',
  beforeEach: keepHeart,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'More actions for The Tell-Tale Heart' }));
    const menu = within(canvas.getByRole('menu', { name: 'More actions for The Tell-Tale Heart' }));
    await expect(menu.getByRole('menuitem', { name: 'Remove from this device' })).toBeVisible();
    await expect(menu.queryByRole('menuitem', { name: 'Download to this device' })).toBeNull();
  },
};

/** A download from the menu shows on its book while it runs. */
export const DownloadingFromTheMenu: Story = {
  name: 'Downloading: the book says how far its download is',
  beforeEach: () => {
    keptState.downloads[libraryBookIds.raven] = { status: 'downloading', percent: 42 };
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('list', { name: 'Books' });
    const raven = within(canvas.getByRole('listitem', { name: 'The Raven' }));
    await expect(raven.getByText('Downloading… 42 %')).toBeVisible();
  },
};

/**
 * Offline after a reload: the server's list cannot be had, so the library shows the books kept
 * on this device from their index, says kindly that the others need a connection, and the kept
 * book plays.
 */
export const OfflineKeptBook: Story = {
  name: 'Offline: the kept book from the device, the others need a connection',
  parameters: {
    msw: {
      handlers: {
        jobs: http.get('*/api/v1/jobs', () => HttpResponse.error()),
        recentProgress: http.get('*/api/v1/progress/recent', () => HttpResponse.error()),
      },
    },
  },
  beforeEach: () => {
    keepHeart();
    connectivity.online = false;
    return () => {
      connectivity.online = true;
    };
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('list', { name: 'Books' })).toBeVisible();
    await expect(titlesShown(canvas)).toEqual(['The Tell-Tale Heart']);
    await expect(
      canvas.getByText('You are offline: the books on this device play. The others need a connection.'),
    ).toBeVisible();
    const heart = within(canvas.getByRole('listitem', { name: 'The Tell-Tale Heart' }));
    await expect(heart.getByText('On this device')).toBeVisible();
    await expect(heart.getByRole('button', { name: 'Play The Tell-Tale Heart' })).toBeVisible();
    // Kindly: no error banner for what offline cannot load.
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/** Offline with the library already loaded: a book not kept says it needs a connection, and has no Play. */
export const OfflineNotKept: Story = {
  name: 'Offline with the library loaded: books not kept need a connection',
  beforeEach: () => {
    keepHeart();
    return () => {
      connectivity.online = true;
    };
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('list', { name: 'Books' });
    // The network goes away with the library on the screen.
    connectivity.online = false;
    await waitFor(() => expect(canvas.getByText(/^You are offline/)).toBeVisible());
    const raven = within(canvas.getByRole('listitem', { name: 'The Raven' }));
    await expect(raven.getByText('Needs a connection to play')).toBeVisible();
    await expect(raven.queryByRole('button', { name: /Play|Listen again/ })).toBeNull();
    const heart = within(canvas.getByRole('listitem', { name: 'The Tell-Tale Heart' }));
    await expect(heart.getByRole('button', { name: 'Continue The Tell-Tale Heart' })).toBeVisible();
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/** Another device saved a later place in a book this one played offline: it is offered, not overwritten. */
export const LaterPlaceOnAnotherDevice: Story = {
  name: 'A later place on another device: "Continue from 12:04 on another device?"',
  beforeEach: () => {
    const local = {
      jobId: libraryBookIds.heart,
      position: 30,
      chapterId: null,
      madeAt: Date.parse('2025-03-01T10:00:00Z'),
    };
    keptState.offers[libraryBookIds.heart] = {
      jobId: libraryBookIds.heart,
      position: 724,
      chapterId: null,
      savedAt: '2025-03-01T11:00:00Z',
      local,
    };
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const offer = within(await canvas.findByRole('group', { name: 'A later place in The Tell-Tale Heart' }));
    await expect(offer.getByText('Continue The Tell-Tale Heart from 12:04 on another device?')).toBeVisible();
    await expect(offer.getByRole('button', { name: 'Continue from 12:04' })).toBeEnabled();
    await expect(offer.getByRole('button', { name: 'Keep my place here' })).toBeEnabled();
  },
};
