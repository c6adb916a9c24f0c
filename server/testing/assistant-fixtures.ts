/**
 * FOR TESTS AND THE BENCHMARK: a small book whose character Mr. Rochester is first named after
 * the listener's position (13 s), as the pipeline would leave it (text, timing map, analysis).
 */
import { randomUUID } from 'node:crypto';
import type { DbExecutor } from '../db/types';
import { insertJob } from './library-fixtures';
import type { FileStorage } from '../storage/types';
import type { BookText } from '../books/text';
import type { Book } from '../books/book';
import { finishedBook, timedText } from './book-fixture';

export const ROCHESTER_SENTENCES = [
  'Jane Eyre lived at Gateshead with her cruel aunt, Mrs. Reed.',
  'There was no possibility of taking a walk that day.',
  'Jane was sent away to Lowood school, where she met Helen Burns.',
  'Helen Burns taught Jane patience and faith.',
  'Years later, Jane became a governess at Thornfield Hall.',
  // The listener's position (13 s) is inside the sentence above; everything below is unheard.
  'The master of the house was a dark and brooding man named Mr. Rochester.',
  'Mr. Rochester fell from his horse on the icy lane.',
  'Jane heard strange laughter from the third floor at Thornfield.',
] as const;

/** Seconds per sentence in the timing map. */
export const SENTENCE_SECONDS = 3;
/** A position inside sentence 5 (index 4): sentences 0-4 are heard, 5-7 are not. */
export const HEARD_POSITION = 13;
export const HEARD_SENTENCES = 5;

export const ROCHESTER_ANALYSIS = {
  themes: ['independence', 'love', 'faith'],
  characters: [
    { name: 'Jane Eyre', role: 'protagonist' },
    { name: 'Mr. Rochester', role: 'major character' },
    { name: 'Helen Burns', role: 'minor character' },
    { name: 'Bertha Mason', role: 'major character' },
  ],
  setting: { time: '19th century', place: 'England' },
  discussion_questions: [
    'Why does Jane leave Thornfield after learning about Bertha Mason?',
    "How does Helen Burns shape Jane's view of suffering?",
  ],
};

export function rochesterText(): BookText {
  return timedText(ROCHESTER_SENTENCES, SENTENCE_SECONDS);
}

export function rochesterBook(id: string = randomUUID()): Book {
  return finishedBook({
    id,
    title: 'Jane Eyre',
    description: 'An orphan governess and her independence.',
    durationSeconds: ROCHESTER_SENTENCES.length * SENTENCE_SECONDS,
    chapters: [
      { title: 'Gateshead', order: 1, duration: 6 },
      { title: 'Lowood', order: 2, duration: 6 },
      { title: 'Thornfield', order: 3, duration: 12 },
    ],
    analysis: ROCHESTER_ANALYSIS,
  });
}

/** Writes the book as a COMPLETED job of `userId` (text, audio key with timing map, analysis). */
export async function seedRochesterBook(
  db: DbExecutor,
  storage: FileStorage,
  userId: string,
  options: { positionSeconds?: number } = {},
): Promise<string> {
  const id = randomUUID();
  const { text, timing } = rochesterText();
  const book = rochesterBook(id);
  await storage.write(`sources/${id}.txt`, new TextEncoder().encode(text));
  await storage.write(`audio/${id}.mp3.timing.json`, new TextEncoder().encode(JSON.stringify(timing)));
  await insertJob(db, {
    id,
    userId,
    title: book.title,
    config: {
      provider: 'openai',
      voice_config: { provider: 'openai', voice_id: 'alloy' },
      tutoring_analysis: ROCHESTER_ANALYSIS,
    },
    // As finalize writes them; this book has one audio file, so its chapters name none of their own.
    resultData: {
      duration: book.durationSeconds,
      chapters: book.chapters.map((c) => ({ title: c.title, order: c.order, duration: c.duration, file_key: '' })),
    },
    inputFileKey: `sources/${id}.txt`,
    outputFileKey: `audio/${id}.mp3`,
    duration: book.durationSeconds,
  });
  if (options.positionSeconds !== undefined) {
    await db.query(
      `INSERT INTO playback_progress (id, user_id, job_id, position_seconds, percentage_complete, last_played_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 0, now(), now(), now())`,
      [randomUUID(), userId, id, options.positionSeconds],
    );
  }
  return id;
}
