/**
 * The podcast feed document: RSS 2.0 with the iTunes namespace, the form every podcast app reads,
 * and the Podcasting 2.0 namespace for each episode's chapters and transcript.
 * Text goes through escapeXml (the five XML characters escaped, characters XML cannot hold
 * dropped), so any title makes a well-formed feed.
 */
import { escapeXml } from '../books/xml';

export interface FeedEpisode {
  title: string;
  description: string;
  guid: string;
  url: string;
  lengthBytes: number;
  durationSeconds: number;
  episode: number;
  /** The book's place in a library feed. */
  season?: number;
  published: Date;
  /** The episode's chapters (Podcasting 2.0 JSON chapters). */
  chaptersUrl: string;
  /** The episode's transcript (WebVTT), when its read-along has a timing map. */
  transcriptUrl: string | null;
}

export interface FeedDocument {
  title: string;
  author: string;
  description: string;
  /** The feed's own address (atom:link rel="self"). */
  selfUrl: string;
  imageUrl: string | null;
  episodes: FeedEpisode[];
}

/** One line, no control characters. */
const line = (text: string) => escapeXml(text.replace(/\s+/g, ' ').trim());

export function renderRss(feed: FeedDocument): string {
  const items = feed.episodes.map((e) =>
    [
      '<item>',
      `<title>${line(e.title)}</title>`,
      `<description>${line(e.description)}</description>`,
      `<guid isPermaLink="false">${escapeXml(e.guid)}</guid>`,
      `<pubDate>${e.published.toUTCString()}</pubDate>`,
      `<enclosure url="${escapeXml(e.url)}" length="${Math.max(0, Math.round(e.lengthBytes))}" type="audio/mpeg"/>`,
      `<itunes:title>${line(e.title)}</itunes:title>`,
      `<itunes:duration>${Math.max(0, Math.round(e.durationSeconds))}</itunes:duration>`,
      `<itunes:episode>${e.episode}</itunes:episode>`,
      ...(e.season === undefined ? [] : [`<itunes:season>${e.season}</itunes:season>`]),
      '<itunes:episodeType>full</itunes:episodeType>',
      `<podcast:chapters url="${escapeXml(e.chaptersUrl)}" type="application/json+chapters"/>`,
      ...(e.transcriptUrl === null
        ? []
        : [`<podcast:transcript url="${escapeXml(e.transcriptUrl)}" type="text/vtt"/>`]),
      '</item>',
    ].join('\n'),
  );
  const image =
    feed.imageUrl === null
      ? []
      : [
          `<itunes:image href="${escapeXml(feed.imageUrl)}"/>`,
          `<image><url>${escapeXml(feed.imageUrl)}</url><title>${line(feed.title)}</title><link>${escapeXml(feed.selfUrl)}</link></image>`,
        ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:podcast="https://podcastindex.org/namespace/1.0">',
    '<channel>',
    `<title>${line(feed.title)}</title>`,
    `<link>${escapeXml(feed.selfUrl)}</link>`,
    `<atom:link href="${escapeXml(feed.selfUrl)}" rel="self" type="application/rss+xml"/>`,
    `<description>${line(feed.description)}</description>`,
    `<itunes:author>${line(feed.author)}</itunes:author>`,
    `<itunes:summary>${line(feed.description)}</itunes:summary>`,
    ...image,
    '<itunes:explicit>false</itunes:explicit>',
    '<itunes:type>serial</itunes:type>',
    // Private: directories must not list it.
    '<itunes:block>Yes</itunes:block>',
    ...items,
    '</channel>',
    '</rss>',
    '',
  ].join('\n');
}
