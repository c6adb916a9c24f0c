/**
 * FOR TESTS AND BENCHES: a finished book's read model (server/books/book.ts) as the jobs repository
 * answers it, for the assistant's in-memory book source.
 */
import { randomUUID } from 'node:crypto';
import { parseAnalysis, type Book } from '../books/book';
import type { BookText } from '../books/text';
import type { TimingEntry } from '../books/timing';

export function finishedBook(fields: {
  id?: string;
  title: string;
  description?: string | null;
  durationSeconds: number | null;
  /** In book order; none of them has an audio file or a job of its own. */
  chapters?: { title: string; order: number; duration: number | null }[];
  /** As the analyze step writes it (snake_case). */
  analysis?: unknown;
}): Book {
  const now = new Date();
  return {
    id: fields.id ?? randomUUID(),
    userId: randomUUID(),
    parentJobId: null,
    chapterOrder: null,
    jobType: (fields.chapters ?? []).length > 0 ? 'book_processing' : 'text_to_audio',
    title: fields.title,
    description: fields.description ?? null,
    status: 'COMPLETED',
    provider: 'openai',
    outputFileKey: null,
    inputFileKey: null,
    chaptersReady: 0,
    opening: null,
    openingReady: false,
    chapterTitle: null,
    author: null,
    cover: null,
    durationSeconds: fields.durationSeconds,
    sourceBytes: null,
    fileSizeBytes: null,
    format: 'mp3',
    ttsEngine: 'espeak-ng',
    chapters: (fields.chapters ?? []).map((c) => ({ ...c, fileKey: null, jobId: null })),
    analysis: parseAnalysis(fields.analysis),
    createdAt: now,
    completedAt: now,
  };
}

/**
 * A text made of `sentences`, each spoken for `secondsEach` one after the other, and its timing
 * map. `separator(i)` goes before sentence i (a space by default; '\n\n' starts a paragraph).
 */
export function timedText(
  sentences: readonly string[],
  secondsEach: number,
  separator: (index: number) => string = () => ' ',
): BookText {
  const timing: TimingEntry[] = [];
  let text = '';
  for (const [i, sentence] of sentences.entries()) {
    if (i > 0) text += separator(i);
    timing.push({
      start: i * secondsEach,
      end: (i + 1) * secondsEach,
      char_start: text.length,
      char_end: text.length + sentence.length,
    });
    text += sentence;
  }
  return { text, timing };
}
