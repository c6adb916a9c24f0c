/**
 * FOR TESTS: a small book written for the assistant's tests. Tobias is heard early; Captain Elias
 * Thorne and the island of Lundy only after the listener's position; the first sentence sets the
 * scene (place and time).
 */
import { randomUUID } from 'node:crypto';
import type { BookText } from '../books/text';
import type { Book } from '../books/book';
import { finishedBook, timedText } from './book-fixture';

// A small book written for these tests: Tobias is heard early, Captain Elias Thorne and the island
// of Lundy only after the listener's position, and the first sentence sets the scene.
export const CHAPTER_1 = [
  'Mara Quill kept the lighthouse on Gull Island, off the coast of Cornwall, in the winter of 1893.',
  'Every night she climbed the hundred steps to light the great lamp.',
  'Her brother Tobias rowed out from Penzance with bread and oil each Sunday.',
];
export const CHAPTER_2 = [
  'Tobias, a quiet fisherman, worried that the sea was rising higher each year.',
  'Mara told him the lamp had never once gone dark.',
  // The listener's position (65 s) is inside the sentence above; everything below is unheard.
  'On the fifth night a stranger named Captain Elias Thorne washed ashore.',
  'Thorne carried a map of Lundy marked in red ink.',
  'He said the lighthouse hid a fortune in smuggled gold.',
];
export const SECONDS = 14;
export const POSITION = 65;
export const HEARD = [...CHAPTER_1, ...CHAPTER_2.slice(0, 2)];
export const UNHEARD = CHAPTER_2.slice(2);
export const SPOILERS = ['Thorne', 'Elias', 'Lundy', 'stranger', 'map', 'gold', 'smuggled', 'fifth night', 'red ink'];

export function lighthouse(): { book: Book; text: BookText } {
  const sentences = [...CHAPTER_1, ...CHAPTER_2];
  const { text, timing } = timedText(sentences, SECONDS);
  const book: Book = finishedBook({
    id: randomUUID(),
    title: 'The Keeper',
    description: 'A lighthouse keeper and her brother on a storm coast.',
    durationSeconds: sentences.length * SECONDS,
    chapters: [
      { title: 'Chapter 1', order: 1, duration: CHAPTER_1.length * SECONDS },
      { title: 'The Stranger', order: 2, duration: CHAPTER_2.length * SECONDS },
    ],
    analysis: {
      themes: ['isolation', 'duty'],
      characters: [
        { name: 'Mara Quill', role: 'protagonist' },
        { name: 'Elias Thorne', role: 'major character' },
        { name: 'Tobias', role: 'minor character' },
      ],
      setting: { time: 'in 1893', place: 'Gull Island' },
      discussion_questions: [
        'Why does Elias Thorne come to Gull Island?',
        'What keeps Mara Quill on Gull Island?',
        'How does the sea shape the lives of Mara and Tobias?',
      ],
    },
  });
  return { book, text: { text, timing } };
}
