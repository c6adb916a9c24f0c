import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { getGetAudioTranscriptMockHandler } from '../../api/gen/endpoints/audio/get-audio-transcript.msw';
import { failWith } from '../../mocks/answer';
import {
  audioMetadataHandler,
  audioTranscriptHandler,
  bookJobId,
  chapterInfoFixtures,
  convertingMetadataFixture,
  openingStreamHandler,
  progressFixture,
  progressHandler,
  SAMPLE_OPENING_SECONDS,
  transcriptFixture,
} from '../../mocks/audio';
import { errorBodyFixture } from '../../mocks/fixtures';
import { PlayerAudio } from './PlayerAudio';
import { ReadAlong } from './ReadAlong';
import { loadJob, resetPlayer } from './controls';
import { state } from './store';

/** The read-along view of the sample book, loaded in the player as the book page does. */
function BookText() {
  useEffect(() => {
    void loadJob(bookJobId);
  }, []);
  return (
    <div style={{ maxWidth: 640, padding: 16 }}>
      <ReadAlong jobId={bookJobId} />
      <PlayerAudio />
    </div>
  );
}

/** Read-along: the chapter’s text beside the player, the sentence being spoken highlighted. */
const meta = {
  title: 'Features/Player/ReadAlong',
  component: BookText,
  parameters: { auth: { user: {} } },
  beforeEach: () => {
    resetPlayer();
  },
} satisfies Meta<typeof BookText>;

export default meta;
type Story = StoryObj<typeof meta>;

type Canvas = ReturnType<typeof within>;
const spoken = (canvas: Canvas) => canvas.getByRole('button', { current: true });

/** The saved place 25 s in: chapter 2 ("The Night Watch", from 20 s), its second sentence (from 5 s). */
const placeInChapter2 = {
  progress: progressHandler({
    progress: progressFixture({ position_seconds: 25, current_chapter_id: chapterInfoFixtures()[1]!.id }),
  }),
};

/** The highlight follows the voice. */
export const Following: Story = {
  name: 'Following: the sentence being spoken is highlighted',
  parameters: { msw: { handlers: placeInChapter2 } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(
      await canvas.findByRole('group', { name: 'Text of The Night Watch' }, { timeout: 5000 }),
    ).toBeVisible();
    await waitFor(() => expect(spoken(canvas)).toHaveTextContent('Oh, so gently!'));
    await expect(spoken(canvas)).toHaveAttribute('aria-current', 'true');
    // Paragraphs of the text are kept.
    await expect(canvasElement.querySelectorAll('[role="group"] p')).toHaveLength(2);
  },
};

/** The sample transcript as a voice that times its words gives it: each sentence's words share its time. */
const wordTimedTranscript = getGetAudioTranscriptMockHandler(({ request }) => {
  const transcript = transcriptFixture(Number(new URL(request.url).searchParams.get('chapter') ?? 1));
  return {
    ...transcript,
    sentences: transcript.sentences.map((sentence) => {
      const words = [...sentence.text.matchAll(/[\p{L}\p{N}']+/gu)];
      const share = (sentence.end - sentence.start) / Math.max(1, words.length);
      return {
        ...sentence,
        words: words.map((word, i) => ({
          start: sentence.start + i * share,
          end: sentence.start + (i + 1) * share,
          char_start: sentence.char_start + word.index,
          char_end: sentence.char_start + word.index + word[0].length,
        })),
      };
    }),
  };
});

/** A voice that timed its words (a voice server's captions): the word being spoken is underlined. */
export const WordByWord: Story = {
  name: 'Word by word: the word being spoken is underlined when the voice timed its words',
  parameters: { msw: { handlers: { ...placeInChapter2, audioTranscript: wordTimedTranscript } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(spoken(canvas)).toHaveTextContent('Oh, so gently!'), { timeout: 5000 });
    // 25 s into the book is the first moment of that sentence: its first word.
    const word = spoken(canvas).querySelector('[data-word-current="true"]');
    await expect(word).toHaveTextContent(/^Oh$/);
    // The sentence still reads as one, for its button's name.
    await expect(spoken(canvas)).toHaveAccessibleName(/^Oh, so gently!/);
  },
};

/** A click on a sentence plays from there. */
export const Seeking: Story = {
  name: 'Seeking: a click on a sentence plays from there (and it is followed)',
  parameters: { msw: { handlers: placeInChapter2 } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(spoken(canvas)).toHaveTextContent('Oh, so gently!'), { timeout: 5000 });
    const later = canvas.getByRole('button', { name: /^It took me an hour/ });
    await userEvent.click(later);
    // Chapter 2 starts at 20 s; its fourth sentence at 15 s into it.
    await waitFor(() => expect(state.currentPosition).toBe(35));
    await waitFor(() => expect(spoken(canvas)).toBe(later));
  },
};

/** Moving through the sentences with the keyboard. */
export const KeyboardSeeking: Story = {
  name: 'Keyboard: ↓ moves to the next sentence, Enter plays from it',
  parameters: { msw: { handlers: placeInChapter2 } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(spoken(canvas)).toHaveTextContent('Oh, so gently!'), { timeout: 5000 });
    spoken(canvas).focus();
    await userEvent.keyboard('{ArrowDown}');
    await expect(document.activeElement).toHaveTextContent(/^And then, when I had made an opening/);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(state.currentPosition).toBe(30));
    await waitFor(() => expect(spoken(canvas)).toHaveTextContent(/^And then, when I had made an opening/));
  },
};

/** The text is on its way. */
export const Loading: Story = {
  name: 'Loading: the text is on its way',
  parameters: { msw: { handlers: { audioTranscript: audioTranscriptHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('status')).toHaveTextContent('Loading the text...');
  },
};

/** A converting book: the chapter’s text comes later. */
export const ChapterNotReady: Story = {
  name: 'Chapter not ready: a converting book says its text comes later',
  parameters: {
    msw: {
      handlers: {
        audioTranscript: getGetAudioTranscriptMockHandler(() =>
          failWith(409, errorBodyFixture('Chapter 1 is not ready yet (status PROCESSING)')),
        ),
        // Chapter 1 still converts: its first minutes (its opening) play already, its text comes later.
        audioMetadata: audioMetadataHandler({
          metadata: convertingMetadataFixture({ ready: 0, openingSeconds: SAMPLE_OPENING_SECONDS }),
        }),
        audioStream: openingStreamHandler(),
      },
    },
  },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByText(
        'This chapter is still converting: its text appears here when it is ready.',
        {},
        { timeout: 5000 },
      ),
    ).toBeVisible();
  },
};

/** The text cannot be loaded: the reason. */
export const Error: Story = {
  name: 'Error: the reason is shown',
  parameters: {
    msw: {
      handlers: {
        audioTranscript: getGetAudioTranscriptMockHandler(() =>
          failWith(404, errorBodyFixture('This audiobook has no timing map')),
        ),
      },
    },
  },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('alert')).toHaveTextContent('This audiobook has no timing map');
  },
};

/** A long chapter scrolls inside its box, the spoken sentence in view. */
export const LongChapter: Story = {
  name: 'Long chapter: 600 sentences scroll inside the box, the spoken one in view',
  parameters: {
    msw: {
      handlers: {
        ...placeInChapter2,
        audioTranscript: getGetAudioTranscriptMockHandler(() => {
          const base = transcriptFixture(2);
          const sentences = Array.from({ length: 600 }, (_, index) => ({
            index,
            start: index / 30,
            end: (index + 1) / 30,
            text: `Sentence ${index + 1} of the long night, told slowly.`,
            char_start: index * 50,
            char_end: index * 50 + 48,
            paragraph_start: index % 6 === 0,
          }));
          return { ...base, sentences };
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // Every chapter's text here has this title: the box found before the player has loaded is
    // chapter 1's, replaced by chapter 2's once it has, so the box is looked up each time.
    const box = () => canvas.getByRole('group', { name: 'Text of The Night Watch' });
    await canvas.findByRole('group', { name: 'Text of The Night Watch' }, { timeout: 5000 });
    // 25 s is 5 s into chapter 2: sentence 151.
    await waitFor(() => expect(spoken(canvas)).toHaveTextContent('Sentence 151 of the long night'));
    // The box scrolls smoothly once the sentence is there: on a loaded machine that takes a while.
    await waitFor(() => expect(box().scrollTop).toBeGreaterThan(0), { timeout: 10_000 });
    await waitFor(
      () => {
        const current = spoken(canvas).getBoundingClientRect();
        const frame = box().getBoundingClientRect();
        if (current.top < frame.top || current.bottom > frame.bottom)
          throw new globalThis.Error('The spoken sentence is out of view');
      },
      { timeout: 10_000 },
    );
  },
};
