import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { resetPlayer } from '../features/player';
import { flowBackend } from '../mocks/flow';
import { AppRoutes } from './routes';

/**
 * Whole-app flows: the routed, signed-in SPA over a small stateful fake backend (src/mocks/flow.ts),
 * walked end to end the way a reader would.
 */
const backend = flowBackend();

/**
 * The routed app over a small stateful fake backend, walked end to end in one story (the Flows section walks
 * it step by step).
 */
const meta = {
  title: 'App/Flows',
  component: AppRoutes,
  parameters: {
    auth: { user: {} },
    route: '/upload',
    msw: { handlers: backend.handlers },
  },
  beforeEach: () => {
    backend.reset();
    resetPlayer();
    for (const key of Object.keys(localStorage))
      if (key.startsWith('lectio.playbackRate.')) localStorage.removeItem(key);
  },
} satisfies Meta<typeof AppRoutes>;

export default meta;
type Story = StoryObj<typeof meta>;

const story =
  'Once upon a midnight dreary, while I pondered, weak and weary, over many a quaint and curious volume of forgotten lore.';

const long = { timeout: 15000 };

/** Upload, follow the job to the end, then listen: one story, the whole path. */
export const UploadToListening: Story = {
  name: 'Upload a story, watch the job finish, listen to it',
  play: async ({ canvasElement, step }) => {
    const canvas = within(canvasElement);

    await step('fill the upload form and create the audiobook', async () => {
      await userEvent.type(await canvas.findByLabelText('Title', {}, long), 'The Raven');
      canvas.getByLabelText('Story Text').focus();
      await userEvent.paste(story);
      await userEvent.click(canvas.getByRole('button', { name: 'Create Audiobook' }));
    });

    await step('the job page shows the job under way, the top bar counts it', async () => {
      await expect(await canvas.findByRole('heading', { level: 1, name: 'The Raven' }, long)).toBeVisible();
      await expect(backend.jobs().map((job) => job.title)).toEqual(['The Raven']);
      await expect(await canvas.findByRole('link', { name: 'Jobs (1 running)' }, long)).toBeVisible();
      await expect(await canvas.findByRole('progressbar', { name: 'Synthesize progress' }, long)).toBeVisible();
    });

    await step('the next poll completes every step and offers the book', async () => {
      const play = await canvas.findByRole('button', { name: 'Play Audiobook' }, long);
      const steps = within(canvas.getByRole('list', { name: 'Steps' })).getAllByRole('listitem');
      await expect(steps).toHaveLength(5);
      for (const item of steps) await expect(item).toHaveTextContent('completed');
      await expect(canvas.queryByRole('progressbar', { name: 'Synthesize progress' })).toBeNull();
      await userEvent.click(play);
    });

    await step('Play Audiobook plays: the book page opens with the audio playing, then pauses', async () => {
      await expect(await canvas.findByRole('region', { name: 'Player: The Raven' }, long)).toBeVisible();
      await expect(await canvas.findByRole('button', { name: 'Pause' }, long)).toBeVisible();
      const audio = canvas.getByTestId('player-audio') as HTMLAudioElement;
      await waitFor(() => expect(audio.currentTime).toBeGreaterThan(0), long);
      await waitFor(
        () => expect(canvas.getByRole('timer', { name: 'Elapsed time' })).toHaveTextContent(/^0:(0[1-9]|[1-5]\d)$/),
        long,
      );
      await userEvent.click(canvas.getByRole('button', { name: 'Pause' }));
      await expect(await canvas.findByRole('button', { name: 'Play' })).toBeVisible();
      await expect(audio.paused).toBe(true);
    });
  },
};
