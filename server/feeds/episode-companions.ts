/**
 * What a podcast app shows beside an episode's audio (Podcasting 2.0): its chapters, as JSON
 * (`application/json+chapters`, version 1.2.0), and its transcript, as WebVTT, one cue per
 * sentence of the read-along. Both time what is heard in the episode's own audio file: a chapter
 * with its own MP3 is one chapter from 0; an episode whose audio is the book's combined file
 * holds every chapter of the book at its start in that file.
 */
import type { ExportBook, ExportChapter } from '../books/source';
import type { TranscriptSentence } from '../books/transcript';

/** A chapter heard in an episode's audio, with where it starts there (seconds). */
export interface EpisodePart {
  chapter: ExportChapter;
  start: number;
}

/** The chapters heard in `chapter`'s episode, in order: the chapter alone, or the book's when its audio is the combined file. */
export function partsOf(book: ExportBook, chapter: ExportChapter): EpisodePart[] {
  if (chapter.fileKey === book.audioKey && book.chapters.length > 1) {
    return book.chapters.map((c) => ({ chapter: c, start: c.start }));
  }
  return [{ chapter, start: 0 }];
}

const ms = (seconds: number) => Math.max(0, Math.round(seconds * 1000));

/** An episode's title, in the feed and in its chapters: the book's, with the chapter's when the book has several. */
export const episodeTitle = (book: ExportBook, chapter: ExportChapter) =>
  book.chapters.length === 1 ? book.title : `${book.title}: ${chapter.title}`;

/** `chapter`'s episode's chapters document (Podcasting 2.0 JSON chapters): every chapter heard in it, with its start and end. */
export function chaptersDocument(book: ExportBook, chapter: ExportChapter): string {
  return JSON.stringify({
    version: '1.2.0',
    title: episodeTitle(book, chapter),
    podcastName: book.title,
    ...(book.author !== null && { author: book.author }),
    chapters: partsOf(book, chapter).map((p) => ({
      startTime: ms(p.start) / 1000,
      endTime: ms(p.start + p.chapter.duration) / 1000,
      title: p.chapter.title,
    })),
  });
}

/** hh:mm:ss.ttt, as a WebVTT cue timing writes it. */
export function vttTimestamp(seconds: number): string {
  const total = ms(seconds);
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(h)}:${two(m)}:${two(s)}.${String(total % 1000).padStart(3, '0')}`;
}

/**
 * Cue text as WebVTT holds it: one line (a line break would end the cue, a blank line the block),
 * no control characters, and `&`, `<` and `>` escaped, so no text reads as a tag, an entity or a
 * cue timing's `-->`.
 */
export function vttText(text: string): string {
  return text
    .replace(/[\p{Cc}\s]+/gu, ' ')
    .trim()
    .replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

/** A chapter's sentences, with their times in the chapter's own audio, as heard from `start` in the episode. */
export interface TimedChapter {
  start: number;
  sentences: readonly Pick<TranscriptSentence, 'start' | 'end' | 'text'>[];
}

/**
 * The episode's transcript: `WEBVTT`, then one cue per sentence in time order, its times in the
 * episode's audio (each cue lasts at least a millisecond, as WebVTT wants its end after its start).
 */
export function transcriptVtt(chapters: readonly TimedChapter[]): string {
  const cues = chapters
    .flatMap((c) =>
      c.sentences.map((s) => ({ start: ms(c.start + s.start), end: ms(c.start + s.end), text: vttText(s.text) })),
    )
    .filter((cue) => cue.text !== '')
    .sort((a, b) => a.start - b.start);
  const blocks = cues.map(
    (cue) =>
      `${vttTimestamp(cue.start / 1000)} --> ${vttTimestamp(Math.max(cue.end, cue.start + 1) / 1000)}\n${cue.text}`,
  );
  return ['WEBVTT', ...blocks].join('\n\n') + '\n';
}

/**
 * `chapter`'s episode's transcript, from the read-along of each chapter heard in it (`transcriptOf`
 * a chapter's number). A book read as one job (no chapter jobs) has one read-along, its whole
 * audio's: it is the transcript of its combined file as it is.
 */
export async function episodeTranscript(
  book: ExportBook,
  chapter: ExportChapter,
  transcriptOf: (order: number) => Promise<{ chapterCount: number; sentences: TimedChapter['sentences'] }>,
): Promise<string> {
  const timed: TimedChapter[] = [];
  for (const part of partsOf(book, chapter)) {
    const read = await transcriptOf(part.chapter.order);
    if (read.chapterCount === 1) return transcriptVtt([{ start: 0, sentences: read.sentences }]);
    timed.push({ start: part.start, sentences: read.sentences });
  }
  return transcriptVtt(timed);
}
