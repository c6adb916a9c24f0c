/**
 * The ID3v2.4 tag of an MP3 the streaming route (`/media/...`) serves: the same tag a download's
 * chapter carries (title, the book as album, artist, track n/N, genre, cover), or the whole book's
 * with its chapter frames for a book's combined audio, put in front of the stored bytes as they are
 * sent. Only a finished book's audio is tagged: a chapter streamed while its book still converts is
 * sent as stored (its tag would otherwise change the file's length mid-conversion). A player's many
 * range requests build one tag: tags are kept for a few hundred files, their lengths for many more,
 * so a range request into the audio (the player's usual one) needs no tag at all (`prefixFor`).
 * Both are kept until their owner's jobs change while the database announces such changes
 * (jobs/list-cache.ts), else for a minute.
 */
import type { BookSource, ExportBook } from '../books/source';
import type { CoverMaker } from './cover';
import type { LazyPrefix } from '../audio/range';
import type { ListCache, Stamp } from '../jobs/list-cache';
import { bookTag, chapterTag } from './tags';

/** How long a file's tag (or its absence) is reused when changes to its book may go unannounced. */
const TAG_TTL_MS = 60_000;
/** Files whose tag is kept at once (each holds the cover, tens of kilobytes). */
const MAX_CACHED = 200;
/** Files whose tag's length is kept at once (a number each: one per listener of a crowd). */
const MAX_LENGTHS = 50_000;

export interface MediaTagger {
  /** The tag to send in front of the stored file `key`, or null to send it as stored. */
  tagFor(key: string): Promise<Buffer | null>;
  /** The same tag known by its length first: its bytes are made only when an answer sends them. */
  prefixFor(key: string): Promise<LazyPrefix | null>;
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
  /** Announces changes to a user's jobs (their titles, covers, chapters): what was made from them is kept until then. */
  changes?: Pick<ListCache, 'stamp' | 'unchanged'>;
  now?: () => number;
}): MediaTagger {
  const now = deps.now ?? Date.now;
  /** Whose book a tag was made from, and their jobs' stamp before it was read. */
  type Owner = { userId: string; stamp: Stamp } | null;
  interface Kept {
    until: number;
    owner: Owner;
  }
  const cache = new Map<string, Kept & { tag: Buffer | null }>();
  const lengths = new Map<string, Kept & { length: number | null }>();

  /** Made before `until`, or from a book nothing has changed in since (as the database announces). */
  function current(kept: Kept | undefined): boolean {
    if (kept === undefined) return false;
    if (kept.until > now()) return true;
    return (
      kept.owner !== null && deps.changes !== undefined && deps.changes.unchanged(kept.owner.userId, kept.owner.stamp)
    );
  }

  /** The file's tag, and whose book it was made from (null: kept for the minute only). */
  async function build(key: string): Promise<{ tag: Buffer | null; owner: Owner }> {
    const job = await deps.jobs.byOutputKey(key);
    if (job === null) return { tag: null, owner: null };
    const owner = deps.changes === undefined ? null : { userId: job.userId, stamp: deps.changes.stamp(job.userId) };
    let book: ExportBook;
    try {
      book = await deps.books.book(job.userId, job.parentJobId ?? job.id);
    } catch {
      return { tag: null, owner }; // not finished (or gone): sent as stored
    }
    const cover = await deps.covers.jpeg(book);
    // A book's combined audio (a single text's only file) carries the book's tag with its chapters.
    if (key === book.audioKey) return { tag: await bookTag(book, cover), owner };
    const chapter = book.chapters.find((c) => c.fileKey === key);
    return { tag: chapter === undefined ? null : await chapterTag(book, chapter, cover), owner };
  }

  function keep<T>(map: Map<string, T>, key: string, value: T, max: number): void {
    map.delete(key);
    map.set(key, value);
    // The oldest entries go first (a Map keeps insertion order).
    for (const old of map.keys()) {
      if (map.size <= max) break;
      map.delete(old);
    }
  }

  async function tagFor(key: string): Promise<Buffer | null> {
    const hit = cache.get(key);
    if (hit !== undefined && current(hit)) return hit.tag;
    // Streaming never fails for want of a tag: a file whose tag cannot be made goes as stored.
    const { tag, owner } = await build(key).catch((error: unknown) => {
      deps.onError?.(error, key);
      return { tag: null, owner: null };
    });
    const kept = { until: now() + TAG_TTL_MS, owner };
    keep(cache, key, { ...kept, tag }, MAX_CACHED);
    keep(lengths, key, { ...kept, length: tag?.length ?? null }, MAX_LENGTHS);
    return tag;
  }

  return {
    tagFor,
    async prefixFor(key) {
      const known = lengths.get(key);
      if (known !== undefined && current(known)) {
        if (known.length === null) return null;
        return { length: known.length, bytes: async () => (await tagFor(key)) ?? new Uint8Array(0) };
      }
      const tag = await tagFor(key);
      return tag === null ? null : { length: tag.length, bytes: () => Promise.resolve(tag) };
    },
  };
}
