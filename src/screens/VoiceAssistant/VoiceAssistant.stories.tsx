import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { VoiceAssistant } from './VoiceAssistant';

const meta = {
  title: 'Screens/VoiceAssistant',
  component: VoiceAssistant,
  parameters: { auth: { user: {} }, route: '/voice-assistant' },
} satisfies Meta<typeof VoiceAssistant>;

export default meta;
type Story = StoryObj<typeof meta>;

export const NoMode: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: 'Voice Assistant' })).toBeVisible();
  },
};
export const Tutor: Story = {
  parameters: { route: '/voice-assistant?mode=tutor&jobId=9b2e7c1a' },
  play: async ({ canvasElement }) => {
    await expect(
      within(canvasElement).getByRole('heading', { name: 'Voice Assistant - Tutoring Mode' }),
    ).toBeVisible();
  },
};
