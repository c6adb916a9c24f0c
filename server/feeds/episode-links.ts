/**
 * A feed's episode and cover links, each signed for its one file: the feed's id, the book, the
 * file (a chapter's number, or `cover`) and the book's version, under a key derived from the feed
 * secret. A link shared on its own opens that one file: it holds neither the feed's token nor
 * anything that opens another episode, and it ends when the feed is deleted (the feed is looked up
 * by its id on every request) or the book is converted again (a new version, new links).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface EpisodeFile {
  feedId: string;
  jobId: string;
  /** A chapter's number (from 1), or the book's cover. */
  file: number | 'cover';
  /** The book's version: a book converted again gets new links. */
  version: string;
}

export interface EpisodeLinks {
  /** The path of the file's link (`/feeds/episodes/{feed}/{book}/{chapter}/{signature}.mp3`, or `…/cover/{signature}.jpg`). */
  path(file: EpisodeFile): string;
  /** Whether `signature` was made for this file. */
  verify(file: EpisodeFile, signature: string): boolean;
}

export function createEpisodeLinks(feedSecret: Buffer): EpisodeLinks {
  const key = createHmac('sha256', feedSecret).update('lectio feed episode links v1').digest();
  const sign = (f: EpisodeFile) =>
    createHmac('sha256', key).update(`${f.feedId}\n${f.jobId}\n${f.file}\n${f.version}`).digest('base64url');
  return {
    path(f) {
      const signature = sign(f);
      return f.file === 'cover'
        ? `/feeds/episodes/${f.feedId}/${f.jobId}/cover/${signature}.jpg`
        : `/feeds/episodes/${f.feedId}/${f.jobId}/${f.file}/${signature}.mp3`;
    },
    verify(f, signature) {
      const expected = Buffer.from(sign(f));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
