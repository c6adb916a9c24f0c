import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { loadJob, playerState, resetPlayer } from '../../features/player';
import { configureVoiceAssistant, resetVoiceAssistant } from '../../features/voice-assistant';
import { bookJobId } from '../../mocks/audio';
import { errorBodyFixture } from '../../mocks/fixtures';
import { jobsListHandler, libraryShelfFixture } from '../../mocks/library';
import {
  VOICE_FUNCTIONS,
  VOICE_WS_URL,
  voiceConversationHandler,
  voiceStartHandler,
  voiceStatusHandler,
  voiceTurnsFixture,
} from '../../mocks/voice';
import {
  FakeAudioIO,
  fakeRecognition,
  FakeTransport,
  type FakeRecognizer,
  type FakeTransportOptions,
} from '../../testing/voice-fakes';
import { LIBRARY_EXAMPLES, VoiceAssistant, XRAY_EXAMPLES } from './VoiceAssistant';

/** The speech recognizers the stories' browser made, newest last (a story scripts what they hear). */
const recognizers: FakeRecognizer[] = [];

/**
 * The voice assistant: talk or type about a book. Tutor holds a Socratic dialogue; X-ray answers who, what
 * and where without spoiling past where the reader is.
 *
 * Story parameters: msw.handlers for the REST calls (voiceStatus, voiceStart, voiceStop,
 * audioMetadata) and `voice: { transport, micError, recognition }` for the injected fake
 * transport (FakeTransportOptions), a microphone that fails to open, and whether the browser
 * offers speech recognition ('browser', scripted through `recognizers`, or 'none').
 */
const meta = {
  title: 'Screens/VoiceAssistant',
  component: VoiceAssistant,
  parameters: { auth: { user: {} }, route: '/voice-assistant' },
  beforeEach: ({ parameters }) => {
    const voice = (parameters.voice ?? {}) as {
      transport?: FakeTransportOptions;
      micError?: { name: string; message: string };
      recognition?: 'browser' | 'none';
    };
    resetVoiceAssistant();
    recognizers.length = 0;
    resetPlayer();
    const micError = voice.micError
      ? Object.assign(new Error(voice.micError.message), { name: voice.micError.name })
      : null;
    configureVoiceAssistant({
      createTransport: () => new FakeTransport({ answerDelayMs: 150, ...voice.transport }),
      createAudio: () => new FakeAudioIO(micError),
      isSecureContext: () => true,
      speechRecognition: () => (voice.recognition === 'browser' ? fakeRecognition(recognizers) : null),
    });
    return () => {
      resetVoiceAssistant();
      resetPlayer();
      configureVoiceAssistant(null);
    };
  },
} satisfies Meta<typeof VoiceAssistant>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The sample book (three 20 s chapters) at 0:25: chapter 2, 0:05 into it. */
const xrayRoute = `/voice-assistant?mode=xray&jobId=${bookJobId}&position=25`;
const tutorRoute = `/voice-assistant?mode=tutor&jobId=${bookJobId}&position=25`;

type Canvas = ReturnType<typeof within>;

async function startTalking(canvas: Canvas) {
  await userEvent.click(await canvas.findByRole('button', { name: 'Start talking' }));
}

async function typeQuestion(canvas: Canvas, question: string) {
  await userEvent.type(canvas.getByLabelText('Type a question'), `${question}{Enter}`);
}

const transcriptOf = (canvas: Canvas) => canvas.getByRole('list', { name: 'Conversation' });
/** The talk button's status line (role=status, next to the button, and the button's description). */
async function expectTalkState(canvas: Canvas, label: string) {
  await waitFor(() => expect(canvas.getByRole('button', { description: label })).toBeVisible());
}

/** The mode in use is the one checked, and drawn highlighted (the other segments are not). */
async function expectMode(canvas: Canvas, name: 'Library' | 'Tutor' | 'X-ray') {
  const radios = within(canvas.getByRole('radiogroup', { name: 'Mode' })).getAllByRole('radio');
  const backgroundOf = (radio: HTMLElement) => getComputedStyle(radio.nextElementSibling!).backgroundColor;
  const chosen = canvas.getByRole('radio', { name });
  await expect(chosen).toBeChecked();
  for (const radio of radios.filter((r) => r !== chosen)) {
    await expect(radio).not.toBeChecked();
    await expect(backgroundOf(radio)).not.toBe(backgroundOf(chosen));
  }
}

/** Send stays inside the question box and the box inside its card. */
async function expectSendInside(canvas: Canvas) {
  const send = canvas.getByRole('button', { name: 'Send' });
  const form = send.closest('form')!;
  const card = form.parentElement!;
  await expect(send.getBoundingClientRect().right).toBeLessThanOrEqual(form.getBoundingClientRect().right + 0.5);
  await expect(form.getBoundingClientRect().right).toBeLessThanOrEqual(card.getBoundingClientRect().right + 0.5);
  await expect(card.scrollWidth).toBeLessThanOrEqual(card.clientWidth);
}

// --- the talk button's states ----------------------------------------------------------------------

/** The reader opens the assistant: Ready, with examples of what to ask about the library. */
export const Idle: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { level: 1, name: 'Voice Assistant' })).toBeVisible();
    await expect(canvas.getByRole('radiogroup', { name: 'Mode' })).toBeVisible();
    // Without a book or a mode, the assistant talks about the library, and the switch says so.
    await expectMode(canvas, 'Library');
    await expect(canvas.getByRole('heading', { name: 'Your library' })).toBeVisible();
    await expect(canvas.getByRole('combobox', { name: 'Book' })).toHaveValue('');
    await expect(await canvas.findByRole('button', { name: 'Start talking' })).toBeEnabled();
    await expectTalkState(canvas, 'Ready');
    for (const example of LIBRARY_EXAMPLES)
      await expect(within(transcriptOf(canvas)).getByText(`“${example}”`)).toBeVisible();
    // Typing is always there, even before a conversation runs.
    await expect(canvas.getByLabelText('Type a question')).toBeEnabled();
    // Nothing of the service's workings: no Details, no start or stop.
    await expect(canvas.queryByText('Details')).toBeNull();
    await expect(canvas.queryByRole('button', { name: /the service/ })).toBeNull();
  },
};

/** Start talking pressed: connecting to the voice service. */
export const Connecting: Story = {
  parameters: { voice: { transport: { connect: 'never' } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await startTalking(canvas);
    await expect(await canvas.findByRole('button', { name: 'Connecting…' })).toBeDisabled();
    await expectTalkState(canvas, 'Connecting');
  },
};

/** Connected: the assistant listens. */
export const Listening: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await startTalking(canvas);
    await expect(await canvas.findByRole('button', { name: 'End conversation' })).toBeEnabled();
    await expectTalkState(canvas, 'Listening');
    await expect(canvas.getByRole('meter', { name: 'Your microphone level' })).toBeVisible();
  },
};

/** A question asked: the assistant is working on the answer. */
export const Thinking: Story = {
  parameters: { voice: { transport: { answerDelayMs: null } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await startTalking(canvas);
    await canvas.findByRole('button', { name: 'End conversation' });
    await typeQuestion(canvas, 'What books are in my library?');
    await expectTalkState(canvas, 'Thinking');
    await expectMode(canvas, 'Library');
    await expect(within(transcriptOf(canvas)).getByText('What books are in my library?')).toBeVisible();
    await expect(canvas.getByLabelText('Type a question')).toHaveValue('');
  },
};

/** The assistant answers aloud, the text streaming in. */
export const Speaking: Story = {
  parameters: {
    voice: {
      transport: { speakMs: null, answer: () => 'You have three books. You are halfway through The Tell-Tale Heart.' },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await startTalking(canvas);
    await canvas.findByRole('button', { name: 'End conversation' });
    await typeQuestion(canvas, 'What books are in my library?');
    await expectTalkState(canvas, 'Speaking');
    await waitFor(() => expect(transcriptOf(canvas)).toHaveTextContent('You have three books.'));
    const turns = within(transcriptOf(canvas)).getAllByRole('listitem');
    await expect(within(turns[0]!).getByText('You')).toBeVisible();
    await expect(within(turns[1]!).getByText('Assistant')).toBeVisible();
    await expect(turns[1]!.querySelector('time')).not.toBeNull();
  },
};

/** The microphone is refused: the reader can still type. */
export const MicrophoneOff: Story = {
  name: 'Microphone off (permission denied)',
  parameters: { voice: { micError: { name: 'NotAllowedError', message: 'Permission denied' } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await startTalking(canvas);
    await canvas.findByRole('button', { name: 'End conversation' });
    await expectTalkState(canvas, 'Microphone off');
    await expect(canvas.getByText(/permission was denied.*You can still type your questions/)).toBeVisible();
  },
};

/** A server without a speech service (no OPENAI_API_KEY). */
const noSpeechService = {
  voiceStatus: voiceStatusHandler({ speech_to_text: false }),
  voiceStart: voiceStartHandler({ speech_to_text: false }),
};

/** Listening through the browser (no speech service on the server). */
export const BrowserListens: Story = {
  name: 'Listening through the browser (no speech service on the server)',
  parameters: {
    msw: { handlers: noSpeechService },
    voice: { recognition: 'browser', transport: { answer: () => 'The old man lives with the narrator.' } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // Said before the reader speaks: the browser's service is the one that hears them.
    await expect(
      await canvas.findByText(
        'Your browser’s speech service hears you and turns what you say into text for the assistant.',
      ),
    ).toBeVisible();
    await startTalking(canvas);
    await canvas.findByRole('button', { name: 'End conversation' });
    await expectTalkState(canvas, 'Listening');
    // What the browser heard is asked, and answered.
    await waitFor(() => expect(recognizers.at(-1)?.started).toBe(true));
    recognizers.at(-1)!.say('Who is the old man?');
    await waitFor(() => expect(transcriptOf(canvas)).toHaveTextContent('The old man lives with the narrator.'));
    const turns = within(transcriptOf(canvas)).getAllByRole('listitem');
    await expect(turns[0]!).toHaveTextContent('Who is the old man?');
    await expectTalkState(canvas, 'Listening');
  },
};

/** Speaking not available (no speech service, a browser without speech recognition): typing. */
export const NobodyHears: Story = {
  name: 'Speaking not available (no speech service, a browser without speech recognition): typing',
  parameters: { msw: { handlers: noSpeechService }, voice: { recognition: 'none' } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(
      await canvas.findByText(/Speaking is not available here: .* Type your questions below\./),
    ).toBeVisible();
    await startTalking(canvas);
    await canvas.findByRole('button', { name: 'End conversation' });
    await expectTalkState(canvas, 'Microphone off');
    await expect(
      canvas.getByText(/Speaking is not available here: .* You can still type your questions\./),
    ).toBeVisible();
    await expect(canvas.getByLabelText('Type a question')).toBeEnabled();
  },
};

// --- a book, the mode switch, the server's messages ------------------------------------------------

/** X-ray opened from a book page: bounded by where the reader is, answering a typed question. */
export const XrayFromBook: Story = {
  name: 'X-ray from the book page',
  parameters: {
    route: xrayRoute,
    voice: {
      transport: {
        answer: () => 'The narrator first appears in chapter 1, about 10 seconds in: "True! nervous, very nervous".',
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('radio', { name: 'X-ray' })).toBeChecked();
    await expect(await canvas.findByRole('heading', { name: 'The Tell-Tale Heart' })).toBeVisible();
    await expect(
      await canvas.findByText('You are at chapter 2, 0:05 — X-ray answers only from what you have heard.'),
    ).toBeVisible();
    for (const example of XRAY_EXAMPLES)
      await expect(within(transcriptOf(canvas)).getByText(`“${example}”`)).toBeVisible();
    // Ask by typing, without pressing Start talking first: the conversation starts by itself.
    await typeQuestion(canvas, 'Who is the narrator?');
    await waitFor(() => expect(transcriptOf(canvas)).toHaveTextContent('The narrator first appears in chapter 1'));
    await expect(within(transcriptOf(canvas)).getAllByText('X-ray').length).toBeGreaterThan(0);
    await expectTalkState(canvas, 'Listening');
  },
};

/** The book plays on: X-ray’s bound follows the player. */
export const XrayFollowsThePlayer: Story = {
  name: 'X-ray follows the player',
  parameters: { route: xrayRoute },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText(/^You are at chapter 2, 0:05/)).toBeVisible();
    // The book plays on in the player (it keeps playing across pages): the page follows it live,
    // not the position it was opened at.
    await loadJob(bookJobId);
    playerState.currentPosition = 47;
    await expect(
      await canvas.findByText('You are at chapter 3, 0:07 — X-ray answers only from what you have heard.'),
    ).toBeVisible();
  },
};

/** The reader chooses which book to talk about. */
export const ChooseBook: Story = {
  name: 'Choose the book',
  parameters: {
    route: '/voice-assistant?mode=xray',
    msw: { handlers: { jobs: jobsListHandler(libraryShelfFixture()) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const book = canvas.getByRole('combobox', { name: 'Book' });
    await waitFor(() => expect(within(book).getByRole('option', { name: 'The Raven' })).toBeInTheDocument());
    await userEvent.selectOptions(book, 'The Raven');
    await expect(await canvas.findByRole('heading', { name: 'The Raven' })).toBeVisible();
    await expectMode(canvas, 'X-ray');
    await expect(await canvas.findByText(/X-ray answers only from what you have heard/)).toBeVisible();
  },
};

/** Switching from Tutor to X-ray. */
export const SwitchTutorToXray: Story = {
  name: 'Mode switch: Tutor to X-ray',
  parameters: {
    route: tutorRoute,
    msw: { handlers: { voiceStatus: voiceStatusHandler({ status: 'running', mode: 'tutor', job_id: bookJobId }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('radio', { name: 'Tutor' })).toBeChecked();
    await startTalking(canvas);
    await expect(await canvas.findByText('Talking in Tutor mode')).toBeVisible();
    await userEvent.click(canvas.getByRole('radio', { name: 'X-ray' }));
    await expectMode(canvas, 'X-ray');
    await expect(await canvas.findByText(/X-ray answers only from what you have heard/)).toBeVisible();
    // The session switches and the conversation carries on in the new mode.
    await expect(await canvas.findByText('Talking in X-ray mode')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'End conversation' })).toBeEnabled();
    await expectTalkState(canvas, 'Listening');
  },
};

/** The model did not answer: the offline answers take over, and the page says so. */
export const AnsweringOffline: Story = {
  name: 'Answering offline (the model did not answer)',
  parameters: {
    route: xrayRoute,
    voice: {
      transport: {
        answer: () => 'The story takes place in an old house, at night.',
        serverMessages: () => [
          {
            t: 'assistant-fallback',
            d: {
              reason: 'timeout',
              message: 'The language model did not answer (timeout); this answer comes from the offline assistant.',
            },
          },
        ],
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await startTalking(canvas);
    await canvas.findByRole('button', { name: 'End conversation' });
    await typeQuestion(canvas, 'Where does the story take place?');
    const notice = await canvas.findByText('Answering offline.');
    await expect(notice.closest('[role="status"]')).toHaveTextContent('this answer comes from the offline assistant');
    // The turn is not lost: the answer is there, marked as offline.
    await waitFor(() =>
      expect(transcriptOf(canvas)).toHaveTextContent('The story takes place in an old house, at night.'),
    );
    await expect(within(transcriptOf(canvas)).getByText('Answered offline')).toBeVisible();
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/** Asking to continue a book opens it. */
export const OpenBookAction: Story = {
  name: 'Open book ("continue X")',
  parameters: {
    voice: {
      transport: {
        answer: () => 'Continuing The Tell-Tale Heart from 0:25.',
        serverMessages: () => [
          { t: 'open-book', d: { job_id: bookJobId, title: 'The Tell-Tale Heart', position_seconds: 25 } },
        ],
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await startTalking(canvas);
    await canvas.findByRole('button', { name: 'End conversation' });
    await typeQuestion(canvas, 'Continue The Tell-Tale Heart');
    const open = await canvas.findByRole('link', { name: 'Open The Tell-Tale Heart' });
    await expect(open).toHaveAttribute('href', `/library/${bookJobId}`);
    await expect(canvas.getByText('The Tell-Tale Heart is ready in the player at 0:25.')).toBeVisible();
    // The book is loaded in the player.
    await waitFor(() => expect(playerState.currentJobId).toBe(bookJobId));
  },
};

/** The conversation fails: the error and a way to start again. */
export const ErrorState: Story = {
  name: 'Error',
  parameters: { voice: { transport: { connect: { fail: 'websocket connection timed out' } } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await startTalking(canvas);
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      'Connection failed: the voice assistant did not answer in time. Try again.',
    );
    await expect(canvas.getByRole('button', { name: 'Start talking' })).toBeEnabled();
    await expect(canvas.getByLabelText('Type a question')).toBeEnabled();
  },
};

/** The voice service is not available on this server: the page says so. */
export const ServiceUnavailable: Story = {
  parameters: {
    msw: {
      handlers: {
        voiceStart: voiceStartHandler({}, { status: 503, body: errorBodyFixture('Voice service unavailable') }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await startTalking(canvas);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Voice service unavailable');
    await expect(canvas.getByRole('button', { name: 'Start talking' })).toBeEnabled();
  },
};

/** The connection cannot be set up: the server’s reason. */
export const ConnectApiError: Story = {
  name: 'Connect error (the socket refuses: no running session)',
  parameters: {
    voice: { transport: { connect: { fail: 'Failed to connect to websocket: Voice assistant is not running' } } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await startTalking(canvas);
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      'Connection failed: Voice assistant is not running',
    );
  },
};

// --- the kept conversation -------------------------------------------------------------------------

/** Twelve kept turns: more than the conversation's box shows at once. */
function longConversation() {
  return Array.from({ length: 12 }, (_, i) => ({
    id: i + 1,
    mode: 'xray' as const,
    speaker: i % 2 === 0 ? ('reader' as const) : ('assistant' as const),
    text:
      i % 2 === 0
        ? `Question ${i / 2 + 1}: who is the old man?`
        : `Answer ${(i + 1) / 2}: he lives next door and has a pale blue eye, the narrator says, again and again.`,
    created_at: `2026-03-01T09:${String(10 + i).padStart(2, '0')}:00Z`,
    evidence: null,
  }));
}

/** A reader comes back to a book: the kept conversation, X-ray and Tutor turns, with the evidence heard. */
export const ConversationHistory: Story = {
  name: 'Conversation history (kept across modes and reloads)',
  parameters: {
    route: xrayRoute,
    msw: { handlers: { voiceConversation: voiceConversationHandler({ turns: voiceTurnsFixture() }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const transcript = transcriptOf(canvas);
    await waitFor(() => expect(within(transcript).getAllByRole('listitem')).toHaveLength(3));
    const turns = within(transcript).getAllByRole('listitem');
    await expect(within(turns[1]!).getByText('X-ray')).toBeVisible();
    await expect(within(turns[2]!).getByText('Tutor')).toBeVisible();
    const evidence = within(turns[1]!).getByLabelText('Evidence');
    await expect(evidence).toHaveTextContent('“He had the eye of a vulture.”');
    await expect(evidence).toHaveTextContent('Heard in chapter 1, about 10 seconds in');
    await expect(within(evidence).getByRole('button', { name: /^Play from here/ })).toBeEnabled();
    await expect(canvas.getByRole('button', { name: 'Clear conversation' })).toBeVisible();
  },
};

/** The reader clears the conversation: the examples come back. */
export const ConversationCleared: Story = {
  name: 'Conversation cleared',
  parameters: {
    route: xrayRoute,
    msw: { handlers: { voiceConversation: voiceConversationHandler({ turns: voiceTurnsFixture() }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Clear conversation' }));
    await waitFor(() =>
      expect(transcriptOf(canvas)).toHaveTextContent('Press Start talking, or type a question below.'),
    );
    await expect(canvas.queryByRole('button', { name: 'Clear conversation' })).toBeNull();
  },
};

/** The reader scrolled up in a long conversation: Jump to latest brings them back. */
export const JumpToLatest: Story = {
  name: 'Jump to latest (the reader scrolled up)',
  parameters: {
    route: xrayRoute,
    msw: { handlers: { voiceConversation: voiceConversationHandler({ turns: longConversation() }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const transcript = transcriptOf(canvas);
    await waitFor(() => expect(within(transcript).getAllByRole('listitem')).toHaveLength(12));
    // The newest turn is in view, and nothing is offered while the reader follows it.
    await waitFor(() =>
      expect(transcript.scrollTop + transcript.clientHeight).toBeGreaterThanOrEqual(transcript.scrollHeight - 2),
    );
    await expect(canvas.queryByRole('button', { name: 'Jump to latest' })).toBeNull();
    transcript.scrollTop = 0;
    transcript.dispatchEvent(new Event('scroll'));
    await expect(await canvas.findByRole('button', { name: 'Jump to latest' })).toBeVisible();
  },
};

/** Back after a break: Previously… offers a recap of what was heard. */
export const RecapOffered: Story = {
  name: 'Previously… (recap offered after a break)',
  parameters: {
    route: xrayRoute,
    msw: {
      handlers: {
        voiceConversation: voiceConversationHandler({
          recap: {
            text: 'Previously in The Tell-Tale Heart: the narrator swears he is not mad, and watches the old man sleep, night after night. That part is about the narrator and the old man.',
            rested_minutes: 180,
          },
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const recap = await canvas.findByRole('region', { name: 'Previously…' });
    await expect(recap).toHaveTextContent('You last listened 3 hours ago. Previously in The Tell-Tale Heart:');
    await expect(within(recap).getByRole('button', { name: 'Hear the recap' })).toBeEnabled();
    await expect(within(recap).getByRole('button', { name: 'Resume listening' })).toBeEnabled();
  },
};

// --- what a listener never sees, the offline note, widths -----------------------------------------

/** A running session whose status carries the service's internals: none of them reaches the page. */
export const NoInternals: Story = {
  name: 'No internals: no address, no tool names, no start or stop, whatever the status carries',
  parameters: {
    route: tutorRoute,
    msw: { handlers: { voiceStatus: voiceStatusHandler({ status: 'running', mode: 'tutor', job_id: bookJobId }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await startTalking(canvas);
    await canvas.findByRole('button', { name: 'End conversation' });
    // What a listener needs, in their words: which book, and that the conversation is on.
    await expect(await canvas.findByRole('heading', { name: 'The Tell-Tale Heart' })).toBeVisible();
    await expect(await canvas.findByText('Talking in Tutor mode')).toBeVisible();
    await expectTalkState(canvas, 'Listening');
    const page = canvasElement.textContent ?? '';
    await expect(page).not.toContain(VOICE_WS_URL);
    await expect(page).not.toMatch(/wss?:\/\//);
    for (const name of [...VOICE_FUNCTIONS, 'xray_lookup', 'tutor_turn']) await expect(page).not.toContain(name);
    await expect(page).not.toContain(bookJobId);
    await expect(canvas.queryByText('Details')).toBeNull();
    await expect(canvas.queryByRole('button', { name: /Start the service|Stop the service/ })).toBeNull();
  },
};

/** What a server without a chat model says with each answer (docs/voice-assistant.md#offline-answers). */
const NO_MODEL_MESSAGE =
  'Offline answers can tell you who someone is, where the story takes place, what just happened, and quote what you have heard; for open conversation an operator connects a chat model with ASSISTANT_MODEL_URL.';

/** No chat model on the server: one line says what offline answers can do and how a model is connected. */
export const OfflineAssistantNote: Story = {
  name: 'Offline assistant (no chat model): one line on what it can do and how an operator connects a model',
  parameters: {
    route: xrayRoute,
    msw: {
      handlers: {
        voiceStatus: voiceStatusHandler({ chat_model: false }),
        voiceStart: voiceStartHandler({ chat_model: false }),
      },
    },
    voice: {
      transport: {
        answer: () => 'The story takes place in an old house, at night.',
        serverMessages: () => [{ t: 'assistant-fallback', d: { reason: 'no-model', message: NO_MODEL_MESSAGE } }],
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // Said before the first question: the server's status tells the page it has no chat model.
    const note = (await canvas.findByText('Offline answers.')).closest('[role="status"]') as HTMLElement;
    await expect(note).toHaveTextContent('quote what you have heard');
    await typeQuestion(canvas, 'Where does the story take place?');
    await expect(note).toHaveTextContent('who someone is, where the story takes place, what just happened');
    await expect(note).toHaveTextContent('ASSISTANT_MODEL_URL');
    await waitFor(() =>
      expect(transcriptOf(canvas)).toHaveTextContent('The story takes place in an old house, at night.'),
    );
    // Every answer is offline here: the note says it once, no badge on each answer.
    await expect(within(transcriptOf(canvas)).queryByText('Answered offline')).toBeNull();
    await typeQuestion(canvas, 'Who is the old man?');
    await waitFor(() => expect(within(transcriptOf(canvas)).getAllByRole('listitem')).toHaveLength(4));
    await expect(canvas.getByText('Offline answers.')).toBeVisible();
    await expect(within(transcriptOf(canvas)).queryByText('Answered offline')).toBeNull();
  },
};

/** A conversation on a desktop. */
export const Desktop: Story = {
  name: 'Conversation at 1280 px',
  parameters: { route: xrayRoute, width: 1280 },
  globals: { viewport: { value: 'desktop', isRotated: false } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await startTalking(canvas);
    await canvas.findByRole('button', { name: 'End conversation' });
    await typeQuestion(canvas, 'Who is the old man?');
    await waitFor(() => expect(within(transcriptOf(canvas)).getAllByRole('listitem')).toHaveLength(2));
    await expectSendInside(canvas);
  },
};

/** A conversation on a phone. */
export const Phone: Story = {
  name: 'Conversation on a phone (390 px)',
  parameters: { route: xrayRoute, width: 390 },
  globals: { viewport: { value: 'phone', isRotated: false } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await startTalking(canvas);
    await canvas.findByRole('button', { name: 'End conversation' });
    await typeQuestion(canvas, 'Who is the old man?');
    await waitFor(() => expect(within(transcriptOf(canvas)).getAllByRole('listitem')).toHaveLength(2));
    await expectSendInside(canvas);
    // Nothing on the page is wider than the phone.
    const phone = canvasElement.querySelector<HTMLElement>('div[style*="width: 390px"]')!;
    await expect(phone.scrollWidth).toBeLessThanOrEqual(phone.clientWidth);
  },
};
