/**
 * What makes a feed cheap to fetch again and again: its RSS kept per feed until its book(s) change,
 * and each book's chapter tag lengths (the enclosures' lengths) kept per book version. Building a
 * tag copies the cover into it, so a book's tags are measured one chapter at a time, yielding to
 * the event loop between them; concurrent fetches of a feed that is not cached share one build.
 * Both maps are bounded: the oldest entries go first.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ExportBook } from '../books/source';
import { chapterTag } from '../exports/tags';

const MAX_FEEDS = 1000;
const MAX_BOOKS = 2000;

/** A Map that forgets its oldest entry past `max` entries. */
function bounded<K, V>(max: number) {
  const map = new Map<K, V>();
  return {
    get: (key: K) => map.get(key),
    set(key: K, value: V) {
      map.delete(key);
      map.set(key, value);
      if (map.size > max) map.delete(map.keys().next().value as K);
    },
    delete: (key: K) => map.delete(key),
  };
}

export interface FeedDocumentCache {
  /** The feed's RSS for `key` (its books and versions): the kept one, or `build`'s, shared by concurrent callers. */
  xml(feedId: string, key: string, build: () => Promise<string>): Promise<string>;
  /** Bytes of each chapter's ID3 tag (with `cover`), in chapter order. */
  tagLengths(book: ExportBook, cover: Buffer): Promise<number[]>;
  forget(feedId: string): void;
}

export function createFeedDocumentCache(): FeedDocumentCache {
  const documents = bounded<string, { key: string; xml: Promise<string> }>(MAX_FEEDS);
  const lengths = bounded<string, Promise<number[]>>(MAX_BOOKS);

  async function measure(book: ExportBook, cover: Buffer): Promise<number[]> {
    const out: number[] = [];
    for (const chapter of book.chapters) {
      out.push((await chapterTag(book, chapter, cover)).length);
      await yieldToLoop();
    }
    return out;
  }

  return {
    xml(feedId, key, build) {
      const kept = documents.get(feedId);
      if (kept !== undefined && kept.key === key) return kept.xml;
      const xml = build();
      documents.set(feedId, { key, xml });
      // A failed build is not kept: the next fetch tries again.
      xml.catch(() => {
        if (documents.get(feedId)?.xml === xml) documents.delete(feedId);
      });
      return xml;
    },
    tagLengths(book, cover) {
      const key = `${book.id}\n${book.version}\n${cover.length}`;
      const kept = lengths.get(key);
      if (kept !== undefined) return kept;
      const measured = measure(book, cover);
      lengths.set(key, measured);
      measured.catch(() => lengths.delete(key));
      return measured;
    },
    forget: (feedId) => void documents.delete(feedId),
  };
}
