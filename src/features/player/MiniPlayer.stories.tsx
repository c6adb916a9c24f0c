import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  audioMetadataHandler,
  audioStreamHandler,
  bookJobId,
  convertingChapterInfoFixtures,
  chapterJobIds,
  progressHandler,
  progressFixture,
} from '../../mocks/audio';
import { http, HttpResponse } from 'msw';
import { environmentFixture } from '../../mocks/fixtures';
import { MiniPlayer } from './MiniPlayer';
import { OutageBanner } from './OutageBanner';
import { PlayerAudio } from './PlayerAudio';
import { OUTAGE_MESSAGE, resetConnection } from './connection';
import { loadJob, playFrom, resetPlayer } from './controls';
import { PLAYER_MESSAGES } from './media';
import { connection, state } from './store';

/** A signed-in page with the mini-player under it; `load` puts the sample book in the player. */
function PageWithMiniPlayer({ load, width }: { load: boolean; width?: number }) {
  useEffect(() => {
    if (load) void loadJob(bookJobId);
  }, [load]);
  // A transform makes the frame the fixed bar's containing block: a phone-wide page in any window.
  return (
    <div style={width ? { width, height: 640, transform: 'translateZ(0)', border: '1px solid #d1d5db' } : undefined}>
      <main style={{ padding: 16 }}>
        <h1>Library</h1>
        <p>Your finished audiobooks, ready to play from where you left off.</p>
      </main>
      <OutageBanner />
      <MiniPlayer />
      <PlayerAudio />
    </div>
  );
}

/** The mini-player: the book playing, kept at the bottom of every page while the reader moves around. */
const meta = {
  title: 'Features/Player/MiniPlayer',
  component: PageWithMiniPlayer,
  args: { load: true },
  parameters: { auth: { user: {} }, route: '/library' },
  beforeEach: () => {
    resetPlayer();
    resetConnection();
    return () => resetConnection();
  },
} satisfies Meta<typeof PageWithMiniPlayer>;

export default meta;
type Story = StoryObj<typeof meta>;

type Canvas = ReturnType<typeof within>;
async function nowPlaying(canvas: Canvas) {
  const bar = within(await canvas.findByRole('region', { name: 'Now playing' }));
  await waitFor(() => expect(bar.getByRole('button', { name: 'Play' })).toBeEnabled(), { timeout: 5000 });
  return bar;
}

/**
 * A story has no tap to give the browser, which blocks audio that starts without one ("Tap play to
 * start"). Muted, the browser lets it play: the story shows the playing state it names.
 */
const muteForStory = (root: HTMLElement) => {
  const audio = root.ownerDocument.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
  if (audio) audio.muted = true;
};

/** Nothing played yet: no mini-player. */
export const Idle: Story = {
  name: 'Idle: nothing played yet, no mini-player',
  args: { load: false },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Library' })).toBeVisible();
    await expect(canvas.queryByRole('region', { name: 'Now playing' })).toBeNull();
  },
};

/** A book paused: it resumes where the reader stopped. */
export const Paused: Story = {
  name: 'Paused: the book resumes where the reader stopped',
  parameters: {
    msw: { handlers: { progress: progressHandler({ progress: progressFixture({ position_seconds: 25 }) }) } },
  },
  play: async ({ canvasElement }) => {
    const bar = await nowPlaying(within(canvasElement));
    await expect(bar.getByRole('img', { name: 'Cover of The Tell-Tale Heart' })).toBeVisible();
    await expect(bar.getByRole('link', { name: 'Open The Tell-Tale Heart' })).toHaveAttribute(
      'href',
      `/library/${bookJobId}`,
    );
    await expect(bar.getByText('The Night Watch')).toBeVisible();
    await expect(bar.getByRole('progressbar', { name: 'Listening progress' })).toHaveAttribute(
      'aria-valuetext',
      '0:25 of 1:00',
    );
    await expect(bar.getByRole('button', { name: 'Back 10 seconds' })).toBeEnabled();
    await expect(bar.getByRole('button', { name: 'Forward 10 seconds' })).toBeEnabled();
  },
};

/** A book playing: pause offered, the time moving. */
export const Playing: Story = {
  name: 'Playing: pause is offered and the time moves',
  play: async ({ canvasElement }) => {
    const bar = await nowPlaying(within(canvasElement));
    muteForStory(canvasElement);
    await userEvent.click(bar.getByRole('button', { name: 'Play' }));
    await expect(await bar.findByRole('button', { name: 'Pause' })).toBeVisible();
    await waitFor(() => expect(state.currentPosition).toBeGreaterThan(0.2), { timeout: 5000 });
    await expect(state.isPlaying).toBe(true);
  },
};

/** Paused from the bar itself. */
export const PausedFromTheBar: Story = {
  name: 'Paused from the bar: play, then pause in the mini-player',
  play: async ({ canvasElement }) => {
    const bar = await nowPlaying(within(canvasElement));
    muteForStory(canvasElement);
    await userEvent.click(bar.getByRole('button', { name: 'Play' }));
    await userEvent.click(await bar.findByRole('button', { name: 'Pause' }));
    await expect(await bar.findByRole('button', { name: 'Play' })).toBeVisible();
    await expect(state.isPlaying).toBe(false);
  },
};

/** Forward and back 10 seconds. */
export const SkipsTenSeconds: Story = {
  name: 'Skips: forward and back 10 seconds',
  parameters: {
    msw: { handlers: { progress: progressHandler({ progress: progressFixture({ position_seconds: 25 }) }) } },
  },
  play: async ({ canvasElement }) => {
    const bar = await nowPlaying(within(canvasElement));
    await userEvent.click(bar.getByRole('button', { name: 'Forward 10 seconds' }));
    await waitFor(() => expect(state.currentPosition).toBe(35));
    await userEvent.click(bar.getByRole('button', { name: 'Back 10 seconds' }));
    await waitFor(() => expect(state.currentPosition).toBe(25));
  },
};

/** A long title is cut with an ellipsis. */
export const LongTitle: Story = {
  name: 'Long title: cut with an ellipsis, the full title stays the link name',
  parameters: {
    msw: {
      handlers: {
        audioMetadata: audioMetadataHandler({
          metadata: {
            title:
              'The Extraordinary and Entirely Unabridged Adventures of a Lamplighter Who Walked the Harbour Wall Every Evening',
          },
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const bar = await nowPlaying(within(canvasElement));
    const link = bar.getByRole('link', { name: /^Open The Extraordinary/ });
    await expect(link.scrollWidth).toBeGreaterThan(link.clientWidth);
  },
};

/** On a phone: cover, title and play/pause only. */
export const Phone: Story = {
  name: 'Phone (390 px): cover, title and play/pause only',
  args: { width: 390 },
  globals: { viewport: { value: 'phone', isRotated: false } },
  play: async ({ canvasElement }) => {
    const bar = await nowPlaying(within(canvasElement));
    await expect(bar.getByRole('button', { name: 'Play' })).toBeVisible();
    await expect(bar.queryByRole('button', { name: 'Forward 10 seconds' })).toBeNull();
  },
};

/** A book still converting: chapter 1 converted, chapters 2 and 3 not yet. */
const convertingChapters = convertingChapterInfoFixtures({ ready: 1 });

/** A book still converting: chapter 1 plays while the rest converts. */
export const ConvertingBook: Story = {
  name: 'Converting book: chapter 1 plays from its own file while the rest converts',
  parameters: {
    msw: {
      handlers: {
        audioMetadata: audioMetadataHandler({
          metadata: {
            status: 'PROCESSING',
            completed_at: null,
            duration: 20,
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
    const bar = await nowPlaying(within(canvasElement));
    await expect(bar.getByText('The Visitor')).toBeVisible();
    await expect(bar.getByRole('progressbar', { name: 'Listening progress' })).toHaveAttribute(
      'aria-valuetext',
      '0:00 of 0:20',
    );
    await expect(state.streamChapterId).toBe(chapterJobIds[0]);
  },
};

/** Whether the story's server answers (the outage story stops and starts it). */
const server = { down: false };
const unlessDown = (path: string, method: 'get' | 'put', answer: () => object) =>
  http[method](path, () => (server.down ? HttpResponse.error() : HttpResponse.json(answer())));

/**
 * The server goes away while a book plays: one banner says so, the player pauses honestly (Play,
 * not Pause) at the listener's place, and all recovers by itself once the server answers again.
 */
export const ServerUnreachable: Story = {
  name: "Server unreachable: \u201cCan't reach Lectio \u2014 retrying\u201d, paused at the place, recovers by itself",
  parameters: {
    msw: {
      handlers: {
        saveProgress: unlessDown('*/api/v1/progress/:jobId', 'put', () =>
          progressFixture({ position_seconds: state.currentPosition }),
        ),
        environment: unlessDown('*/api/v1/environment', 'get', () => environmentFixture()),
      },
    },
  },
  beforeEach: () => {
    server.down = false;
  },
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement);
    const bar = await nowPlaying(canvas);
    muteForStory(canvasElement);
    await userEvent.click(bar.getByRole('button', { name: 'Play' }));
    await waitFor(() => expect(state.currentPosition).toBeGreaterThan(0.5), { timeout: 5000 });
    await step('the server stops: the banner, and the player paused at its place', async () => {
      server.down = true;
      // Pausing saves the place: that save gets no answer.
      await userEvent.click(bar.getByRole('button', { name: 'Pause' }));
      await expect(await canvas.findByRole('status', {}, { timeout: 5000 })).toHaveTextContent(OUTAGE_MESSAGE);
      await expect(bar.getByRole('button', { name: 'Play' })).toBeVisible();
      await expect(state.currentPosition).toBeGreaterThan(0.5);
    });
    await step('the server is back: the banner goes by itself', async () => {
      server.down = false;
      await waitFor(() => expect(canvas.queryByText(OUTAGE_MESSAGE)).toBeNull(), { timeout: 8000 });
      await expect(connection.reachable).toBe(true);
    });
  },
};

/**
 * A jump the listener did not drag to (X-ray's "Play from here"): "Back to 0:46" is offered, and
 * brings the place back.
 */
export const BackToPreviousPlace: Story = {
  name: 'Back to …: after "Play from here", the previous place is one tap away',
  parameters: {
    msw: { handlers: { progress: progressHandler({ progress: progressFixture({ position_seconds: 46 }) }) } },
  },
  play: async ({ canvasElement }) => {
    const bar = await nowPlaying(within(canvasElement));
    muteForStory(canvasElement);
    await playFrom(bookJobId, 6);
    const back = await bar.findByRole('button', { name: 'Back to 0:46' });
    await waitFor(() => expect(state.currentPosition).toBeLessThan(10));
    await userEvent.click(back);
    await waitFor(() => expect(state.currentPosition).toBeGreaterThanOrEqual(46));
    await expect(bar.queryByRole('button', { name: /^Back to/ })).toBeNull();
  },
};

/** The browser blocks a start without a tap (autoplay): the listener is asked to tap, Play shows. */
export const TapPlayToStart: Story = {
  name: 'Autoplay blocked: \u201cTap play to start\u201d, Play shown (not Pause)',
  play: async ({ canvasElement }) => {
    const bar = await nowPlaying(within(canvasElement));
    const audio = canvasElement.ownerDocument.querySelector<HTMLAudioElement>('[data-testid="player-audio"]')!;
    // What a browser does to audio started without a tap.
    audio.play = () => Promise.reject(new DOMException('play() needs a user gesture', 'NotAllowedError'));
    await playFrom(bookJobId, 10);
    await expect(await bar.findByText(PLAYER_MESSAGES.tapToPlay)).toBeVisible();
    await expect(bar.getByRole('button', { name: 'Play' })).toBeVisible();
    await expect(state.isPlaying).toBe(false);
  },
};
