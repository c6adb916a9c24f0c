/**
 * The spoiler bound (see ./tools.ts): the listener's position in one of their books, and the part of
 * the book they have heard there, the only text any tool reads.
 */
import type { Book } from '../books/book';
import type { BookSource } from '../books/source';
import type { BookText } from '../books/text';
import type { TimingEntry } from '../books/timing';
import { BookIndexCache, HeardIndex, type IndexedSentence } from './heard-index';
import type { ListeningHistory } from './library';
import { ToolError } from './tool-definitions';
import type { TutorState } from './tutor';

/** Characters of the text the listener has heard at `positionSeconds` (0 when nothing). */
export function spoilerBound(timing: readonly TimingEntry[], positionSeconds: number): number {
  let bound = 0;
  for (const entry of timing) {
    if (entry.start > positionSeconds) break;
    bound = Math.max(bound, entry.char_end);
  }
  return bound;
}

export interface Heard {
  book: Book;
  /** The text before the bound: the only book text any tool uses. */
  text: string;
  /** The heard sentences, in order (index.heard(heardCount)). */
  sentences: IndexedSentence[];
  /** The book's search index; search it with heardCount only (HeardIndex.find). */
  index: HeardIndex;
  heardCount: number;
  positionSeconds: number;
  positionSource: 'client' | 'saved' | 'none';
}

export interface ToolContext {
  userId: string;
  books: BookSource;
  /** The session's tutoring dialogues per book (kept by the session across reconnects; default: this toolbox's own). */
  tutor?: Map<string, TutorState>;
  /** Book indexes shared with other connections of the process (default: this toolbox's own). */
  indexes?: BookIndexCache;
  /** The user's playback history (default: the saved positions of `books`, in library order). */
  history?: ListeningHistory;
  /** A position the client sent for this book (seconds), preferred over the saved one. */
  clientPosition(jobId: string): number | undefined;
  /** Questions the tutor already asked in the kept conversation about a book (never asked again). */
  pastQuestions?: (jobId: string) => Promise<string[]>;
}

/** One of the user's finished books, where the listener is in it, and what they have heard of it. */
export function createHeardReader(ctx: ToolContext) {
  async function book(jobIdArg: string): Promise<Book> {
    const found = await ctx.books.findCompleted(ctx.userId, jobIdArg);
    if (found === null) throw new ToolError('Book not found');
    return found;
  }

  async function position(jobIdArg: string): Promise<{ seconds: number; source: Heard['positionSource'] }> {
    const client = ctx.clientPosition(jobIdArg);
    if (client !== undefined) return { seconds: client, source: 'client' };
    const saved = await ctx.books.savedPosition(ctx.userId, jobIdArg);
    return saved === null ? { seconds: 0, source: 'none' } : { seconds: saved, source: 'saved' };
  }

  const indexes = ctx.indexes ?? new BookIndexCache();

  /** The book's text and index, read once (a finished book's text never changes). */
  function indexed(b: Book): Promise<{ source: BookText; index: HeardIndex } | null> {
    return indexes.get(ctx.userId, b.id, b.chapters, () => ctx.books.text(ctx.userId, b.id));
  }

  /** What the listener has heard of a finished book already read (`heard` reads it first). */
  async function heardOf(b: Book): Promise<Heard> {
    const pos = await position(b.id);
    const found = await indexed(b);
    const index = found?.index ?? (await HeardIndex.build({ text: '', timing: [] }, []));
    // No timing map: the bound cannot be placed, so nothing counts as heard.
    // Never played: nothing is heard yet (not even the sentence at 0 s).
    const none = found === null || pos.source === 'none';
    const bound = none ? 0 : spoilerBound(found.source.timing, pos.seconds);
    const heardCount = none ? 0 : index.heardCount(pos.seconds);
    const text = none ? '' : found.source.text.slice(0, bound);
    return {
      book: b,
      text,
      sentences: index.heard(heardCount),
      index,
      heardCount,
      positionSeconds: pos.seconds,
      positionSource: pos.source,
    };
  }

  async function heard(jobIdArg: string): Promise<Heard> {
    return heardOf(await book(jobIdArg));
  }

  return { book, position, heard, heardOf };
}

export type HeardReader = ReturnType<typeof createHeardReader>;
