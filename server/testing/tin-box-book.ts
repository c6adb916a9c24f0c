/**
 * FOR TESTS: "The Tin Box", a three-chapter book whose chapter headings are lines of its text (as
 * an EPUB's often are), with a stranger who is named three ways (Elias Crane, Crane, Mr. Crane), a
 * box whose contents are heard only in chapter 2, and an ending in chapter 3. Ten seconds a line.
 */
import { randomUUID } from 'node:crypto';
import type { BookText } from '../books/text';
import type { Book } from '../books/book';
import { finishedBook, timedText } from './book-fixture';

export const TIN_BOX_LINES = [
  // Chapter 1 (0-60 s)
  'Chapter One: The Cove',
  'Nell Harper lived with her brother Tobias in a crooked cottage at Saltmarsh Cove.',
  'Every morning Nell mended nets on the harbour wall while Tobias fished.',
  'Tobias seemed scared of the old mill on the hill, though he never said why.',
  'One grey afternoon Nell found a rusted tin box buried under the cottage floor.',
  'The lid was rusted shut, and Nell hid the box beneath her bed.',
  // Chapter 2 (60-120 s)
  'Chapter Two: The Stranger',
  'A tall man called Elias Crane arrived in Saltmarsh on the evening coach.',
  'Crane asked everyone in the tavern about a tin box.',
  "Nell prised the lid open that night with her father's knife.",
  'Inside the tin box lay a brass key and a letter signed by their mother.',
  'Elias watched the cottage from the harbour wall until dawn.',
  // Chapter 3 (120-180 s)
  'Chapter Three: The Mill',
  'The brass key opened the door of the old mill.',
  'In the mill Tobias confessed that he had seen Crane there years before.',
  'Mr. Crane revealed that he was their father, come back from the sea.',
  'Tobias drowned in the mill race before the winter came.',
  'Nell kept the letter and never left Saltmarsh again.',
] as const;

export const LINE_SECONDS = 10;
/** Chapter 1, the box found but shut (lines 0-4 heard). */
export const EARLY = 45;
/** The end of chapter 2: the box opened, Crane watching (lines 0-11 heard). */
export const MIDDLE = 115;
/** Chapter 3, Crane's secret told, the ending not yet (lines 0-15 heard). */
export const LATE = 155;

export function tinBoxBook(): { book: Book; text: BookText } {
  const { text, timing } = timedText(TIN_BOX_LINES, LINE_SECONDS, () => '\n');
  const book: Book = finishedBook({
    id: randomUUID(),
    title: 'The Tin Box',
    description: 'A sister, a brother and a box buried under their floor.',
    durationSeconds: TIN_BOX_LINES.length * LINE_SECONDS,
    chapters: [
      { title: 'The Cove', order: 1, duration: 60 },
      { title: 'The Stranger', order: 2, duration: 60 },
      { title: 'The Mill', order: 3, duration: 60 },
    ],
    analysis: {
      themes: ['family', 'secrets'],
      characters: [
        { name: 'Nell Harper', role: 'protagonist' },
        { name: 'Tobias', role: 'major character' },
        { name: 'Elias Crane', role: 'major character' },
      ],
      setting: { time: 'not stated', place: 'Saltmarsh' },
      discussion_questions: ['Why does Nell hide the tin box?', 'What does Elias Crane want with the box?'],
    },
  });
  return { book, text: { text, timing } };
}
