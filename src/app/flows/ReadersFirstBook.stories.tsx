import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { resetPlayer } from '../../features/player';
import { configureVoiceAssistant, resetVoiceAssistant } from '../../features/voice-assistant';
import { SAMPLE_AUDIO_SECONDS, sampleAudioResult } from '../../mocks/audio';
import { flowBackend, type FlowBackend } from '../../mocks/flow';
import { meHandler } from '../../mocks/handlers';
import { jobAtStatus, jobUuid, stepsFixture } from '../../mocks/jobs';
import { FakeAudioIO, FakeTransport } from '../../testing/voice-fakes';
import { AppRoutes } from '../routes';

const TITLE = 'The Tell-Tale Heart';
const TEXT =
  'True! nervous, very nervous I had been and am; but why will you say that I am mad? The disease had sharpened my senses, not destroyed them, not dulled them.';
/** The id the fake backend gives the first book it creates, and the book the later steps start from. */
const bookId = jobUuid(701);

const created = '2025-02-12T09:58:00Z';
const queuedBook = jobAtStatus('PENDING', {
  id: bookId,
  title: TITLE,
  created_at: created,
  updated_at: created,
  config: { source: 'content' },
});
const finishedBook = jobAtStatus('COMPLETED', {
  id: bookId,
  title: TITLE,
  created_at: created,
  updated_at: created,
  config: queuedBook.config,
  started_at: created,
  completed_at: '2025-02-12T09:59:00Z',
  duration: SAMPLE_AUDIO_SECONDS,
  result_data: sampleAudioResult(),
  output_file_key: `audio/${bookId}.mp3`,
  steps: stepsFixture('completed', { seed: 700 }),
});

/** Step 1 and 2 start with no books; 3 with the book just added; 4 and 5 with it converted. */
const backends = { empty: flowBackend(), added: flowBackend([queuedBook]), converted: flowBackend([finishedBook]) };
const EMAIL = 'new.reader@example.com';
const signedIn = { user: { email: EMAIL } };
/** A backend's endpoints, with the reader who signed up in step 1 as the account. */
const api = (backend: FlowBackend) => ({
  handlers: { ...backend.handlers, me: meHandler({ user: { email: EMAIL } }) },
});

const long = { timeout: 20_000 };

/**
 * A reader's path through the whole app, one step per story: sign up, add a book, watch it
 * convert, listen, ask X-ray about it. Each step starts where the one before it ends, on the
 * routed app over a small stateful fake backend (src/mocks/flow.ts), so a reviewer steps through
 * the sidebar with no server. Each story's play function does what the reader does in that step.
 */
const meta = {
  title: 'Flows/A reader’s first book',
  component: AppRoutes,
  tags: ['navigates'],
  parameters: { msw: api(backends.empty) },
  beforeEach: () => {
    for (const backend of Object.values(backends)) backend.reset();
    resetPlayer();
    resetVoiceAssistant();
    configureVoiceAssistant({
      createTransport: () =>
        new FakeTransport({
          answerDelayMs: 150,
          answer: () =>
            'The narrator: he tells the story himself and insists, from the first line, that he is not mad.',
        }),
      createAudio: () => new FakeAudioIO(null),
      isSecureContext: () => true,
    });
    return () => {
      resetPlayer();
      resetVoiceAssistant();
      configureVoiceAssistant(null);
    };
  },
} satisfies Meta<typeof AppRoutes>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Signs up on the register page; ends on the Dashboard with no books yet. */
export const SignUp: Story = {
  name: '1. Sign up',
  parameters: { route: '/register' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Email', {}, long), EMAIL);
    await userEvent.type(canvas.getByLabelText('Password'), 'correct-horse-battery');
    await userEvent.type(canvas.getByLabelText('Confirm password'), 'correct-horse-battery');
    await userEvent.click(canvas.getByRole('checkbox'));
    await userEvent.click(canvas.getByRole('button', { name: 'Create account' }));
    await expect(await canvas.findByRole('heading', { level: 1, name: 'Dashboard' }, long)).toBeVisible();
    await expect(localStorage.getItem('access_token')).toBe('test-access-token');
  },
};

/** Pastes a story on the upload page and creates the audiobook; ends on its conversion page. */
export const AddABook: Story = {
  name: '2. Add a book',
  parameters: { auth: signedIn, route: '/upload' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Title', {}, long), TITLE);
    canvas.getByLabelText('Story Text').focus();
    await userEvent.paste(TEXT);
    await userEvent.click(canvas.getByRole('button', { name: 'Create Audiobook' }));
    await expect(await canvas.findByRole('heading', { level: 1, name: TITLE }, long)).toBeVisible();
    await expect(backends.empty.jobs().map((job) => job.title)).toEqual([TITLE]);
  },
};

/** The conversion page polls: the steps run, then all five are done and the book can be played. */
export const WatchItConvert: Story = {
  name: '3. Watch it convert',
  parameters: { auth: signedIn, route: `/jobs/${bookId}`, msw: api(backends.added) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { level: 1, name: TITLE }, long)).toBeVisible();
    const play = await canvas.findByRole('button', { name: 'Play Audiobook' }, long);
    const steps = within(canvas.getByRole('list', { name: 'Steps' })).getAllByRole('listitem');
    await expect(steps).toHaveLength(5);
    for (const item of steps) await expect(item).toHaveTextContent('completed');
    await expect(play).toBeEnabled();
  },
};

/** The book page plays the audio, then the reader pauses; X-ray is one link away. */
export const Listen: Story = {
  name: '4. Listen',
  parameters: { auth: signedIn, route: `/library/${bookId}`, msw: api(backends.converted) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('region', { name: `Player: ${TITLE}` }, long)).toBeVisible();
    const playButton = canvas.getByRole('button', { name: 'Play' });
    await waitFor(() => expect(playButton).toBeEnabled(), long);
    await userEvent.click(playButton);
    const audio = canvas.getByTestId('player-audio') as HTMLAudioElement;
    await waitFor(() => expect(audio.currentTime).toBeGreaterThan(0), long);
    await waitFor(
      () => expect(canvas.getByRole('timer', { name: 'Elapsed time' })).toHaveTextContent(/^0:(0[1-9]|[1-5]\d)$/),
      long,
    );
    await userEvent.click(await canvas.findByRole('button', { name: 'Pause' }));
    await expect(await canvas.findByRole('button', { name: 'Play' })).toBeVisible();
    await expect(audio.paused).toBe(true);
    await expect(canvas.getByRole('link', { name: 'Ask about this book' })).toHaveAttribute(
      'href',
      expect.stringContaining(`/voice-assistant?mode=xray&jobId=${bookId}`),
    );
  },
};

/** X-ray about the book, bounded by where the reader stopped: a typed question and its answer. */
export const AskXray: Story = {
  name: '5. Ask X-ray',
  parameters: {
    auth: signedIn,
    route: `/voice-assistant?mode=xray&jobId=${bookId}&position=5`,
    msw: api(backends.converted),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('radio', { name: 'X-ray' }, long)).toBeChecked();
    await expect(await canvas.findByRole('heading', { name: TITLE }, long)).toBeVisible();
    await expect(await canvas.findByText(/X-ray answers only from what you have heard/, {}, long)).toBeVisible();
    await userEvent.type(canvas.getByLabelText('Type a question'), 'Who is the narrator?{Enter}');
    const conversation = canvas.getByRole('list', { name: 'Conversation' });
    await waitFor(
      () => expect(conversation).toHaveTextContent('insists, from the first line, that he is not mad'),
      long,
    );
  },
};
