/**
 * A feed's episode and cover links, each signed for its one file: the feed's id, the book, the
 * file (a chapter's audio, its chapters JSON or its transcript, or the book's cover) and the
 * book's version, under a key derived from the feed secret. A link shared on its own opens that
 * one file: it holds neither the feed's token nor anything that opens another file, and it ends
 * when the feed is deleted (the feed is looked up by its id on every request) or the book is
 * converted again (a new version, new links).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** What an episode has besides its audio: its chapters (Podcasting 2.0 JSON) and its transcript (WebVTT). */
export type EpisodeCompanion = 'chapters' | 'transcript';

export interface EpisodeFile {
  feedId: string;
  jobId: string;
  /** A chapter's audio (its number, from 1), that chapter's chapters JSON or transcript, or the book's cover. */
  file: number | 'cover' | { chapter: number; companion: EpisodeCompanion };
  /** The book's version: a book converted again gets new links. */
  version: string;
}

export interface EpisodeLinks {
  /**
   * The path of the file's link: `/feeds/episodes/{feed}/{book}/{chapter}/{signature}.mp3`,
   * `…/{chapter}/chapters/{signature}.json`, `…/{chapter}/transcript/{signature}.vtt`, or
   * `…/cover/{signature}.jpg`.
   */
  path(file: EpisodeFile): string;
  /** Whether `signature` was made for this file. */
  verify(file: EpisodeFile, signature: string): boolean;
}

const EXTENSION: Record<EpisodeCompanion, string> = { chapters: 'json', transcript: 'vtt' };

/** What is signed to name the file: a chapter's audio and the cover as they always were, a companion after its chapter. */
const fileName = (file: EpisodeFile['file']) =>
  typeof file === 'object' ? `${file.chapter}/${file.companion}` : String(file);

export function createEpisodeLinks(feedSecret: Buffer): EpisodeLinks {
  const key = createHmac('sha256', feedSecret).update('lectio feed episode links v1').digest();
  const sign = (f: EpisodeFile) =>
    createHmac('sha256', key)
      .update(`${f.feedId}\n${f.jobId}\n${fileName(f.file)}\n${f.version}`)
      .digest('base64url');
  return {
    path(f) {
      const signature = sign(f);
      const book = `/feeds/episodes/${f.feedId}/${f.jobId}`;
      if (f.file === 'cover') return `${book}/cover/${signature}.jpg`;
      if (typeof f.file === 'number') return `${book}/${f.file}/${signature}.mp3`;
      return `${book}/${f.file.chapter}/${f.file.companion}/${signature}.${EXTENSION[f.file.companion]}`;
    },
    verify(f, signature) {
      const expected = Buffer.from(sign(f));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
