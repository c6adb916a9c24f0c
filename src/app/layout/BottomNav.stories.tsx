import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { jobsRunningCountHandler } from '../../mocks/handlers';
import { BottomNav } from './BottomNav';
import { TopNav } from './TopNav';

/** The signed-in frame's bars on a phone (390 x 844): the top bar slims down, the places move to the bottom. */
function PhoneBars() {
  return (
    <>
      <TopNav />
      <main>
        <h1>Library</h1>
      </main>
      <BottomNav />
    </>
  );
}

/** The bottom navigation: on a phone, the five places of the app within thumb’s reach. */
const meta = {
  title: 'App/BottomNav',
  component: PhoneBars,
  parameters: {
    route: '/library',
    routeStubs: ['/voice-assistant'],
    auth: { user: { email: 'reader@example.com' } },
    msw: { handlers: { jobs: jobsRunningCountHandler(2) } },
  },
  // Phones only: the toolbar's phone size (390x844), where the media queries show the bar.
  globals: { viewport: { value: 'phone', isRotated: false } },
} satisfies Meta<typeof PhoneBars>;

export default meta;
type Story = StoryObj<typeof meta>;

/** On a phone: the five places fixed at the bottom, with the running jobs count. */
export const OnAPhone: Story = {
  name: 'On a phone: five places with icons and labels, fixed at the bottom, the Jobs badge kept',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // One main navigation at a time: the bottom one on a phone.
    const navs = canvas.getAllByRole('navigation', { name: 'Main' });
    await expect(navs).toHaveLength(1);
    const bar = within(navs[0]!);
    const links = bar.getAllByRole('link');
    await expect(links.map((link) => link.textContent?.replace(/\(\d+ running\)|\d/g, '').trim())).toEqual([
      'Dashboard',
      'Jobs',
      'Upload',
      'Library',
      'Voice Assistant',
    ]);
    await expect(bar.getByRole('link', { name: 'Library' })).toHaveAttribute('aria-current', 'page');
    await expect(await bar.findByRole('link', { name: 'Jobs (2 running)' })).toBeVisible();
    const box = navs[0]!.getBoundingClientRect();
    await expect(getComputedStyle(navs[0]!).position).toBe('fixed');
    await expect(Math.round(box.bottom)).toBe(canvasElement.ownerDocument.documentElement.clientHeight);
    // The top bar keeps the brand, dark mode and Sign out; no "Menu" button.
    await expect(canvas.queryByRole('button', { name: 'Menu' })).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Dark mode' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Sign out' })).toBeVisible();
  },
};

/** The same in the dark theme. */
export const DarkMode: Story = {
  name: 'On a phone, in dark mode',
  parameters: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const bar = within(within(canvasElement).getByRole('navigation', { name: 'Main' }));
    await expect(bar.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  },
};

/** Voice Assistant opens the voice assistant. */
export const GoesToTheAssistant: Story = {
  tags: ['navigates'],
  name: 'On a phone: Voice Assistant opens the voice assistant',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(
      within(canvas.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Voice Assistant' }),
    );
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /voice-assistant' })).toBeVisible();
  },
};
