import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { ButtonLink } from './Button';

/** A link that looks like a button: a navigation offered as an action. */
const meta = {
  title: 'UI/ButtonLink',
  component: ButtonLink,
  args: { href: '/upload', children: 'Upload Story' },
  parameters: { layout: 'padded', route: '/dashboard', routeStubs: ['/upload'] },
} satisfies Meta<typeof ButtonLink>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A secondary navigation. */
export const Secondary: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('link', { name: 'Upload Story' })).toHaveAttribute('href', '/upload');
  },
};

/** Following it goes to its page. */
export const SecondaryNavigates: Story = {
  tags: ['navigates'],
  name: 'Secondary: following it navigates',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('link', { name: 'Upload Story' }));
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /upload' })).toBeVisible();
  },
};
/** The main navigation of a view. */
export const Primary: Story = { args: { variant: 'primary' } };
