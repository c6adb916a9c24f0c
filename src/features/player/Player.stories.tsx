import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect } from 'react';
import { expect, fireEvent, userEvent, waitFor, within } from 'storybook/test';
import { bookJobId } from '../../mocks/audio';
import { ChapterList } from './ChapterList';
import { Player } from './Player';
import { PlayerAudio } from './PlayerAudio';
import { loadJob, resetPlayer, state } from './store';

/** The player with the sample book loaded, as the book page shows it. */
function LoadedPlayer() {
  useEffect(() => {
    void loadJob(bookJobId);
  }, []);
  return (
    <div style={{ maxWidth: 640, padding: 16, display: 'grid', gap: 16 }}>
      <Player title="Player: The Tell-Tale Heart" />
      <ChapterList />
      <PlayerAudio />
    </div>
  );
}

const meta = {
  title: 'Features/Player',
  component: LoadedPlayer,
  parameters: { auth: { user: {} } },
  beforeEach: () => {
    resetPlayer();
    localStorage.removeItem(`lectio.playbackRate.${bookJobId}`);
  },
} satisfies Meta<typeof LoadedPlayer>;

export default meta;
type Story = StoryObj<typeof meta>;

type Canvas = ReturnType<typeof within>;
const elapsed = (canvas: Canvas) => canvas.getByRole('timer', { name: 'Elapsed time' });
async function ready(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await waitFor(() => expect(canvas.getByRole('button', { name: 'Play' })).toBeEnabled(), { timeout: 5000 });
  await expect(canvas.getByRole('timer', { name: 'Total time' })).toHaveTextContent('1:00');
  return canvas;
}

export const PlayPause: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await ready(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Play' }));
    await userEvent.click(await canvas.findByRole('button', { name: 'Pause' }));
    await expect(await canvas.findByRole('button', { name: 'Play' })).toBeVisible();
    await expect(state.isPlaying).toBe(false);
  },
};

export const Seek: Story = {
  play: async ({ canvasElement, step }) => {
    const canvas = await ready(canvasElement);
    const slider = canvas.getByRole('slider', { name: 'Seek' });
    await step('a keyboard or click change seeks at once', async () => {
      fireEvent.input(slider, { target: { value: '30' } });
      // The store notifies React on the next tick.
      await waitFor(() => expect(elapsed(canvas)).toHaveTextContent('0:30'));
      await expect(state.currentPosition).toBe(30);
      await expect(slider).toHaveAttribute('aria-valuetext', '0:30 of 1:00');
    });
    await step('dragging shows the drag position and seeks on release', async () => {
      fireEvent.pointerDown(slider);
      fireEvent.input(slider, { target: { value: '45' } });
      await waitFor(() => expect(elapsed(canvas)).toHaveTextContent('0:45'));
      await expect(state.currentPosition).toBe(30);
      fireEvent.pointerUp(slider);
      await waitFor(() => expect(state.currentPosition).toBe(45));
    });
  },
};

export const Skip: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await ready(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Forward 10s' }));
    await expect(elapsed(canvas)).toHaveTextContent('0:10');
    await userEvent.click(canvas.getByRole('button', { name: 'Forward 10s' }));
    await expect(elapsed(canvas)).toHaveTextContent('0:20');
    await userEvent.click(canvas.getByRole('button', { name: 'Back 10s' }));
    await expect(elapsed(canvas)).toHaveTextContent('0:10');
    await userEvent.click(canvas.getByRole('button', { name: 'Back 10s' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Back 10s' }));
    // Clamped at the start.
    await expect(elapsed(canvas)).toHaveTextContent('0:00');
  },
};

export const Volume: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await ready(canvasElement);
    const volume = canvas.getByRole('slider', { name: /Volume/ });
    await expect(volume).toHaveAccessibleName('Volume 100%');
    await expect(volume).toHaveAttribute('step', '0.1');
    fireEvent.input(volume, { target: { value: '0.7' } });
    await waitFor(() => expect(volume).toHaveAccessibleName('Volume 70%'));
    await expect(volume).toHaveAttribute('aria-valuetext', '70%');
    await expect(canvas.getByText('70%')).toBeVisible();
    await expect(state.volume).toBe(0.7);
  },
};

export const Speed: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await ready(canvasElement);
    const speed = canvas.getByRole('combobox', { name: 'Playback speed' });
    await expect(within(speed).getAllByRole('option').map((option) => option.textContent)).toEqual([
      '0.75x',
      '1x',
      '1.25x',
      '1.5x',
      '1.75x',
      '2x',
    ]);
    await userEvent.selectOptions(speed, '1.5');
    await expect(speed).toHaveValue('1.5');
    await expect(localStorage.getItem(`lectio.playbackRate.${bookJobId}`)).toBe('1.5');
    await expect((canvasElement.querySelector('audio') as HTMLAudioElement).playbackRate).toBe(1.5);
  },
};

export const KeyboardShortcuts: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await ready(canvasElement);
    const region = canvas.getByRole('region', { name: 'Player: The Tell-Tale Heart' });
    region.focus();
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    await expect(elapsed(canvas)).toHaveTextContent('0:20');
    await userEvent.keyboard('{ArrowLeft}');
    await expect(elapsed(canvas)).toHaveTextContent('0:10');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    await expect(canvas.getByRole('slider', { name: /Volume/ })).toHaveAccessibleName('Volume 80%');
    await userEvent.keyboard('{ArrowUp}');
    await expect(canvas.getByRole('slider', { name: /Volume/ })).toHaveAccessibleName('Volume 90%');
    await userEvent.keyboard(' ');
    await expect(await canvas.findByRole('button', { name: 'Pause' })).toBeVisible();
    await userEvent.keyboard(' ');
    await expect(await canvas.findByRole('button', { name: 'Play' })).toBeVisible();
  },
};
