import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { Pagination } from './Pagination';

/** Pagination: moves through a long list page by page. */
const meta = {
  title: 'UI/Pagination',
  component: Pagination,
  args: { page: 1, pages: 3, onChange: fn() },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof Pagination>;

export default meta;
type Story = StoryObj<typeof meta>;

/** On the first page: Previous is not offered. */
export const FirstPage: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(canvas.getByRole('button', { name: 'Next' }));
    await expect(args.onChange).toHaveBeenCalledWith(2);
  },
};

/** Many pages: at most five buttons around the current one. */
export const ManyPages: Story = {
  name: 'Many pages: at most 5 buttons around the current one',
  args: { page: 7, pages: 12 },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const numbered = canvas.getAllByRole('button', { name: /^Page \d+$/ });
    await expect(numbered.map((button) => button.textContent)).toEqual(['5', '6', '7', '8', '9']);
    await userEvent.click(canvas.getByRole('button', { name: 'Previous' }));
    await expect(args.onChange).toHaveBeenCalledWith(6);
  },
};

/** On the last page: Next is not offered. */
export const LastPage: Story = {
  args: { page: 12, pages: 12 },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Next' })).toBeDisabled();
  },
};

/** One page only: nothing is shown. */
export const SinglePage: Story = {
  name: 'One page: nothing to show',
  args: { page: 1, pages: 1 },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByRole('navigation')).toBeNull();
  },
};
