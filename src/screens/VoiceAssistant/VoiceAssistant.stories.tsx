import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { configureVoiceAssistant, resetVoiceAssistant } from '../../features/voice-assistant';
import { errorBodyFixture } from '../../mocks/fixtures';
import {
  VOICE_FUNCTIONS,
  VOICE_WS_URL,
  voiceConnectHandler,
  voiceStartHandler,
  voiceStatusHandler,
  voiceStopHandler,
} from '../../mocks/voice';
import { FakeAudioIO, FakeTransport, type FakeTransportOptions } from '../../testing/voice-fakes';
import { VoiceAssistant, XRAY_EXAMPLES } from './VoiceAssistant';

/**
 * Story parameters: msw.handlers for the REST calls (voiceStatus, voiceStart, voiceStop,
 * voiceConnect) and `voice: { transport }` for the injected fake transport (FakeTransportOptions).
 */
const meta = {
  title: 'Screens/VoiceAssistant',
  component: VoiceAssistant,
  parameters: { auth: { user: {} }, route: '/voice-assistant' },
  beforeEach: ({ parameters }) => {
    const voice = (parameters.voice ?? {}) as { transport?: FakeTransportOptions };
    resetVoiceAssistant();
    configureVoiceAssistant({
      createTransport: () => new FakeTransport({ answerDelayMs: 150, ...voice.transport }),
      createAudio: () => new FakeAudioIO(),
    });
    return () => {
      resetVoiceAssistant();
      configureVoiceAssistant(null);
    };
  },
} satisfies Meta<typeof VoiceAssistant>;

export default meta;
type Story = StoryObj<typeof meta>;

const runningStatus = { voiceStatus: voiceStatusHandler({ status: 'running' }) };

// --- headings and subtitles ----------------------------------------------------------------------

export const NoMode: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { level: 1, name: 'Voice Assistant' })).toBeVisible();
    await expect(canvas.getByText('AI-powered voice assistant with your audiobook library access')).toBeVisible();
    for (const name of ['Service Status', 'Client Connection', 'Service Control', 'How to Use']) {
      await expect(canvas.getByRole('heading', { level: 2, name })).toBeVisible();
    }
    await expect(canvas.getByText(/voice-agent framework with voice activity detection, a realtime AI API/)).toBeVisible();
    await expect(canvas.getAllByRole('listitem').length).toBeGreaterThanOrEqual(4);
  },
};

export const Tutor: Story = {
  parameters: { route: '/voice-assistant?mode=tutor&jobId=9b2e7c1a-4d5f-4e6a-8b9c-0d1e2f3a4b5c' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Voice Assistant - Tutoring Mode' })).toBeVisible();
    await expect(
      canvas.getByText('Ready for Socratic dialogue about your audiobook. Ask questions and explore ideas!'),
    ).toBeVisible();
  },
};

export const Xray: Story = {
  parameters: { route: '/voice-assistant?mode=xray&jobId=9b2e7c1a-4d5f-4e6a-8b9c-0d1e2f3a4b5c&position=312' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Voice Assistant - X-ray Lookup' })).toBeVisible();
    for (const example of XRAY_EXAMPLES) await expect(canvas.getByText(new RegExp(example.replace('?', '\\?')))).toBeVisible();
  },
};

// --- service states ------------------------------------------------------------------------------

export const ServiceUnknownLoading: Story = {
  parameters: { msw: { handlers: { voiceStatus: voiceStatusHandler({}, { delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('Unknown')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Refresh Status' })).toBeEnabled();
    await expect(canvas.queryByRole('button', { name: 'Connect & Start Voice Chat' })).toBeNull();
  },
};

export const ServiceStopped: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('Stopped')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Start Voice Assistant' })).toBeEnabled();
    await expect(canvas.getByRole('button', { name: 'Stop Voice Assistant' })).toBeDisabled();
    await expect(canvas.queryByRole('button', { name: 'Connect & Start Voice Chat' })).toBeNull();
  },
};

export const ServiceStarting: Story = {
  parameters: { msw: { handlers: { voiceStart: voiceStartHandler({}, { delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('Stopped');
    await userEvent.click(canvas.getByRole('button', { name: 'Start Voice Assistant' }));
    await expect(await canvas.findByText('Starting')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Start Voice Assistant' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Stop Voice Assistant' })).toBeDisabled();
  },
};

export const ServiceRunning: Story = {
  parameters: { msw: { handlers: runningStatus } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('Running')).toBeVisible();
    await expect(canvas.getByText(VOICE_WS_URL)).toBeVisible();
    for (const name of VOICE_FUNCTIONS) await expect(canvas.getByText(name)).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Start Voice Assistant' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Stop Voice Assistant' })).toBeEnabled();
    await expect(canvas.getByRole('button', { name: 'Connect & Start Voice Chat' })).toBeEnabled();
  },
};

export const ServiceError: Story = {
  parameters: {
    msw: { handlers: { voiceStatus: voiceStatusHandler({}, { status: 503, body: errorBodyFixture('Voice service unavailable') }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Voice service unavailable');
    await expect(canvas.getByText('Error')).toBeVisible();
  },
};

export const ServiceErrorDefaultMessage: Story = {
  parameters: { msw: { handlers: { voiceStatus: voiceStatusHandler({}, { status: 500 }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to check status: Request failed with status 500');
  },
};

// --- flows and client states ---------------------------------------------------------------------

export const StartThenStop: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('Stopped');
    await userEvent.click(canvas.getByRole('button', { name: 'Start Voice Assistant' }));
    await expect(await canvas.findByText('Running')).toBeVisible();
    await expect(canvas.getByText(VOICE_FUNCTIONS[0]!)).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Stop Voice Assistant' }));
    await expect(await canvas.findByText('Stopped')).toBeVisible();
    await expect(canvas.queryByText(VOICE_FUNCTIONS[0]!)).toBeNull();
    await expect(canvas.queryByText(VOICE_WS_URL)).toBeNull();
  },
};

export const ClientDisconnected: Story = {
  parameters: { msw: { handlers: runningStatus } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('button', { name: 'Connect & Start Voice Chat' })).toBeEnabled();
    await expect(canvas.getByText('Disconnected')).toBeVisible();
  },
};

export const ClientConnecting: Story = {
  parameters: { msw: { handlers: runningStatus }, voice: { transport: { connect: 'never' } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Connect & Start Voice Chat' }));
    await expect(await canvas.findByRole('button', { name: 'Connecting...' })).toBeDisabled();
  },
};

export const ClientConnectedWithTranscript: Story = {
  parameters: {
    route: '/voice-assistant?mode=xray&jobId=9b2e7c1a-4d5f-4e6a-8b9c-0d1e2f3a4b5c',
    msw: { handlers: { voiceStatus: voiceStatusHandler({ status: 'running', mode: 'xray', job_id: '9b2e7c1a-4d5f-4e6a-8b9c-0d1e2f3a4b5c' }) } },
    voice: { transport: { answer: () => 'That is the narrator, who insists he is not mad.' } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Connect & Start Voice Chat' }));
    await expect(await canvas.findByRole('button', { name: 'Disconnect Voice Chat' })).toBeEnabled();
    await expect(canvas.getByText('Connected')).toBeVisible();
    await expect(canvas.getByRole('meter', { name: 'Your microphone level' })).toBeVisible();
    await userEvent.type(canvas.getByLabelText('Type a question'), 'Who is this character?{Enter}');
    const transcript = canvas.getByRole('list', { name: 'Conversation' });
    await expect(transcript).toHaveAttribute('aria-live', 'polite');
    await expect(within(transcript).getByText('Who is this character?')).toBeVisible();
    await waitFor(() => expect(transcript).toHaveTextContent('That is the narrator, who insists he is not mad.'));
    await expect(canvas.getByLabelText('Type a question')).toHaveValue('');
    // Send stays inside the card, whatever the width.
    const send = canvas.getByRole('button', { name: 'Send' });
    const form = send.closest('form')!;
    await expect(send.getBoundingClientRect().right).toBeLessThanOrEqual(form.getBoundingClientRect().right + 0.5);
    await expect(form.getBoundingClientRect().right).toBeLessThanOrEqual(form.parentElement!.getBoundingClientRect().right + 0.5);
  },
};

export const ConnectedOnAPhone: Story = {
  name: 'Connected on a phone-width screen',
  parameters: { width: 360, msw: { handlers: runningStatus } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Connect & Start Voice Chat' }));
    const send = await canvas.findByRole('button', { name: 'Send' });
    const form = send.closest('form')!;
    // The question field shrinks; Send stays inside its card.
    await expect(send.getBoundingClientRect().right).toBeLessThanOrEqual(form.getBoundingClientRect().right + 0.5);
    await expect(form.getBoundingClientRect().right).toBeLessThanOrEqual(form.parentElement!.getBoundingClientRect().right + 0.5);
  },
};

export const ClientConnectThenDisconnect: Story = {
  parameters: { msw: { handlers: runningStatus } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Connect & Start Voice Chat' }));
    await userEvent.click(await canvas.findByRole('button', { name: 'Disconnect Voice Chat' }));
    await expect(await canvas.findByRole('button', { name: 'Connect & Start Voice Chat' })).toBeEnabled();
    await expect(canvas.getByText('Disconnected')).toBeVisible();
  },
};

export const ClientError: Story = {
  parameters: { msw: { handlers: runningStatus }, voice: { transport: { connect: { fail: 'websocket connection timed out' } } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Connect & Start Voice Chat' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Connection failed: websocket connection timed out');
    await expect(canvas.getAllByText('Error').length).toBeGreaterThan(0);
    await expect(canvas.getByRole('button', { name: 'Connect & Start Voice Chat' })).toBeEnabled();
  },
};

export const ConnectApiError: Story = {
  parameters: {
    msw: {
      handlers: {
        ...runningStatus,
        voiceConnect: voiceConnectHandler({}, { status: 409, body: errorBodyFixture('Voice assistant is not running') }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Connect & Start Voice Chat' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Connection failed: Voice assistant is not running');
  },
};

export const StopFails: Story = {
  parameters: { msw: { handlers: { ...runningStatus, voiceStop: voiceStopHandler({ status: 500 }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('Running');
    await userEvent.click(canvas.getByRole('button', { name: 'Stop Voice Assistant' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to stop service: Request failed with status 500');
  },
};
