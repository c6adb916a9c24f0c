/**
 * A feed's RSS document: one book's chapters as its episodes, or (the library feed) every finished
 * book's, a season each; their links signed (./episode-links.ts), their sizes counting the ID3 tag
 * sent in front of each chapter's audio. Each episode links its chapters JSON, and its WebVTT
 * transcript when its audio has a timing map (./episode-companions.ts).
 */
import { timingKey } from '../books/storage-keys';
import type { ExportBook } from '../books/source';
import type { CoverMaker } from '../exports/cover';
import { DEFAULT_ARTIST } from '../exports/tags';
import type { FileStorage } from '../storage/types';
import type { createFeedDocumentCache } from './document-cache';
import { episodeTitle } from './episode-companions';
import type { createEpisodeLinks, EpisodeFile } from './episode-links';
import type { FeedRecord } from './repository';
import { renderRss, type FeedEpisode } from './rss';

export const LIBRARY_FEED_TITLE = 'Lectio library';

export function createFeedRenderer(deps: {
  covers: CoverMaker;
  storage: FileStorage;
  links: ReturnType<typeof createEpisodeLinks>;
  cache: ReturnType<typeof createFeedDocumentCache>;
}) {
  const { links, cache } = deps;

  async function episodesOf(feed: FeedRecord, book: ExportBook, base: string, season?: number): Promise<FeedEpisode[]> {
    const cover = await deps.covers.jpeg(book);
    const tagLengths = await cache.tagLengths(book, cover);
    const published = new Date(book.version);
    return Promise.all(
      book.chapters.map(async (c, index) => {
        const [stored, timing] = await Promise.all([
          deps.storage.stat(c.fileKey),
          deps.storage.stat(timingKey(c.fileKey)),
        ]);
        const size = stored?.size ?? 0;
        const link = { feedId: feed.id, jobId: book.id, version: book.version };
        const url = (file: EpisodeFile['file']) => `${base}${links.path({ ...link, file })}`;
        return {
          title: episodeTitle(book, c),
          description: `Chapter ${c.order} of ${book.chapters.length} of ${book.title}`,
          guid: `${book.id}:${c.order}:${book.version}`,
          url: url(c.order),
          lengthBytes: (tagLengths[index] ?? 0) + size,
          durationSeconds: c.duration,
          episode: c.order,
          ...(season !== undefined && { season }),
          // A second apart, in reading order: apps that sort by date keep the chapters in order.
          published: new Date(published.getTime() + c.order * 1000),
          chaptersUrl: url({ chapter: c.order, companion: 'chapters' }),
          transcriptUrl: timing === null ? null : url({ chapter: c.order, companion: 'transcript' }),
        };
      }),
    );
  }

  const coverUrl = (feed: FeedRecord, book: ExportBook, base: string) =>
    `${base}${links.path({ feedId: feed.id, jobId: book.id, file: 'cover', version: book.version })}`;

  return async function render(feed: FeedRecord, listed: ExportBook[], base: string, selfUrl: string): Promise<string> {
    if (feed.jobId !== null) {
      const book = listed[0]!;
      return renderRss({
        title: book.title,
        author: book.author ?? DEFAULT_ARTIST,
        description: `${book.title}, an audiobook made with Lectio: ${book.chapters.length} chapters.`,
        selfUrl,
        imageUrl: coverUrl(feed, book, base),
        episodes: await episodesOf(feed, book, base),
      });
    }
    const episodes: FeedEpisode[] = [];
    for (const [index, book] of listed.entries()) episodes.push(...(await episodesOf(feed, book, base, index + 1)));
    return renderRss({
      title: LIBRARY_FEED_TITLE,
      author: DEFAULT_ARTIST,
      description: `Every finished audiobook of this Lectio library: ${listed.length} books.`,
      selfUrl,
      imageUrl: listed[0] === undefined ? null : coverUrl(feed, listed[0], base),
      episodes,
    });
  };
}
