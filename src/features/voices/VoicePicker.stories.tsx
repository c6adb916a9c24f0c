import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { voiceListFixture, voiceSampleHandler, voicesHandler } from '../../mocks/voices';
import { errorBodyFixture } from '../../mocks/fixtures';
import { rememberVoice, VOICE_STORAGE_KEY, type VoiceChoice } from './choice';
import { VoicePicker } from './VoicePicker';

/** The samples the stories asked for (cleared before every story). */
const sampled: string[] = [];

/** The picker as the upload form holds it, with the chosen voice shown under it. */
function Picker() {
  const [choice, setChoice] = useState<VoiceChoice | null>(null);
  return (
    <div style={{ maxWidth: 720, padding: 16 }}>
      <VoicePicker value={choice} onChange={setChoice} />
      <p data-testid="chosen">{choice ? `${choice.provider}/${choice.voiceId}` : 'none'}</p>
    </div>
  );
}

/** The upload form's voice picker: every voice usable now, grouped by source (the voice server, cloud voices with a key, the offline voice's variants), each with a preview to choose by ear. */
const meta = {
  title: 'Features/Voices/VoicePicker',
  component: Picker,
  parameters: {
    auth: { user: {} },
    msw: {
      handlers: {
        voices: voicesHandler({ list: voiceListFixture({ server: 'ready' }) }),
        voiceSample: voiceSampleHandler({ onSample: (provider, id) => void sampled.push(`${provider}/${id}`) }),
      },
    },
  },
  beforeEach: () => {
    sampled.length = 0;
  },
} satisfies Meta<typeof Picker>;

export default meta;
type Story = StoryObj<typeof meta>;

const chosen = (canvas: ReturnType<typeof within>) => canvas.getByTestId('chosen');

/** Loading: the voices are on their way. */
export const Loading: Story = {
  name: 'Loading: the voices are on their way',
  parameters: { msw: { handlers: { voices: voicesHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('status')).toHaveTextContent('Loading voices...');
    await expect(canvas.getByRole('group', { name: 'Voice' })).toBeVisible();
    await expect(canvas.queryAllByRole('radio')).toEqual([]);
  },
};

/** Grouped by source, the voice server first; a voice chosen is remembered. */
export const Grouped: Story = {
  name: 'Grouped by source, the voice server first; a voice chosen is remembered',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const kokoro = await canvas.findByRole('region', { name: 'Kokoro' });
    const offline = canvas.getByRole('region', { name: 'Offline voice' });
    await expect(within(kokoro).getAllByRole('radio')).toHaveLength(4);
    await expect(within(offline).getAllByRole('radio')).toHaveLength(4);
    // A voice server's voices say their language; the default is chosen until the reader picks.
    await expect(within(kokoro).getByRole('radio', { name: 'George British English' })).not.toBeChecked();
    await waitFor(() => expect(within(kokoro).getByRole('radio', { name: /^Heart/ })).toBeChecked());
    await expect(chosen(canvas)).toHaveTextContent('openai_compatible/af_heart');
    for (const name of ['Heart', 'Bella', 'George', 'Siwis', 'US English, female', 'UK English, male']) {
      await expect(canvas.getByRole('button', { name: `Preview ${name}` })).toBeVisible();
    }
    // Choosing a voice makes it the form's, and it is remembered for the next visit.
    await userEvent.click(within(offline).getByRole('radio', { name: 'UK English, male' }));
    await expect(chosen(canvas)).toHaveTextContent('offline/en-gb+m3');
    await expect(JSON.parse(localStorage.getItem(VOICE_STORAGE_KEY) ?? 'null')).toEqual({
      provider: 'offline',
      voiceId: 'en-gb+m3',
    });
  },
};

/** Remembered: the last voice chosen is chosen again. */
export const Remembered: Story = {
  name: 'Remembered: the last voice chosen is chosen again',
  beforeEach: () => {
    rememberVoice({ provider: 'openai_compatible', voiceId: 'bm_george' });
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvas.getByRole('radio', { name: 'George British English' })).toBeChecked());
    await expect(chosen(canvas)).toHaveTextContent('openai_compatible/bm_george');
  },
};

/** Previewing: a voice reads its sample. */
export const Previewing: Story = {
  name: 'Previewing: a voice reads its sample',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const preview = await canvas.findByRole('button', { name: 'Preview Bella' });
    await userEvent.click(preview);
    await waitFor(() => expect(preview).toHaveAttribute('aria-pressed', 'true'));
    await expect(preview).toHaveTextContent('■ Preview Bella');
    await expect(sampled).toEqual(['openai_compatible/af_bella']);
    // Previewing does not choose: Heart is still the voice.
    await expect(chosen(canvas)).toHaveTextContent('openai_compatible/af_heart');
    await expect(canvas.getByRole('button', { name: 'Preview Heart' })).toHaveAttribute('aria-pressed', 'false');
  },
};

/** Server down: its group says so, the offline voice is chosen. */
export const ServerDown: Story = {
  name: 'Server down: its group says so, the offline voice is chosen',
  parameters: { msw: { handlers: { voices: voicesHandler({ list: voiceListFixture({ server: 'down' }) }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const kokoro = await canvas.findByRole('region', { name: 'Kokoro' });
    await expect(within(kokoro).getByText('Kokoro is not reachable right now')).toBeVisible();
    await expect(within(kokoro).queryAllByRole('radio')).toEqual([]);
    await waitFor(() => expect(canvas.getByRole('radio', { name: 'US English, female' })).toBeChecked());
    await expect(chosen(canvas)).toHaveTextContent('offline/en-us+f3');
  },
};

/** A sample that cannot be made says why. */
export const SampleFails: Story = {
  name: 'A sample that cannot be made says why',
  parameters: {
    msw: {
      handlers: {
        voiceSample: voiceSampleHandler({ status: 503, body: errorBodyFixture('Kokoro could not be reached') }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Preview George' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      'The sample of George could not be played: Kokoro could not be reached',
    );
    await expect(canvas.getByRole('button', { name: 'Preview George' })).toHaveAttribute('aria-pressed', 'false');
  },
};
