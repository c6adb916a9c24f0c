import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { PlayerAudio, resetPlayer } from '../../features/player';
import {
  audioCoverHandler,
  audioMetadataHandler,
  audioStreamHandler,
  audioTranscriptHandler,
  bookJobId,
  chapterJobIds,
  convertingChapterInfoFixtures,
  convertingMetadataFixture,
  openingStreamHandler,
  progressFixture,
  progressHandler,
  SAMPLE_OPENING_SECONDS,
  saveProgressHandler,
} from '../../mocks/audio';
import type { ProgressUpdate } from '../../api/gen/model';
import { errorBodyFixture } from '../../mocks/fixtures';
import { convertingBookFixture, tutoringAnalysisFixture } from '../../mocks/jobs';
import { completedJobFixture, jobHandler } from '../../mocks/library';
import { voiceConversationHandler } from '../../mocks/voice';
import { LibraryDetail } from './LibraryDetail';

/**
 * A book’s page: the player, its chapters, the read-along text and the way to ask the assistant about what
 * the reader has heard.
 */
const meta = {
  title: 'Screens/LibraryDetail',
  component: LibraryDetail,
  args: { jobId: bookJobId },
  parameters: {
    auth: { user: {} },
    route: `/library/${bookJobId}`,
    msw: { handlers: { job: jobHandler(completedJobFixture()) } },
  },
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
    localStorage.removeItem(`lectio.playbackRate.${bookJobId}`);
  },
} satisfies Meta<typeof LibraryDetail>;

export default meta;
type Story = StoryObj<typeof meta>;

const elapsed = (canvas: ReturnType<typeof within>) => canvas.getByRole('timer', { name: 'Elapsed time' });
const ready = async (canvas: ReturnType<typeof within>) =>
  waitFor(() => expect(canvas.getByRole('button', { name: 'Play' })).toBeEnabled(), { timeout: 5000 });

/** While the book’s audio is found. */
export const Loading: Story = {
  parameters: { msw: { handlers: { audioStream: audioStreamHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('Loading audio...')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Play' })).toBeDisabled();
  },
};

/** A book still converting: the first chapter will play here when ready. */
export const NotReady: Story = {
  name: 'Not ready: still converting, the page says the first chapter plays here when ready',
  parameters: {
    msw: {
      handlers: {
        job: jobHandler(completedJobFixture({ status: 'PROCESSING', progress: 60 })),
        // Nothing of it can be played yet, not even its first chapter's opening.
        audioMetadata: audioMetadataHandler({
          status: 409,
          body: errorBodyFixture('The audiobook is not ready yet (status PROCESSING)'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(
      await canvas.findByText('Converting (60%): the first chapter plays here as soon as it is ready.'),
    ).toBeVisible();
    // A book that exists keeps its own title, even when it cannot be played yet.
    await expect(canvas.getByRole('heading', { level: 1, name: 'The Tell-Tale Heart' })).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'See the conversion' })).toHaveAttribute(
      'href',
      `/jobs/${bookJobId}`,
    );
    await expect(canvas.queryByRole('button', { name: 'Play' })).toBeNull();
  },
};

/** A failed book: its title, and why it cannot be played. */
export const FailedBook: Story = {
  name: 'Failed book: its own title, and why it cannot be played',
  parameters: {
    msw: {
      handlers: {
        job: jobHandler(completedJobFixture({ status: 'FAILED', progress: 40, error_message: 'Chapter 2 failed' })),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Book not found or not ready for playback');
    await expect(canvas.getByRole('heading', { level: 1, name: 'The Tell-Tale Heart' })).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Back to Library' })).toHaveAttribute('href', '/library');
  },
};

/** A book that does not exist: not found. */
export const NotFound: Story = {
  parameters: { msw: { handlers: { job: jobHandler(null) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Book not found or not ready for playback');
    await expect(canvas.getByRole('heading', { level: 1, name: 'Book not found' })).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Back to Library' })).toBeVisible();
  },
};

/** A finished book before playing: cover, player, chapters, read-along and audio details. */
export const Details: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { level: 1, name: 'The Tell-Tale Heart' })).toBeVisible();
    await ready(canvas);
    // Audio details are folded away: the reader opens them.
    const audio = canvas.getByText('Audio details').closest('details')!;
    await expect(audio).not.toHaveAttribute('open');
    await userEvent.click(canvas.getByText('Audio details'));
    await expect(audio).toHaveAttribute('open');
    await expect(audio).toHaveTextContent('MP3');
    await expect(audio).toHaveTextContent('1m 00s');
    await expect(audio).toHaveTextContent('58.8 KB');
    // What speaks it, in words: never an engine's code name, never the voice only asked for.
    await expect(audio).toHaveTextContent('VoiceOffline voice · requested OpenAI');
    await expect(audio).toHaveTextContent('16 kHz');
    // The dates wait under a closed disclosure; the book's id is nowhere on a listener's page.
    const dates = canvas.getByText('Dates').closest('details')!;
    await expect(dates).not.toHaveAttribute('open');
    await expect(dates).toHaveTextContent('Created');
    await expect(canvasElement.textContent).not.toContain(bookJobId.slice(0, 8));
    await expect(canvas.getByText('3 chapters')).toBeVisible();
    // The offline voice read it, standing in for the OpenAI voice that was asked for.
    await expect(canvas.getByText('Offline voice')).toBeVisible();
    await expect(canvas.getByText('requested OpenAI')).toBeVisible();
    // X-ray needs no tutoring analysis: it answers from the heard text.
    await expect(canvas.getByRole('link', { name: 'Ask about this book' })).toHaveAttribute('aria-keyshortcuts', 'X');
  },
};

/** After the reader presses Play on the book page: the player at the top plays, its button now Pause. */
export const Playing: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await ready(canvas);
    // A story has no tap to give: muted, the browser lets the audio start without one.
    (canvas.getByTestId('player-audio') as HTMLAudioElement).muted = true;
    await userEvent.click(canvas.getByRole('button', { name: 'Play' }));
    await expect(await canvas.findByRole('button', { name: 'Pause' })).toBeVisible();
    // The real sample MP3 is playing: the clock moves.
    await waitFor(() => expect(elapsed(canvas)).toHaveTextContent('0:01'), { timeout: 5000 });
  },
};

/** Paused where the reader stopped. */
export const Paused: Story = {
  parameters: {
    msw: { handlers: { progress: progressHandler({ progress: progressFixture({ position_seconds: 25 }) }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await ready(canvas);
    await expect(canvas.getByText('Resuming from 0:25')).toBeVisible();
    await expect(elapsed(canvas)).toHaveTextContent('0:25');
    await expect(canvas.getByRole('slider', { name: 'Seek' })).toHaveAttribute('aria-valuenow', '25');
    await expect(canvas.getByRole('button', { name: /The Night Watch/ })).toHaveAttribute('aria-current', 'true');
  },
};

/** The audio cannot be played: the reason and a way to try again. */
export const AudioError: Story = {
  parameters: {
    msw: { handlers: { audioStream: audioStreamHandler({ stream: { streaming_url: '/fixtures/missing.mp3' } }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // The browser's own words stay in the console: the reader is told what to do.
    await waitFor(
      () =>
        expect(canvas.getByRole('alert')).toHaveTextContent(
          'This audio could not be played. Reload the page to try again.',
        ),
      { timeout: 5000 },
    );
    await expect(canvas.getByRole('button', { name: 'Play' })).toBeVisible();
  },
};

/** The stream address cannot be fetched: the error. */
export const StreamError: Story = {
  parameters: { msw: { handlers: { audioStream: audioStreamHandler({ status: 500 }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      'The audio could not be loaded. Check your connection, then try again.',
    );
  },
};

/** The server gives no stream: the page says the audio is not available. */
export const NoStreamingUrl: Story = {
  parameters: { msw: { handlers: { audioStream: audioStreamHandler({ stream: { streaming_url: '' } }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      'The audio could not be loaded. Check your connection, then try again.',
    );
  },
};

/** A book with chapters: the list, the current one marked, a click jumps there. */
export const WithChapters: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await ready(canvas);
    const chapters = canvas.getByRole('region', { name: 'Chapters' });
    const items = within(chapters).getAllByRole('listitem');
    await expect(items.map((item) => item.textContent)).toEqual([
      '1. The Visitor0:00 · 20s',
      '2. The Night Watch0:20 · 20s',
      '3. The Confession0:40 · 20s',
    ]);
    const first = within(chapters).getByRole('button', { name: /The Visitor/ });
    const second = within(chapters).getByRole('button', { name: /The Night Watch/ });
    await expect(first).toHaveAttribute('aria-current', 'true');
    await userEvent.click(second);
    await expect(second).toHaveAttribute('aria-current', 'true');
    await expect(first).not.toHaveAttribute('aria-current');
    await expect(elapsed(canvas)).toHaveTextContent('0:20');
    await userEvent.click(canvas.getByRole('button', { name: 'Next chapter' }));
    await expect(within(chapters).getByRole('button', { name: /The Confession/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await expect(canvas.getByRole('button', { name: 'Next chapter' })).toBeDisabled();
    await userEvent.click(canvas.getByRole('button', { name: 'Previous chapter' }));
    await expect(second).toHaveAttribute('aria-current', 'true');
    await expect(elapsed(canvas)).toHaveTextContent('0:20');
    await expect(chapterJobIds).toHaveLength(3);
  },
};

// A book still converting: its first chapter is converted, the other two are not yet.
const convertingChapters = convertingChapterInfoFixtures({ ready: 1 });

/** A converting book: the ready chapter plays, the others are marked not ready. */
export const ConvertingBook: Story = {
  name: 'Converting book: the ready chapter plays, chapters not ready yet are marked, nothing to ask about yet',
  parameters: {
    msw: {
      handlers: {
        job: jobHandler(convertingBookFixture({ title: 'The Tell-Tale Heart', count: 3, done: 1 }).book),
        audioMetadata: audioMetadataHandler({
          metadata: {
            status: 'PROCESSING',
            completed_at: null,
            duration: 20,
            estimated_duration: 60,
            chapters: convertingChapters,
            chapters_ready: 1,
          },
        }),
        audioStream: audioStreamHandler({
          stream: { source_job_id: chapterJobIds[0], file_key: `audio/${chapterJobIds[0]}.mp3` },
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await ready(canvas);
    const chapters = canvas.getByRole('region', { name: 'Chapters' });
    await expect(
      within(chapters)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['1. The Visitor0:00 · 20s', '2. The Night WatchNot ready yet', '3. The ConfessionNot ready yet']);
    const first = within(chapters).getByRole('button', { name: /The Visitor/ });
    await expect(first).toBeEnabled();
    await expect(first).toHaveAttribute('aria-current', 'true');
    for (const name of [/The Night Watch/, /The Confession/]) {
      const chapter = within(chapters).getByRole('button', { name });
      await expect(chapter).toBeDisabled();
      await expect(chapter).toHaveAccessibleDescription(/still converting: 2 chapters are not ready yet/);
    }
    // Nothing after the ready chapter can be played yet.
    await expect(canvas.getByRole('button', { name: 'Next chapter' })).toBeDisabled();
    // The assistant talks about finished books only: nothing to ask about yet.
    await expect(canvas.queryByRole('link', { name: 'Ask about this book' })).toBeNull();
    // The length so far, and what the whole book will last: beside the cover and in Audio details.
    const [facts, inDetails] = canvas.getAllByText('20s ready · about 1m 00s in all');
    await expect(facts).toBeVisible();
    await userEvent.click(canvas.getByText('Audio details'));
    await expect(inDetails).toBeVisible();
    // What will speak the chapters still to come, in words.
    await expect(canvas.getByText('Audio details').closest('details')!).toHaveTextContent(
      'VoiceOffline voice · requested OpenAI',
    );
  },
};

/** A long book converting its first chapter: its first minutes play on the book page already. */
export const ConvertingFirstMinutes: Story = {
  name: 'Converting, first minutes playing: the page is the player, the rest of chapter 1 not ready yet',
  parameters: {
    msw: {
      handlers: {
        // No chapter finished yet: chapter 1 converts, its first 12 s (its opening) are ready.
        job: jobHandler(convertingBookFixture({ title: 'The Tell-Tale Heart', count: 3, done: 0 }).book),
        audioMetadata: audioMetadataHandler({
          metadata: convertingMetadataFixture({ ready: 0, openingSeconds: SAMPLE_OPENING_SECONDS }),
        }),
        audioStream: openingStreamHandler(),
        audioTranscript: audioTranscriptHandler({
          status: 409,
          body: errorBodyFixture('Chapter 1 is not ready yet (status PROCESSING)'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await ready(canvas);
    await expect(canvas.queryByText(/the first chapter plays here as soon as it is ready/)).toBeNull();
    await expect(canvas.getByRole('timer', { name: 'Total time' })).toHaveTextContent('0:12');
    const chapters = within(canvas.getByRole('region', { name: 'Chapters' }));
    await expect(chapters.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '1. The VisitorFirst minutes ready · 12s',
      '2. The Night WatchNot ready yet',
      '3. The ConfessionNot ready yet',
    ]);
    const first = chapters.getByRole('button', { name: /The Visitor/ });
    await expect(first).toBeEnabled();
    await expect(first).toHaveAccessibleName(/First minutes ready/);
    await expect(first).toHaveAttribute('aria-current', 'true');
    // Past the first minutes, the seek bar is striped: not converted yet.
    await expect(canvas.getByTestId('not-converted')).toHaveAttribute('title', 'Not converted yet');
    await expect(canvas.getByRole('button', { name: 'Next chapter' })).toBeDisabled();
    await expect(canvas.getAllByText('12s ready · about 1m 00s in all')[0]).toBeVisible();
    await expect(
      canvas.getByText('This chapter is still converting: its text appears here when it is ready.'),
    ).toBeVisible();
    // The first minutes play.
    (canvas.getByTestId('player-audio') as HTMLAudioElement).muted = true;
    await userEvent.click(canvas.getByRole('button', { name: 'Play' }));
    await expect(await canvas.findByRole('button', { name: 'Pause' })).toBeVisible();
    await waitFor(() => expect(elapsed(canvas)).toHaveTextContent('0:01'), { timeout: 5000 });
  },
};

// A hundred short chapters over the sample's minute: the list shows a few and scrolls by itself.
const hundredChapters = Array.from({ length: 100 }, (_, index) => ({
  id: `1a2b3c4d-${String(index).padStart(4, '0')}-4e5f-8a9b-0c1d2e3f4a5b`,
  title: `Chapter ${index + 1}`,
  order: index + 1,
  start: index * 0.6,
  duration: 0.6,
  ready: true,
  playable_seconds: 0.6,
}));

/** A hundred chapters: the list scrolls inside itself, the current one in view. */
export const HundredChapters: Story = {
  name: 'A hundred chapters: the list scrolls inside itself, the current chapter in view',
  parameters: {
    msw: {
      handlers: {
        audioMetadata: audioMetadataHandler({ metadata: { chapters: hundredChapters } }),
        progress: progressHandler({
          progress: progressFixture({ position_seconds: 45, current_chapter_id: hundredChapters[75]!.id }),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await ready(canvas);
    const chapters = canvas.getByRole('region', { name: 'Chapters' });
    const current = within(chapters).getByRole('button', { name: /^76\. Chapter 76/ });
    await expect(current).toHaveAttribute('aria-current', 'true');
    const box = current.closest('ol')!.parentElement!;
    // About eight rows, not a hundred: the page does not grow with the book.
    await expect(box.clientHeight).toBeLessThan(420);
    await expect(box.scrollHeight).toBeGreaterThan(box.clientHeight * 5);
    // Chapter 76 is scrolled into view inside the list.
    await waitFor(() => {
      const shown = box.getBoundingClientRect();
      const row = current.getBoundingClientRect();
      if (row.top < shown.top || row.bottom > shown.bottom) throw new Error('The current row is out of view');
    });
  },
};

const recapText =
  'Previously in The Tell-Tale Heart: the narrator swears he is not mad, and watches the old man sleep, night after night. That part is about the narrator and the old man.';
const afterABreak = {
  msw: {
    handlers: {
      progress: progressHandler({ progress: progressFixture({ position_seconds: 25 }) }),
      voiceConversation: voiceConversationHandler({
        job_id: bookJobId,
        recap: { text: recapText, rested_minutes: 180 },
      }),
    },
  },
};

/** Previously… (the book rested 3 hours: the recap, to read or hear, then listening resumes). */
export const PreviouslyAfterABreak: Story = {
  name: 'Previously… (the book rested 3 hours: the recap, to read or hear, then listening resumes)',
  parameters: afterABreak,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await ready(canvas);
    const recap = await canvas.findByRole('region', { name: 'Previously…' });
    await expect(recap).toHaveTextContent(`You last listened 3 hours ago. ${recapText}`);
    await expect(within(recap).getByRole('button', { name: 'Hear the recap' })).toBeEnabled();
    await expect(within(recap).getByRole('button', { name: 'Resume listening' })).toBeEnabled();
  },
};

/** Previously…, then Resume listening: the book plays on from the saved place. */
export const PreviouslyThenResume: Story = {
  name: 'Previously…, then Resume listening: the book plays on from the saved place',
  parameters: afterABreak,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await ready(canvas);
    const recap = await canvas.findByRole('region', { name: 'Previously…' });
    await userEvent.click(within(recap).getByRole('button', { name: 'Resume listening' }));
    await expect(await canvas.findByRole('button', { name: 'Pause' })).toBeVisible();
    await expect(canvas.queryByRole('region', { name: 'Previously…' })).toBeNull();
  },
};

/** Ask about this book carries the place the reader reached to X-ray. */
export const XrayLink: Story = {
  parameters: {
    msw: {
      handlers: {
        job: jobHandler(
          completedJobFixture({ config: { provider: 'openai', tutoring_analysis: tutoringAnalysisFixture() } }),
        ),
        progress: progressHandler({ progress: progressFixture({ position_seconds: 25 }) }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await ready(canvas);
    await expect(canvas.getByRole('link', { name: 'Ask about this book' })).toHaveAttribute(
      'href',
      `/voice-assistant?mode=xray&jobId=${bookJobId}&position=25`,
    );
  },
};

/** The X key asks about the book. */
export const AskAboutThisBookShortcut: Story = {
  tags: ['navigates'],
  name: 'Ask about this book (X key)',
  parameters: {
    routeStubs: ['/voice-assistant'],
    msw: { handlers: { progress: progressHandler({ progress: progressFixture({ position_seconds: 25 }) }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await ready(canvas);
    await canvas.findByRole('link', { name: 'Ask about this book' });
    // Not while typing somewhere, and not with a modifier.
    await userEvent.keyboard('{Control>}x{/Control}');
    await expect(canvas.getByRole('link', { name: 'Ask about this book' })).toBeVisible();
    await userEvent.keyboard('x');
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /voice-assistant' })).toBeVisible();
  },
};

/** A book with its own cover image. */
export const WithCover: Story = {
  parameters: { msw: { handlers: { audioCover: audioCoverHandler({ cover: true }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const cover = await canvas.findByRole('img', { name: 'Cover of The Tell-Tale Heart' }, { timeout: 5000 });
    await waitFor(() => expect((cover as HTMLImageElement).naturalWidth).toBe(400));
  },
};

/** The reader's saved place at the end of the book: 58 of 60 s, in the last chapter. */
const finishedPlace = progressFixture({
  position_seconds: 58,
  current_chapter_id: chapterJobIds[2],
  is_completed: true,
});

/** A book listened to the end: Finished, and Listen again. */
export const FinishedBook: Story = {
  parameters: { msw: { handlers: { progress: progressHandler({ progress: finishedPlace }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await ready(canvas);
    await expect(canvas.getByText('You finished this book.')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Listen again' })).toBeEnabled();
    await expect(canvas.getByText('Finished')).toBeVisible();
    // Still at the saved place: nothing restarted on its own.
    await expect(elapsed(canvas)).toHaveTextContent('0:58');
    await expect(canvas.queryByText(/Resuming from/)).toBeNull();
  },
};

const savedUpdates: ProgressUpdate[] = [];

/** Listen again starts from the beginning. */
export const ListenAgainStartsOver: Story = {
  parameters: {
    msw: {
      handlers: {
        progress: progressHandler({ progress: finishedPlace }),
        saveProgress: saveProgressHandler({ onSave: (update) => savedUpdates.push(update) }),
      },
    },
  },
  beforeEach: () => {
    savedUpdates.length = 0;
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await ready(canvas);
    await userEvent.click(canvas.getByRole('button', { name: 'Listen again' }));
    // Playing again from the start, first chapter, and that place saved at once.
    await expect(await canvas.findByRole('button', { name: 'Pause' })).toBeVisible();
    await waitFor(() => expect(savedUpdates[0]).toEqual({ position_seconds: 0, current_chapter_id: chapterJobIds[0] }));
    await expect(Number(canvas.getByRole('slider', { name: 'Seek' }).getAttribute('aria-valuenow'))).toBeLessThan(5);
    await expect(canvas.getByRole('button', { name: /The Visitor/ })).toHaveAttribute('aria-current', 'true');
    // Still the finished book's page, saying it is being listened to again.
    await expect(canvas.getByRole('status')).toHaveTextContent(
      'You finished this book: listening again from the start.',
    );
    await expect(canvas.getByRole('heading', { level: 1, name: 'The Tell-Tale Heart' })).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Listen again' })).toBeNull();
  },
};
