import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { Pronunciation } from '../../api/gen/model';
import { bookJobId } from '../../mocks/audio';
import { errorBodyFixture } from '../../mocks/fixtures';
import { pronunciationsHandler, putPronunciationsHandler, reconvertHandler } from '../../mocks/pronunciations';
import { BookPronunciations } from './BookPronunciations';

/** The lists the stories saved (cleared before every story). */
const saved: Pronunciation[][] = [];

/** The block as the book page shows it, under a line of the book's text the reader can select. */
function BookPage({ finished = true }: { finished?: boolean }) {
  return (
    <div style={{ maxWidth: 720, padding: 16 }}>
      <p data-testid="text">Hermione looked up from her book.</p>
      <BookPronunciations jobId={bookJobId} finished={finished} />
    </div>
  );
}

/** A finished book's Pronunciations block under the read-along: the reader fixes how a word is said (the word selected on the page comes in), and re-converts only the chapters that contain a changed word. */
const meta = {
  title: 'Features/Pronunciations/BookPronunciations',
  component: BookPage,
  parameters: {
    auth: { user: {} },
    msw: {
      handlers: {
        pronunciations: pronunciationsHandler({ entries: [{ text: 'Gandalf', say_as: 'gan-dalf' }] }),
        putPronunciations: putPronunciationsHandler({ onPut: (list) => void saved.push(list) }),
      },
    },
  },
  beforeEach: () => {
    saved.length = 0;
  },
} satisfies Meta<typeof BookPage>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Selects the first word of the book's line, as a reader double-clicking it does. */
function selectHermione(canvasElement: HTMLElement) {
  const text = within(canvasElement).getByTestId('text').firstChild!;
  const range = document.createRange();
  range.setStart(text, 0);
  range.setEnd(text, 'Hermione'.length);
  document.getSelection()?.removeAllRanges();
  document.getSelection()?.addRange(range);
}

/** Fix a pronunciation: the selected word is filled in, saved with the others. */
export const FixSelectedWord: Story = {
  name: 'Fix a pronunciation: the selected word is filled in, saved with the others',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    selectHermione(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Fix a pronunciation' }));
    const form = await canvas.findByRole('form', { name: 'Fix a pronunciation' });
    await expect(within(form).getByLabelText('Word')).toHaveValue('Hermione');
    await expect(await within(form).findByText('Gandalf → gan-dalf')).toBeVisible();
    await userEvent.type(within(form).getByLabelText('Say it as'), 'her-my-oh-nee');
    await userEvent.click(within(form).getByRole('button', { name: 'Save pronunciation' }));
    await expect(await within(form).findByRole('status')).toHaveTextContent(
      'Saved: "Hermione" is read as "her-my-oh-nee".',
    );
    await expect(saved).toEqual([
      [
        { text: 'Gandalf', say_as: 'gan-dalf' },
        { text: 'Hermione', say_as: 'her-my-oh-nee' },
      ],
    ]);
    await expect(within(form).getByText('Hermione → her-my-oh-nee')).toBeVisible();
    await expect(within(form).getByRole('button', { name: 'Remove Gandalf' })).toBeVisible();
  },
};

/** A list the server refuses says why. */
export const SaveRefused: Story = {
  name: 'A list the server refuses says why',
  parameters: {
    msw: {
      handlers: {
        putPronunciations: putPronunciationsHandler({
          status: 422,
          body: errorBodyFixture('"GANDALF" is listed twice (entries 1 and 2)'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Fix a pronunciation' }));
    const form = await canvas.findByRole('form', { name: 'Fix a pronunciation' });
    await userEvent.type(within(form).getByLabelText('Word'), 'Frodo');
    await userEvent.type(within(form).getByLabelText('Say it as'), 'fro-doe');
    await userEvent.click(within(form).getByRole('button', { name: 'Save pronunciation' }));
    await expect(await within(form).findByRole('alert')).toHaveTextContent(
      '"GANDALF" is listed twice (entries 1 and 2)',
    );
  },
};

/** Re-convert changed chapters: only chapters with a changed word. */
export const ReconvertChanged: Story = {
  name: 'Re-convert changed chapters: only chapters with a changed word',
  parameters: { msw: { handlers: { reconvert: reconvertHandler({ chapters: [2, 5] }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Re-convert changed chapters' }));
    await expect(await canvas.findByRole('status')).toHaveTextContent(
      'Re-converting chapters 2 and 5 with your pronunciations.',
    );
  },
};

/** Re-convert changed chapters: nothing changed. */
export const NothingChanged: Story = {
  name: 'Re-convert changed chapters: nothing changed',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Re-convert changed chapters' }));
    await expect(await canvas.findByRole('status')).toHaveTextContent(
      'No chapter contains a changed word: nothing to re-convert.',
    );
  },
};

/** A book still converting cannot be re-converted yet. */
export const StillConverting: Story = {
  name: 'A book still converting cannot be re-converted yet',
  args: { finished: false },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Re-convert changed chapters' })).toBeDisabled());
    await expect(canvas.getByRole('button', { name: 'Fix a pronunciation' })).toBeEnabled();
  },
};
