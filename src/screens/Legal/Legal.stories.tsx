import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { environmentHandler } from '../../mocks/handlers';
import { Legal } from './Legal';

/**
 * The terms of use and the privacy notice readers accept at sign-up: Lectio's short defaults
 * (what is stored, who runs the server, how to delete it all), or a link to the operator's own.
 */
const meta = {
  title: 'Screens/Terms and privacy',
  component: Legal,
  args: { document: 'terms' },
  parameters: { route: '/terms' },
} satisfies Meta<typeof Legal>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The built-in terms. */
export const Terms: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
    await expect(canvas.getByRole('heading', { name: 'Leaving' })).toBeVisible();
    await expect(canvas.getByText(/delete your account at any time from the Account page/)).toBeVisible();
  },
};

/** The built-in privacy notice: what is stored, who sees it, how to delete it. */
export const Privacy: Story = {
  args: { document: 'privacy' },
  parameters: { route: '/privacy' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    await expect(canvas.getByRole('heading', { name: 'What is stored' })).toBeVisible();
    await expect(canvas.getByText(/a one-way hash of your password/)).toBeVisible();
  },
};

/** The operator publishes their own terms (TERMS_URL): the page links there. */
export const OperatorsTerms: Story = {
  name: "The operator's own terms",
  parameters: {
    msw: { handlers: { environment: environmentHandler({ legal: { terms_url: 'https://example.org/terms' } }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('link', { name: 'read the Terms of Service' })).toHaveAttribute(
      'href',
      'https://example.org/terms',
    );
  },
};
