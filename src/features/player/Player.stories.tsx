import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect } from 'react';
import { http, HttpResponse } from 'msw';
import { expect, fireEvent, userEvent, waitFor, within } from 'storybook/test';
import {
  audioMetadataHandler,
  audioStreamHandler,
  bookJobId,
  chapterInfoFixtures,
  convertingMetadataFixture,
  openingStreamHandler,
  SAMPLE_OPENING_SECONDS,
  streamInfoFixture,
} from '../../mocks/audio';
import { environmentFixture } from '../../mocks/fixtures';
import { ChapterList } from './ChapterList';
import { OUTAGE_MESSAGE, resetConnection } from './connection';
import { OutageBanner } from './OutageBanner';
import { Player } from './Player';
import { PlayerAudio } from './PlayerAudio';
import { loadJob, resetPlayer } from './controls';
import { state } from './store';

/** The player with the sample book loaded, as the book page shows it. */
function LoadedPlayer() {
  useEffect(() => {
    void loadJob(bookJobId);
  }, []);
  return (
    <div style={{ maxWidth: 640, padding: 16, display: 'grid', gap: 16 }}>
      <OutageBanner />
      <Player title="Player: The Tell-Tale Heart" />
      <ChapterList />
      <PlayerAudio />
    </div>
  );
}

/**
 * The player on a book’s page: play, seek, skip, chapters, volume, speed, sleep timer and keyboard shortcuts.
 */
const meta = {
  title: 'Features/Player',
  component: LoadedPlayer,
  parameters: { auth: { user: {} } },
  beforeEach: () => {
    resetPlayer();
    resetConnection();
    localStorage.removeItem(`lectio.playbackRate.${bookJobId}`);
    return () => resetConnection();
  },
} satisfies Meta<typeof LoadedPlayer>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * A story has no tap to give the browser, which blocks audio that starts without one ("Tap play to
 * start"). Muted, the browser lets it play: the story shows the playing state it names.
 */
const muteForStory = (root: HTMLElement) => {
  const audio = root.ownerDocument.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
  if (audio) audio.muted = true;
};

type Canvas = ReturnType<typeof within>;
const elapsed = (canvas: Canvas) => canvas.getByRole('timer', { name: 'Elapsed time' });
const seekBar = (canvas: Canvas) => canvas.getByRole('slider', { name: 'Seek' });
async function ready(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await waitFor(() => expect(canvas.getByRole('button', { name: 'Play' })).toBeEnabled(), { timeout: 5000 });
  await expect(canvas.getByRole('timer', { name: 'Total time' })).toHaveTextContent('1:00');
  return canvas;
}
const menuItems = (canvas: Canvas, name: string) =>
  within(canvas.getByRole('menu', { name }))
    .getAllByRole('menuitemradio')
    .map((item) => item.textContent);

/** After the reader presses Play: the button turns into Pause and the time runs. */
export const Playing: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await ready(canvasElement);
    muteForStory(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Play' }));
    await expect(await canvas.findByRole('button', { name: 'Pause' })).toBeVisible();
    await expect(state.isPlaying).toBe(true);
  },
};

/** Paused where the reader stopped. */
export const Paused: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await ready(canvasElement);
    muteForStory(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Play' }));
    await userEvent.click(await canvas.findByRole('button', { name: 'Pause' }));
    await expect(await canvas.findByRole('button', { name: 'Play' })).toBeVisible();
    await expect(state.isPlaying).toBe(false);
  },
};

/** While the audio loads: the controls wait. */
export const Loading: Story = {
  parameters: { msw: { handlers: { audioStream: audioStreamHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('Loading audio...')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Play' })).toBeDisabled();
    await expect(seekBar(canvas)).toHaveAttribute('aria-disabled', 'true');
  },
};

/** The audio cannot be played: the reason. */
export const Error: Story = {
  parameters: { msw: { handlers: { audioStream: audioStreamHandler({ status: 500 }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      'The audio could not be loaded. Check your connection, then try again.',
    );
    await expect(canvas.getByRole('button', { name: 'Play' })).toBeDisabled();
  },
};

/** Whether the story's server answers (the outage story starts it again). */
const server = { down: false };

/**
 * The server cannot be reached while the book loads: the banner alone says so (the player's own
 * "could not be loaded" would say it twice), and the book loads by itself once the server is back.
 */
export const ServerUnreachable: Story = {
  name: 'Server unreachable: the banner alone, then the book loads by itself',
  parameters: {
    msw: {
      handlers: {
        audioStream: http.get('*/api/v1/audio/:jobId/stream', () =>
          server.down ? HttpResponse.error() : HttpResponse.json(streamInfoFixture()),
        ),
        environment: http.get('*/api/v1/environment', () =>
          server.down ? HttpResponse.error() : HttpResponse.json(environmentFixture()),
        ),
      },
    },
  },
  beforeEach: () => {
    server.down = true;
  },
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement);
    await step('no answer: one banner, no second error in the player', async () => {
      await expect(await canvas.findByText(OUTAGE_MESSAGE, {}, { timeout: 5000 })).toBeVisible();
      await waitFor(() => expect(state.error).not.toBeNull());
      await expect(canvas.queryByRole('alert')).toBeNull();
    });
    await step('the server answers again: the book loads, with nothing to dismiss', async () => {
      server.down = false;
      await waitFor(() => expect(canvas.queryByText(OUTAGE_MESSAGE)).toBeNull(), { timeout: 8000 });
      await ready(canvasElement);
      await expect(canvas.queryByRole('alert')).toBeNull();
    });
  },
};

/** The reader moves through the book with the seek bar: arrow keys step 5 s, Page keys a chapter, Home/End the ends. */
export const Seek: Story = {
  play: async ({ canvasElement, step }) => {
    const canvas = await ready(canvasElement);
    const slider = seekBar(canvas);
    await step('the keys move 5 s, a chapter, to the start and the end', async () => {
      slider.focus();
      await userEvent.keyboard('{ArrowRight}');
      await waitFor(() => expect(elapsed(canvas)).toHaveTextContent('0:05'));
      await expect(slider).toHaveAttribute('aria-valuetext', '0:05 of 1:00');
      await userEvent.keyboard('{PageUp}');
      await waitFor(() => expect(slider).toHaveAttribute('aria-valuenow', '20'));
      await userEvent.keyboard('{End}');
      await waitFor(() => expect(slider).toHaveAttribute('aria-valuenow', '60'));
      await userEvent.keyboard('{Home}');
      await waitFor(() => expect(slider).toHaveAttribute('aria-valuenow', '0'));
    });
    await step('dragging shows the drag position and seeks on release', async () => {
      const rect = slider.getBoundingClientRect();
      const at = (fraction: number) => ({
        clientX: rect.left + rect.width * fraction,
        clientY: rect.top + rect.height / 2,
        button: 0,
        pointerId: 1,
      });
      await fireEvent.pointerDown(slider, at(0.5));
      await fireEvent.pointerMove(slider, at(0.75));
      await waitFor(() => expect(elapsed(canvas)).toHaveTextContent('0:45'));
      await expect(state.currentPosition).toBe(0);
      await fireEvent.pointerUp(slider, at(0.75));
      await waitFor(() => expect(state.currentPosition).toBe(45));
      await expect(slider).toHaveAttribute('aria-valuetext', '0:45 of 1:00');
    });
  },
};

/** The reader taps Forward and Back 10 seconds: the elapsed time moves by ten each time, never below zero. */
export const Skip: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await ready(canvasElement);
    const forward = canvas.getByRole('button', { name: 'Forward 10 seconds' });
    const back = canvas.getByRole('button', { name: 'Back 10 seconds' });
    await userEvent.click(forward);
    await expect(elapsed(canvas)).toHaveTextContent('0:10');
    await userEvent.click(forward);
    await expect(elapsed(canvas)).toHaveTextContent('0:20');
    await userEvent.click(back);
    await expect(elapsed(canvas)).toHaveTextContent('0:10');
    await userEvent.click(back);
    await userEvent.click(back);
    // Clamped at the start.
    await expect(elapsed(canvas)).toHaveTextContent('0:00');
    await userEvent.click(canvas.getByRole('button', { name: 'Next chapter' }));
    await expect(elapsed(canvas)).toHaveTextContent('0:20');
    await userEvent.click(canvas.getByRole('button', { name: 'Next chapter' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Previous chapter' }));
    await expect(elapsed(canvas)).toHaveTextContent('0:20');
  },
};

/** The reader drags the volume slider: it reads out the new level as a percentage. */
export const Volume: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await ready(canvasElement);
    const volume = canvas.getByRole('slider', { name: 'Volume' });
    await expect(volume).toHaveAttribute('aria-valuetext', '100%');
    await expect(volume).toHaveAttribute('step', '0.1');
    await fireEvent.input(volume, { target: { value: '0.7' } });
    await waitFor(() => expect(volume).toHaveAttribute('aria-valuetext', '70%'));
    await expect(canvas.getByText('70%')).toBeVisible();
    await expect(state.volume).toBe(0.7);
    await userEvent.click(canvas.getByRole('button', { name: 'Mute' }));
    await expect(volume).toHaveAttribute('aria-valuetext', '0%');
    await userEvent.click(canvas.getByRole('button', { name: 'Unmute' }));
    await expect(volume).toHaveAttribute('aria-valuetext', '70%');
  },
};

/** The speed menu is open. */
export const SpeedMenuOpen: Story = {
  play: async ({ canvasElement, step }) => {
    const canvas = await ready(canvasElement);
    const button = canvas.getByRole('button', { name: /^Playback speed: / });
    await expect(button).toHaveTextContent('1×');
    await step('Escape closes the menu', async () => {
      await userEvent.click(button);
      await expect(menuItems(canvas, 'Playback speed')).toEqual(['0.75×', '1×', '1.25×', '1.5×', '1.75×', '2×']);
      await userEvent.keyboard('{Escape}');
      await expect(canvas.queryByRole('menu')).toBeNull();
      await expect(button).toHaveFocus();
    });
    await step('a choice sets the speed and is remembered for the book', async () => {
      await userEvent.click(button);
      await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
      await expect(button).toHaveTextContent('1.5×');
      await expect(button).toHaveAccessibleName('Playback speed: 1.5×');
      await expect(localStorage.getItem(`lectio.playbackRate.${bookJobId}`)).toBe('1.5');
      await expect((canvasElement.querySelector('audio') as HTMLAudioElement).playbackRate).toBe(1.5);
    });
    await userEvent.click(button);
    await expect(canvas.getByRole('menuitemradio', { name: '1.5×' })).toHaveAttribute('aria-checked', 'true');
    await expect(canvas.getByRole('menuitemradio', { name: '1.5×' })).toHaveFocus();
  },
};

/** A sleep timer is counting down. */
export const SleepTimerRunning: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await ready(canvasElement);
    const button = canvas.getByRole('button', { name: /^Sleep timer/ });
    await expect(button).toHaveTextContent('Sleep timer');
    await expect(button).toHaveAccessibleName('Sleep timer');
    await userEvent.click(button);
    await expect(menuItems(canvas, 'Sleep timer')).toEqual([
      '15 min',
      '30 min',
      '45 min',
      '60 min',
      'End of chapter',
      'Off',
    ]);
    await userEvent.click(canvas.getByRole('menuitemradio', { name: '15 min' }));
    await expect(button).toHaveTextContent(/^Sleep in 15:00$/);
    await expect(button).toHaveAccessibleName('Sleep timer: Sleep in 15:00');
    muteForStory(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Play' }));
    await waitFor(() => expect(button).toHaveTextContent(/^Sleep in 14:5\d$/), { timeout: 3000 });
  },
};

/** The sleep timer stops at the end of the chapter. */
export const SleepTimerEndOfChapter: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await ready(canvasElement);
    const button = canvas.getByRole('button', { name: /^Sleep timer/ });
    await userEvent.click(button);
    await userEvent.click(canvas.getByRole('menuitemradio', { name: 'End of chapter' }));
    // The first chapter ends at 0:20.
    await expect(button).toHaveTextContent('Sleep in 0:20');
    await userEvent.click(button);
    await expect(canvas.getByRole('menuitemradio', { name: 'End of chapter' })).toHaveAttribute('aria-checked', 'true');
    await userEvent.keyboard('{Escape}');
    await expect(state.sleepTimer).toMatchObject({ mode: 'chapterEnd', endsAt: 20 });
  },
};

/** A book still converting: its last two chapters are not ready, striped and not playable. */
export const ConvertingBook: Story = {
  parameters: {
    msw: {
      handlers: {
        audioMetadata: audioMetadataHandler({
          metadata: {
            status: 'PROCESSING',
            chapters: chapterInfoFixtures().map((chapter, index) => ({
              ...chapter,
              ready: index === 0,
              playable_seconds: index === 0 ? chapter.duration : 0,
            })),
          },
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = await ready(canvasElement);
    await expect(canvas.getAllByTestId('chapter-marker')).toHaveLength(2);
    await expect(canvas.getAllByTestId('chapter-not-ready')).toHaveLength(2);
    const slider = seekBar(canvas);
    slider.focus();
    await userEvent.keyboard('{PageUp}');
    await expect(slider).toHaveAttribute('aria-valuenow', '0');
    await userEvent.click(canvas.getByRole('button', { name: 'Next chapter' }));
    await expect(elapsed(canvas)).toHaveTextContent('0:00');
  },
};

/**
 * A long book converting its first chapter: the chapter's first minutes (its opening, converted
 * first and served as a file of their own, 0:12 here) play already; the rest of the chapter and
 * of the book are striped, not playable.
 */
const firstMinutesOnly = {
  audioMetadata: audioMetadataHandler({
    metadata: convertingMetadataFixture({ ready: 0, openingSeconds: SAMPLE_OPENING_SECONDS }),
  }),
  audioStream: openingStreamHandler(),
};

async function firstMinutesReady(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await waitFor(() => expect(canvas.getByRole('button', { name: 'Play' })).toBeEnabled(), { timeout: 5000 });
  await expect(canvas.getByRole('timer', { name: 'Total time' })).toHaveTextContent('0:12');
  return canvas;
}

/** A book converting its first chapter: the chapter's first minutes play, the rest is not ready yet. */
export const ConvertingFirstMinutes: Story = {
  name: 'Converting, first minutes playing',
  parameters: { msw: { handlers: firstMinutesOnly } },
  play: async ({ canvasElement }) => {
    const canvas = await firstMinutesReady(canvasElement);
    const chapters = within(canvas.getByRole('region', { name: 'Chapters' }));
    const first = chapters.getByRole('button', { name: /The Visitor/ });
    await expect(first).toBeEnabled();
    await expect(first).toHaveAccessibleName(/^1\. The Visitor\s*First minutes ready · 12s$/);
    await expect(
      chapters.getByText(
        'The Visitor is still converting: its first minutes play now, the rest follows as soon as it is ready.',
      ),
    ).toBeVisible();
    for (const name of [/The Night Watch/, /The Confession/]) {
      await expect(chapters.getByRole('button', { name })).toBeDisabled();
    }
    // The seek bar spans the whole book as estimated: past the first minutes it is striped.
    const rest = canvas.getByTestId('not-converted');
    await expect(rest).toHaveAttribute('title', 'Not converted yet');
    await expect(rest.style.left).toBe('20%');
    await expect(rest.style.width).toBe('80%');
    // Seeking goes no further than what can be played.
    const slider = seekBar(canvas);
    await expect(slider).toHaveAttribute('aria-valuemax', '12');
    slider.focus();
    await userEvent.keyboard('{End}');
    await expect(slider).toHaveAttribute('aria-valuetext', '0:12 of 0:12');
    await userEvent.keyboard('{Home}');
    await expect(elapsed(canvas)).toHaveTextContent('0:00');
    await expect(canvas.getByRole('button', { name: 'Next chapter' })).toBeDisabled();
    // And they play.
    muteForStory(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Play' }));
    await expect(await canvas.findByRole('button', { name: 'Pause' })).toBeVisible();
    await waitFor(() => expect(elapsed(canvas)).toHaveTextContent('0:01'), { timeout: 5000 });
  },
};

/** The first minutes have played and the rest of chapter 1 still converts: paused, it says so. */
export const ConvertingFirstMinutesPlayed: Story = {
  name: 'Converting, first minutes played: waits for the rest of chapter 1',
  parameters: { msw: { handlers: firstMinutesOnly } },
  play: async ({ canvasElement }) => {
    const canvas = await firstMinutesReady(canvasElement);
    // From the opening's last moment: its file ends.
    const slider = seekBar(canvas);
    slider.focus();
    await userEvent.keyboard('{End}');
    muteForStory(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Play' }));
    await expect(
      await canvas.findByText(
        'The Visitor is still converting: it plays on as soon as it is ready.',
        {},
        { timeout: 5000 },
      ),
    ).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Play' })).toBeEnabled();
    await expect(elapsed(canvas)).toHaveTextContent('0:12');
  },
};

/** The keyboard shortcuts, listed and working. */
export const KeyboardShortcuts: Story = {
  play: async ({ canvasElement, step }) => {
    const canvas = await ready(canvasElement);
    await step('Space plays and pauses from anywhere on the page', async () => {
      (document.activeElement as HTMLElement | null)?.blur();
      await userEvent.keyboard(' ');
      await expect(await canvas.findByRole('button', { name: 'Pause' })).toBeVisible();
      await userEvent.keyboard('k');
      await expect(await canvas.findByRole('button', { name: 'Play' })).toBeVisible();
    });
    await step('L, J and the arrows skip; Shift+N goes to the next chapter', async () => {
      await userEvent.keyboard('ll');
      await expect(elapsed(canvas)).toHaveTextContent('0:20');
      await userEvent.keyboard('{ArrowLeft}');
      await expect(elapsed(canvas)).toHaveTextContent('0:10');
      await userEvent.keyboard('{Shift>}N{/Shift}');
      await expect(elapsed(canvas)).toHaveTextContent('0:20');
    });
    await step('↑/↓ change the volume while the player has the focus', async () => {
      canvas.getByRole('region', { name: 'Player: The Tell-Tale Heart' }).focus();
      await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}');
      await expect(canvas.getByRole('slider', { name: 'Volume' })).toHaveAttribute('aria-valuetext', '90%');
    });
    await userEvent.click(canvas.getByText('Keyboard shortcuts'));
    await expect(canvas.getByText('Space or K')).toBeVisible();
    await expect(canvas.getByText('Previous / next chapter')).toBeVisible();
  },
};
