/**
 * The ID3v2.4 tag of an MP3 the streaming route (`/media/...`) serves: the same tag a download's
 * chapter carries (title, the book as album, artist, track n/N, genre, cover), or the whole book's
 * with its chapter frames for a book's combined audio, put in front of the stored bytes as they are
 * sent. Only a finished book's audio is tagged: a chapter streamed while its book still converts is
 * sent as stored (its tag would otherwise change the file's length mid-conversion). Tags are kept
 * for a minute per file, so a player's many range requests build one.
 */
import type { BookSource, ExportBook } from '../books/source';
import type { CoverMaker } from './cover';
import { bookTag, chapterTag } from './tags';

/** How long a file's tag (or its absence) is reused. */
const TAG_TTL_MS = 60_000;
/** Files whose tag is kept at once (each holds the cover, tens of kilobytes). */
const MAX_CACHED = 200;

export interface MediaTagger {
  /** The tag to send in front of the stored file `key`, or null to send it as stored. */
  tagFor(key: string): Promise<Buffer | null>;
}

export interface StoredAudioOwner {
  /** The job whose audio is stored under `key`, with its owner and its book (when a chapter). */
  byOutputKey(key: string): Promise<{ id: string; userId: string; parentJobId: string | null } | null>;
}

export function createMediaTagger(deps: {
  jobs: StoredAudioOwner;
  books: BookSource;
  covers: CoverMaker;
  onError?: (error: unknown, key: string) => void;
  now?: () => number;
}): MediaTagger {
  const now = deps.now ?? Date.now;
  const cache = new Map<string, { tag: Buffer | null; until: number }>();

  async function finishedBook(key: string): Promise<ExportBook | null> {
    const job = await deps.jobs.byOutputKey(key);
    if (job === null) return null;
    try {
      return await deps.books.book(job.userId, job.parentJobId ?? job.id);
    } catch {
      return null; // not finished (or gone): sent as stored
    }
  }

  async function build(key: string): Promise<Buffer | null> {
    const book = await finishedBook(key);
    if (book === null) return null;
    const cover = await deps.covers.jpeg(book);
    // A book's combined audio (a single text's only file) carries the book's tag with its chapters.
    if (key === book.audioKey) return bookTag(book, cover);
    const chapter = book.chapters.find((c) => c.fileKey === key);
    return chapter === undefined ? null : chapterTag(book, chapter, cover);
  }

  return {
    async tagFor(key) {
      const hit = cache.get(key);
      if (hit !== undefined && hit.until > now()) return hit.tag;
      // Streaming never fails for want of a tag: a file whose tag cannot be made goes as stored.
      const tag = await build(key).catch((error: unknown) => {
        deps.onError?.(error, key);
        return null;
      });
      cache.delete(key);
      cache.set(key, { tag, until: now() + TAG_TTL_MS });
      // The oldest entries go first (a Map keeps insertion order).
      for (const old of cache.keys()) {
        if (cache.size <= MAX_CACHED) break;
        cache.delete(old);
      }
      return tag;
    },
  };
}
