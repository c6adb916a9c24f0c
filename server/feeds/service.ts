/**
 * Private podcast feeds: a book's chapters (or every finished book's) as episodes a podcast app
 * plays without signing in. The feed's token is the only credential: 256 bits of HMAC of the
 * feed's id under a key derived from the token secret, so the server can show the address again
 * while the database keeps only its SHA-256. Deleting the feed ends its address and every episode
 * link at once; a feed answers nothing but its own book(s), and 404 for anything else. Beside
 * its audio, each episode has its chapters (JSON) and its transcript (WebVTT), each behind a link
 * signed for it alone.
 */
import { createHash, createHmac } from 'node:crypto';
import { DomainError } from '../errors';
import type { BookSource, ExportBook } from '../books/source';
import type { CoverMaker } from '../exports/cover';
import { chapterTag } from '../exports/tags';
import type { FileStorage } from '../storage/types';
import { createFeedDocumentCache } from './document-cache';
import { chaptersDocument, episodeTranscript } from './episode-companions';
import { createEpisodeLinks, type EpisodeFile } from './episode-links';
import { createFeedRenderer, LIBRARY_FEED_TITLE } from './feed-document';
import { newFeedId, type FeedRecord, type FeedRepository } from './repository';

const FEED_NOT_FOUND = 'Feed not found';

export interface FeedView {
  id: string;
  /** The path of the feed (`/feeds/{token}.xml`). */
  path: string;
  jobId: string | null;
  title: string;
  createdAt: Date;
}

export interface Episode {
  key: string;
  /** The chapter's ID3 tag, sent in front of its stored audio. */
  tag: Buffer;
}

/** A feed's RSS as a podcast app asks for it: validators first, the document only when needed. */
export interface FeedDocument {
  /** Changes whenever the document would (its books, their versions, the server's address). */
  etag: string;
  lastModified: Date;
  xml(): Promise<string>;
}

export interface FeedService {
  create(userId: string, jobId: string | null): Promise<{ feed: FeedView; created: boolean }>;
  list(userId: string): Promise<FeedView[]>;
  remove(userId: string, id: string): Promise<void>;
  /** The RSS document; `base` is the server's origin for absolute links. */
  rss(token: string, base: string): Promise<FeedDocument>;
  /** A chapter behind a signed episode link (./episode-links.ts). */
  episode(link: EpisodeLink): Promise<Episode>;
  cover(link: { feedId: string; jobId: string; signature: string }): Promise<Buffer>;
  /** An episode's chapters document (Podcasting 2.0 JSON chapters), times in its audio. */
  chapters(link: EpisodeLink): Promise<string>;
  /** An episode's transcript (WebVTT), one cue per sentence, times in its audio; 404 without a timing map. */
  transcript(link: EpisodeLink): Promise<string>;
}

/** A signed link to one of a chapter's files. */
export interface EpisodeLink {
  feedId: string;
  jobId: string;
  chapter: number;
  signature: string;
}

/** How long one reading of a feed's state answers its fetches. */
const STATE_FRESH_MS = 1000;

interface FinishedBook {
  id: string;
  completedAt: Date;
}

export function deriveFeedSecret(jwtSecret: Uint8Array): Buffer {
  return createHmac('sha256', Buffer.from(jwtSecret)).update('lectio podcast feeds v1').digest();
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The feed and its books' completion times: whether the feed changed is told by these alone (two
 * small queries), the books themselves are read only when its document must be built again.
 * Fetches of one feed within a second share one reading (podcast apps and crowds of listeners
 * ask at once); a deletion here is seen at once, on another server process within that second.
 */
function createStateReader(
  resolve: (token: string) => Promise<FeedRecord>,
  finishedVersions: (userId: string, jobId: string | null) => Promise<FinishedBook[]>,
) {
  const states = new Map<string, { at: number; state: Promise<{ feed: FeedRecord; finished: FinishedBook[] }> }>();
  return {
    recent(token: string) {
      const key = hash(token);
      const now = Date.now();
      const kept = states.get(key);
      if (kept !== undefined && now - kept.at < STATE_FRESH_MS) return kept.state;
      if (states.size > 1000) for (const [k, v] of states) if (now - v.at >= STATE_FRESH_MS) states.delete(k);
      const state = (async () => {
        const feed = await resolve(token);
        const finished = await finishedVersions(feed.userId, feed.jobId);
        if (feed.jobId !== null && finished.length === 0) throw new DomainError('not_found', FEED_NOT_FOUND);
        return { feed, finished };
      })();
      states.set(key, { at: now, state });
      state.catch(() => states.delete(key));
      return state;
    },
    /** A deleted feed's reading goes at once. */
    forget(tokenHash: string) {
      states.delete(tokenHash);
    },
  };
}

export function createFeedService(deps: {
  repo: FeedRepository;
  books: BookSource;
  covers: CoverMaker;
  storage: FileStorage;
  /** The user's finished top-level books (only `jobId`, when given), oldest first, with when each was finished. */
  finishedVersions(userId: string, jobId: string | null): Promise<FinishedBook[]>;
  /** Titles of the user's books, for the list. */
  titles(userId: string, jobIds: string[]): Promise<Map<string, string>>;
  secret: Buffer;
}): FeedService {
  const { repo, books } = deps;
  const tokenOf = (id: string) => createHmac('sha256', deps.secret).update(id).digest('base64url');
  const pathOf = (id: string) => `/feeds/${tokenOf(id)}.xml`;
  const links = createEpisodeLinks(deps.secret);
  const cache = createFeedDocumentCache();

  async function resolve(token: string): Promise<FeedRecord> {
    const feed = await repo.byTokenHash(hash(token));
    if (feed === null) throw new DomainError('not_found', FEED_NOT_FOUND);
    return feed;
  }

  /** A book the feed serves: its own, or (library feed) any finished book of its owner. */
  async function bookOf(feed: FeedRecord, jobId: string): Promise<ExportBook> {
    if (feed.jobId !== null && feed.jobId !== jobId) throw new DomainError('not_found', FEED_NOT_FOUND);
    try {
      return await books.book(feed.userId, jobId);
    } catch (error) {
      // Another user's book, a chapter, one not finished: this feed knows nothing of it.
      if (error instanceof DomainError) throw new DomainError('not_found', FEED_NOT_FOUND);
      throw error;
    }
  }

  /** The feed's books, in the order it lists them (read only to build its document). */
  async function booksOf(feed: FeedRecord, ids: readonly string[]): Promise<ExportBook[]> {
    if (feed.jobId !== null) return [await bookOf(feed, feed.jobId)];
    const found = await Promise.all(ids.map((id) => books.book(feed.userId, id).catch(() => null)));
    return found.filter((b): b is ExportBook => b !== null);
  }

  /** The book behind a signed link, when the link was made for that file of this feed's book. */
  async function linked(feedId: string, jobId: string, file: EpisodeFile['file'], signature: string) {
    const feed = await repo.byId(feedId);
    if (feed === null) throw new DomainError('not_found', FEED_NOT_FOUND);
    const book = await bookOf(feed, jobId);
    if (!links.verify({ feedId, jobId, file, version: book.version }, signature)) {
      throw new DomainError('not_found', FEED_NOT_FOUND);
    }
    return book;
  }

  /** The book and chapter behind a link signed for one of the chapter's files. */
  async function linkedChapter(link: EpisodeLink, file: EpisodeFile['file']) {
    const book = await linked(link.feedId, link.jobId, file, link.signature);
    const chapter = book.chapters[link.chapter - 1];
    if (chapter === undefined) throw new DomainError('not_found', FEED_NOT_FOUND);
    return { book, chapter };
  }

  const states = createStateReader(resolve, deps.finishedVersions);
  const render = createFeedRenderer({ covers: deps.covers, storage: deps.storage, links, cache });

  return {
    async create(userId, jobId) {
      if (jobId !== null) await books.book(userId, jobId);
      const existing = await repo.find(userId, jobId);
      const id = existing?.id ?? newFeedId();
      const { feed, created } =
        existing !== null
          ? { feed: existing, created: false }
          : await repo.create({ id, userId, jobId, tokenHash: hash(tokenOf(id)) });
      const title =
        jobId === null ? LIBRARY_FEED_TITLE : ((await deps.titles(userId, [jobId])).get(jobId) ?? 'Audiobook');
      return { feed: { id: feed.id, path: pathOf(feed.id), jobId, title, createdAt: feed.createdAt }, created };
    },

    async list(userId) {
      const feeds = await repo.list(userId);
      const titles = await deps.titles(
        userId,
        feeds.flatMap((f) => (f.jobId === null ? [] : [f.jobId])),
      );
      return feeds.map((f) => ({
        id: f.id,
        path: pathOf(f.id),
        jobId: f.jobId,
        title: f.jobId === null ? LIBRARY_FEED_TITLE : (titles.get(f.jobId) ?? 'Audiobook'),
        createdAt: f.createdAt,
      }));
    },

    async remove(userId, id) {
      if (!(await repo.delete(userId, id))) throw new DomainError('not_found', FEED_NOT_FOUND);
      cache.forget(id);
      states.forget(hash(tokenOf(id)));
    },

    async rss(token, base) {
      const { feed, finished } = await states.recent(token);
      const key = [base, ...finished.map((b) => `${b.id}:${b.completedAt.toISOString()}`)].join('\n');
      const build = async () =>
        render(
          feed,
          await booksOf(
            feed,
            finished.map((b) => b.id),
          ),
          base,
          `${base}/feeds/${token}.xml`,
        );
      return {
        etag: `"${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`,
        lastModified: new Date(Math.max(feed.createdAt.getTime(), ...finished.map((b) => b.completedAt.getTime()))),
        xml: () => cache.xml(feed.id, key, build),
      };
    },

    async episode(link) {
      const { book, chapter } = await linkedChapter(link, link.chapter);
      return { key: chapter.fileKey, tag: await chapterTag(book, chapter, await deps.covers.jpeg(book)) };
    },

    async cover({ feedId, jobId, signature }) {
      return deps.covers.jpeg(await linked(feedId, jobId, 'cover', signature));
    },

    async chapters(link) {
      const { book, chapter } = await linkedChapter(link, { chapter: link.chapter, companion: 'chapters' });
      return chaptersDocument(book, chapter);
    },

    async transcript(link) {
      const { book, chapter } = await linkedChapter(link, { chapter: link.chapter, companion: 'transcript' });
      return episodeTranscript(book, chapter, (order) => books.transcript(book.userId, book.id, order));
    },
  };
}
