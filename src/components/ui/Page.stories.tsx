import type { Meta, StoryObj } from '@storybook/react-vite';
import { Page } from './Page';

/** Page: a screen’s title and lead line. */
const meta = {
  title: 'UI/Page',
  component: Page,
  args: { title: 'Jobs', lead: 'Your conversion jobs and their progress will be listed here.' },
} satisfies Meta<typeof Page>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A title with its lead. */
export const Default: Story = {};
/** A title alone. */
export const TitleOnly: Story = { args: { lead: undefined } };
