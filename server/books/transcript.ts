/**
 * A chapter's read-along transcript: its text sentence by sentence, each with the time span at
 * which it is spoken, as its timing map places it (./timing.ts). The listening side serves it
 * (server/listening/transcript.ts); EPUB downloads lay their read-along out from it.
 */
import type { TimingEntry } from './timing';

export interface TranscriptSentence {
  index: number;
  /** Seconds from the start of the chapter's own audio. */
  start: number;
  end: number;
  text: string;
  /** UTF-16 offsets into the chapter's text. */
  charStart: number;
  charEnd: number;
  paragraphStart: boolean;
  /** When the voice timed its words: each word's time and place in the chapter's text, in order. */
  words?: { start: number; end: number; char_start: number; char_end: number }[];
}

export interface Transcript {
  jobId: string;
  chapter: { id: string; order: number; title: string; start: number; duration: number };
  chapterCount: number;
  sentences: TranscriptSentence[];
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The sentences of `text` as its timing map places them, trimmed of surrounding blank space. */
export function sentencesOf(text: string, entries: readonly TimingEntry[]): TranscriptSentence[] {
  const ordered = [...entries].sort((a, b) => a.char_start - b.char_start || a.start - b.start);
  const out: TranscriptSentence[] = [];
  let previousEnd = 0;
  for (const entry of ordered) {
    let from = Math.min(entry.char_start, text.length);
    let to = Math.min(Math.max(entry.char_end, from), text.length);
    while (from < to && /\s/.test(text[from]!)) from += 1;
    while (to > from && /\s/.test(text[to - 1]!)) to -= 1;
    if (from === to) continue;
    out.push({
      index: out.length,
      start: round(entry.start),
      end: round(Math.max(entry.end, entry.start)),
      text: text.slice(from, to),
      charStart: from,
      charEnd: to,
      paragraphStart: out.length === 0 || text.slice(previousEnd, from).includes('\n'),
      ...(entry.words !== undefined && {
        words: entry.words
          .filter((w) => w.char_start >= from && w.char_end <= to && w.char_end > w.char_start)
          .map((w) => ({
            start: round(w.start),
            end: round(Math.max(w.end, w.start)),
            char_start: w.char_start,
            char_end: w.char_end,
          })),
      }),
    });
    previousEnd = to;
  }
  return out;
}
