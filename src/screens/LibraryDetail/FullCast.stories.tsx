import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { CastUpdate } from '../../api/gen/model';
import { BookCast, resetCast } from '../../features/cast';
import { loadJob, PlayerAudio, playerState, ReadAlong, resetPlayer } from '../../features/player';
import { bookJobId, chapterInfoFixtures, progressFixture, progressHandler } from '../../mocks/audio';
import { castBackend } from '../../mocks/cast';
import { jobAtStatus } from '../../mocks/jobs';
import { jobHandler } from '../../mocks/library';

/** The read-along of the sample book read with a full cast, as the book page composes it. */
function CastBookText() {
  useEffect(() => {
    void loadJob(bookJobId);
  }, []);
  return (
    <div style={{ maxWidth: 640, padding: 16 }}>
      <BookCast jobId={bookJobId} cast>
        {(speakers) => <ReadAlong jobId={bookJobId} speakers={speakers} />}
      </BookCast>
      <PlayerAudio />
    </div>
  );
}

/** Full cast on the book page: who speaks each quote of the read-along, and changing it. */
const meta = {
  title: 'Features/Cast/ReadAlong',
  component: CastBookText,
  parameters: { auth: { user: {} } },
  beforeEach: () => {
    resetPlayer();
    resetCast();
  },
} satisfies Meta<typeof CastBookText>;

export default meta;
type Story = StoryObj<typeof meta>;
type Canvas = ReturnType<typeof within>;

/** The saved place 25 s in: chapter 2 of the sample book, its dialogue between Marta and Tobias. */
const inChapter2 = {
  progress: progressHandler({
    progress: progressFixture({ position_seconds: 25, current_chapter_id: chapterInfoFixtures()[1]!.id }),
  }),
};

const chapterText = async (canvas: Canvas) =>
  canvas.findByRole('group', { name: 'Text of The Night Watch' }, { timeout: 5000 });

/** Each quote is marked with who says it. */
export const Speakers: Story = {
  name: 'Speakers: each quote is underlined in its tone and followed by who says it',
  parameters: { msw: { handlers: { ...inChapter2, ...castBackend() } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await chapterText(canvas);
    // "Then come in," she said, "before the rain does." — two quotes, both Marta's.
    await waitFor(() => expect(canvas.getAllByRole('button', { name: 'Spoken by Marta — change' })).toHaveLength(3));
    await expect(canvas.getByRole('button', { name: 'Spoken by Tobias — change' })).toBeVisible();
    // The name is in the text, not only the colour.
    await expect(canvas.getByRole('button', { name: 'Spoken by Tobias — change' })).toHaveTextContent('Tobias');
    // The quote itself is marked, the narration beside it is not.
    const quote = canvas.getByText('"It is only me,"');
    await expect(quote).toHaveAttribute('data-quote-start');
    await expect(canvas.getByRole('button', { name: /^"It is only me," said Tobias\.$/ })).toBeVisible();
  },
};

/** A click on a quote offers its speakers. */
export const ChangeSpeakerMenu: Story = {
  name: 'Change speaker: a click on a quote opens the menu of the cast and Narrator',
  parameters: { msw: { handlers: { ...inChapter2, ...castBackend() } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await chapterText(canvas);
    await userEvent.click(await canvas.findByText('"It is only me,"', {}, { timeout: 5000 }));
    const menu = await canvas.findByRole('menu', { name: 'Who says this' });
    const choices = within(menu).getAllByRole('menuitemradio');
    await expect(choices.map((c) => c.textContent)).toEqual(['Marta', 'Tobias', 'Narrator']);
    await expect(within(menu).getByRole('menuitemradio', { name: 'Tobias' })).toHaveAttribute('aria-checked', 'true');
    await expect(within(menu).getByRole('menuitemradio', { name: 'Tobias' })).toHaveFocus();
    // The click opened the menu: it did not play from the sentence.
    await expect(playerState.currentPosition).toBe(25);
  },
};

/** Another speaker: the chapter is read again while the book plays on. */
export const ChapterReadAgain: Story = {
  name: 'Changed: another speaker has chapter 2 read again while the book plays on',
  args: {},
  parameters: {
    msw: {
      handlers: {
        ...inChapter2,
        ...castBackend({ onPut: (body) => sent.push(body) }),
        // The book converts its changed chapter.
        job: jobHandler(jobAtStatus('PROCESSING', { id: bookJobId })),
      },
    },
  },
  play: async ({ canvasElement }) => {
    sent.length = 0;
    const canvas = within(canvasElement);
    await chapterText(canvas);
    await userEvent.click(await canvas.findByRole('button', { name: 'Spoken by Tobias — change' }, { timeout: 5000 }));
    await userEvent.click(await canvas.findByRole('menuitemradio', { name: 'Marta' }));
    await expect(
      await canvas.findByText('Chapter 2 is being read again with the new voice. The book plays on meanwhile.'),
    ).toBeVisible();
    const quoteStart = Number(canvas.getByText('"It is only me,"').getAttribute('data-quote-start'));
    await expect(sent).toEqual([{ overrides: [{ chapter: 2, char_start: quoteStart, speaker: 'marta' }] }]);
    // The text is read again: the quote is Marta's now.
    await waitFor(() => expect(canvas.queryByRole('button', { name: 'Spoken by Tobias — change' })).toBeNull());
    await expect(canvas.getAllByRole('button', { name: 'Spoken by Marta — change' })).toHaveLength(4);
    // The book is still loaded where it was.
    await expect(playerState.currentJobId).toBe(bookJobId);
    await expect(playerState.currentPosition).toBe(25);
  },
};
const sent: CastUpdate[] = [];

/** A line whose speaker is a guess. */
export const UncertainLine: Story = {
  name: 'Uncertain line: a guessed speaker says "Not sure who says this"',
  parameters: { msw: { handlers: { ...inChapter2, ...castBackend() } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await chapterText(canvas);
    const guess = await canvas.findByRole(
      'button',
      { name: 'Spoken by Tobias — change. Not sure who says this' },
      { timeout: 5000 },
    );
    await expect(guess).toHaveAttribute('title', 'Not sure who says this');
    // The sure lines do not say so.
    await expect(canvas.getAllByRole('button', { name: /Not sure who says this/ })).toHaveLength(1);
  },
};
