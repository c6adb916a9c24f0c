/**
 * ID3v2.4 tags of the MP3s we hand out, built and serialised by jamp3 (a maintained reader and
 * writer of ID3v2.4, chapter frames included; docs/adr/0040-id3v2-4-tags-by-jamp3.md says why): title, album, artist
 * and album artist, track n/N, genre Audiobook, the cover (APIC), and on a whole-book file a
 * chapter frame (CHAP) per chapter with its title and times, listed in order by a top-level table
 * of contents (CTOC). A tag is built on its own and put in front of the stored audio, which carries
 * none, so the audio is streamed, never loaded or rewritten.
 */
import { ID3V24TagBuilder } from 'jamp3';
// jamp3's public writer writes into a file; these are the steps it takes there (frames to raw
// frames, raw frames to a tag), into memory instead: the tag goes in front of a stream.
import { MemoryWriterStream } from 'jamp3/dist/lib/common/stream-writer-memory.js';
import { writeRawFrames } from 'jamp3/dist/lib/id3v2/frames/id3v2.frame.write.js';
import { ID3v2Writer } from 'jamp3/dist/lib/id3v2/id3v2.writer.js';
import type { ExportBook, ExportChapter } from '../books/source';

/** Genre of everything we tag. */
export const GENRE = 'Audiobook';
/** Artist and album artist when the book names no author. */
export const DEFAULT_ARTIST = 'Lectio';
/** A table of contents lists at most 255 chapters (its entry count is one byte). */
const MAX_TOC_ENTRIES = 255;
/** APIC picture type 3: the front cover. */
const FRONT_COVER = 3;
/** A CHAP frame's byte offsets are unused (0xFFFFFFFF): players seek by its times. */
const NO_OFFSET = 0xffffffff;

/** Characters a tag may hold: control characters (line breaks included) become spaces. */
function tagText(text: string): string {
  return text
    .replace(/[\p{Cc}\uFFFE\uFFFF]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function common(book: ExportBook, cover: Buffer | null): ID3V24TagBuilder {
  const artist = tagText(book.author ?? '') || DEFAULT_ARTIST;
  const builder = new ID3V24TagBuilder(ID3V24TagBuilder.encodings.utf8)
    .album(tagText(book.title))
    .artist(artist)
    .albumArtist(artist)
    .genre(GENRE);
  if (cover !== null && cover.length > 0) builder.picture(FRONT_COVER, 'Cover', 'image/jpeg', cover);
  return builder;
}

/** The tag's bytes: an ID3v2.4 header and its frames, without padding. */
async function serialise(builder: ID3V24TagBuilder): Promise<Buffer> {
  const head = { ver: 4, rev: 0, size: 0, valid: true };
  const frames = await writeRawFrames(builder.buildFrames(), head, ID3V24TagBuilder.encodings.utf8);
  const stream = new MemoryWriterStream();
  await new ID3v2Writer().write(stream, frames, head, { paddingSize: 0 });
  return stream.toBuffer();
}

/** The tag of one chapter's own MP3: its title, the book as album, track n/N. */
export function chapterTag(book: ExportBook, chapter: ExportChapter, cover: Buffer | null): Promise<Buffer> {
  return serialise(common(book, cover).title(tagText(chapter.title)).track(chapter.order, book.chapters.length));
}

const ms = (seconds: number) => Math.max(0, Math.round(seconds * 1000));

/** The tag of the whole book in one MP3: the book's title, and a chapter frame per chapter. */
export function bookTag(book: ExportBook, cover: Buffer | null): Promise<Buffer> {
  const builder = common(book, cover).title(tagText(book.title)).track(1, 1);
  const ids = book.chapters.map((c, index) => {
    const id = `ch${index + 1}`;
    builder.chapter(id, ms(c.start), ms(c.start + c.duration), NO_OFFSET, NO_OFFSET, [
      { id: 'TIT2', value: { text: tagText(c.title) } },
    ]);
    return id;
  });
  builder.chapterTOC('toc', 'toc', true, true, ids.slice(0, MAX_TOC_ENTRIES));
  return serialise(builder);
}
