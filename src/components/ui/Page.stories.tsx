import type { Meta, StoryObj } from '@storybook/react-vite';
import { Page } from './Page';

const meta = {
  title: 'UI/Page',
  component: Page,
  args: { title: 'Jobs', lead: 'Your conversion jobs and their progress will be listed here.' },
} satisfies Meta<typeof Page>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const TitleOnly: Story = { args: { lead: undefined } };
