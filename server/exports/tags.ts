/**
 * ID3 tags of the MP3s we hand out, written by node-id3 (a maintained writer of the ID3v2
 * frames, chapter frames included; docs/decisions.md says why it and why ID3v2.3): title, album,
 * artist and album artist, track n/N, genre Audiobook, the cover (APIC), and on a whole-book file
 * a chapter frame (CHAP) per chapter with its title and times, listed in order by a top-level
 * table of contents (CTOC). A tag is built on its own and put in front of the stored audio, which
 * carries none, so the audio is streamed, never loaded or rewritten.
 */
import NodeID3 from 'node-id3';
import type { ExportBook, ExportChapter } from './book';

/** Genre of everything we tag. */
export const GENRE = 'Audiobook';
/** Artist and album artist when the book names no author. */
export const DEFAULT_ARTIST = 'Lectio';
/** A table of contents lists at most 255 chapters (its entry count is one byte). */
const MAX_TOC_ENTRIES = 255;

/** Characters a tag may hold: control characters (line breaks included) become spaces. */
function tagText(text: string): string {
  return text
    .replace(/[\p{Cc}\uFFFE\uFFFF]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function picture(cover: Buffer | null): NodeID3.Tags['image'] {
  if (cover === null || cover.length === 0) return undefined;
  return { mime: 'image/jpeg', type: { id: 3 }, description: 'Cover', imageBuffer: cover };
}

function common(book: ExportBook, cover: Buffer | null): NodeID3.Tags {
  const artist = tagText(book.author ?? '') || DEFAULT_ARTIST;
  const image = picture(cover);
  return {
    album: tagText(book.title),
    artist,
    performerInfo: artist,
    genre: GENRE,
    ...(image !== undefined && { image }),
  };
}

/** The tag of one chapter's own MP3: its title, the book as album, track n/N. */
export function chapterTag(book: ExportBook, chapter: ExportChapter, cover: Buffer | null): Buffer {
  return NodeID3.create({
    ...common(book, cover),
    title: tagText(chapter.title),
    trackNumber: `${chapter.order}/${book.chapters.length}`,
  });
}

const ms = (seconds: number) => Math.max(0, Math.round(seconds * 1000));

/** The tag of the whole book in one MP3: the book's title, and a chapter frame per chapter. */
export function bookTag(book: ExportBook, cover: Buffer | null): Buffer {
  const chapters = book.chapters.map((c, index) => ({
    elementID: `ch${index + 1}`,
    startTimeMs: ms(c.start),
    endTimeMs: ms(c.start + c.duration),
    tags: { title: tagText(c.title) },
  }));
  return NodeID3.create({
    ...common(book, cover),
    title: tagText(book.title),
    trackNumber: '1/1',
    chapter: chapters,
    tableOfContents: [
      {
        elementID: 'toc',
        isOrdered: true,
        elements: chapters.slice(0, MAX_TOC_ENTRIES).map((c) => c.elementID),
        tags: { title: 'Chapters' },
      },
    ],
  });
}
