/**
 * Private podcast feeds: a book's chapters (or every finished book's) as episodes a podcast app
 * plays without signing in. The feed's token is the only credential: 256 bits of HMAC of the
 * feed's id under a key derived from the token secret, so the server can show the address again
 * while the database keeps only its SHA-256. Deleting the feed ends its address and every episode
 * link at once; a feed answers nothing but its own book(s), and 404 for anything else.
 */
import { createHash, createHmac } from 'node:crypto';
import { DomainError } from '../errors';
import type { BookSource, ExportBook } from '../exports/book';
import type { CoverMaker } from '../exports/cover';
import { chapterTag, DEFAULT_ARTIST } from '../exports/tags';
import type { FileStorage } from '../storage/types';
import { newFeedId, type FeedRecord, type FeedRepository } from './repository';
import { renderRss, type FeedEpisode } from './rss';

export const LIBRARY_FEED_TITLE = 'Lectio library';
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

export interface FeedService {
  create(userId: string, jobId: string | null): Promise<{ feed: FeedView; created: boolean }>;
  list(userId: string): Promise<FeedView[]>;
  remove(userId: string, id: string): Promise<void>;
  /** The RSS document; `base` is the server's origin for absolute links. */
  rss(token: string, base: string): Promise<string>;
  episode(token: string, jobId: string, chapter: number): Promise<Episode>;
  cover(token: string, jobId: string): Promise<Buffer>;
}

export function deriveFeedSecret(jwtSecret: Uint8Array): Buffer {
  return createHmac('sha256', Buffer.from(jwtSecret)).update('lectio podcast feeds v1').digest();
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export function createFeedService(deps: {
  repo: FeedRepository;
  books: BookSource;
  covers: CoverMaker;
  storage: FileStorage;
  /** The user's finished top-level books, oldest first. */
  finishedBookIds(userId: string): Promise<string[]>;
  /** Titles of the user's books, for the list. */
  titles(userId: string, jobIds: string[]): Promise<Map<string, string>>;
  secret: Buffer;
}): FeedService {
  const { repo, books } = deps;
  const tokenOf = (id: string) => createHmac('sha256', deps.secret).update(id).digest('base64url');
  const pathOf = (id: string) => `/feeds/${tokenOf(id)}.xml`;

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

  async function episodesOf(book: ExportBook, base: string, token: string, season?: number): Promise<FeedEpisode[]> {
    const cover = await deps.covers.jpeg(book);
    const published = new Date(book.version);
    return Promise.all(
      book.chapters.map(async (c) => {
        const size = (await deps.storage.stat(c.fileKey))?.size ?? 0;
        return {
          title: book.chapters.length === 1 ? book.title : `${book.title}: ${c.title}`,
          description: `Chapter ${c.order} of ${book.chapters.length} of ${book.title}`,
          guid: `${book.id}:${c.order}:${book.version}`,
          url: `${base}/feeds/${token}/${book.id}/${c.order}.mp3`,
          lengthBytes: (await chapterTag(book, c, cover)).length + size,
          durationSeconds: c.duration,
          episode: c.order,
          ...(season !== undefined && { season }),
          // A second apart, in reading order: apps that sort by date keep the chapters in order.
          published: new Date(published.getTime() + c.order * 1000),
        };
      }),
    );
  }

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
    },

    async rss(token, base) {
      const feed = await resolve(token);
      const selfUrl = `${base}/feeds/${token}.xml`;
      if (feed.jobId !== null) {
        const book = await bookOf(feed, feed.jobId);
        return renderRss({
          title: book.title,
          author: book.author ?? DEFAULT_ARTIST,
          description: `${book.title}, an audiobook made with Lectio: ${book.chapters.length} chapters.`,
          selfUrl,
          imageUrl: `${base}/feeds/${token}/${book.id}/cover.jpg`,
          episodes: await episodesOf(book, base, token),
        });
      }
      const ids = await deps.finishedBookIds(feed.userId);
      const episodes: FeedEpisode[] = [];
      for (const [index, id] of ids.entries()) {
        const book = await books.book(feed.userId, id).catch(() => null);
        if (book !== null) episodes.push(...(await episodesOf(book, base, token, index + 1)));
      }
      return renderRss({
        title: LIBRARY_FEED_TITLE,
        author: DEFAULT_ARTIST,
        description: `Every finished audiobook of this Lectio library: ${ids.length} books.`,
        selfUrl,
        imageUrl: ids[0] === undefined ? null : `${base}/feeds/${token}/${ids[0]}/cover.jpg`,
        episodes,
      });
    },

    async episode(token, jobId, chapter) {
      const book = await bookOf(await resolve(token), jobId);
      const c = book.chapters[chapter - 1];
      if (c === undefined) throw new DomainError('not_found', FEED_NOT_FOUND);
      return { key: c.fileKey, tag: await chapterTag(book, c, await deps.covers.jpeg(book)) };
    },

    async cover(token, jobId) {
      return deps.covers.jpeg(await bookOf(await resolve(token), jobId));
    },
  };
}
