/**
 * A book's text as its listeners follow it: the text the job read with its timing map, whose
 * character offsets point into that text. A book's chapter jobs have their own text and map; a
 * finished book's text is the whole book's, its map its chapters' joined.
 */
import type { FileStorage } from '../storage/types';
import type { Book } from './book';
import { readTextIfStored } from './read';
import { readTimingMap, type TimingEntry } from './timing';

export interface BookText {
  /** The job's whole source text (never hand it out unbounded: see the assistant's tools.heardText). */
  text: string;
  /** Sentences in time order, with UTF-16 offsets into `text`. */
  timing: TimingEntry[];
}

/**
 * The book's text and timing map; null when it has no audio or text yet, or either file is
 * missing, or the map is unreadable. A storage that fails otherwise fails the call.
 */
export async function readBookText(
  storage: FileStorage,
  book: Pick<Book, 'inputFileKey' | 'outputFileKey'>,
): Promise<BookText | null> {
  if (book.inputFileKey === null || book.outputFileKey === null) return null;
  const [text, timing] = await Promise.all([
    readTextIfStored(storage, book.inputFileKey),
    readTimingMap(storage, book.outputFileKey),
  ]);
  if (text === null || timing === null) return null;
  return { text, timing: [...timing].sort((a, b) => a.start - b.start || a.char_start - b.char_start) };
}
