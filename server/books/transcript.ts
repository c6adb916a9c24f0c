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
  /** A full-cast book's: the sentence cut into who speaks each part, in order and covering it. */
  spans?: SpeakerSpan[];
}

/**
 * Part of a sentence and who speaks it: a character's id, or `narrator`. A part of a quoted span
 * also says where that span starts (`quote_start`, what a correction names it by, even when the
 * quote began in an earlier sentence) and whether its speaker is a guess (`uncertain`).
 */
export interface SpeakerSpan {
  char_start: number;
  char_end: number;
  speaker: string;
  quote_start?: number;
  uncertain?: boolean;
}

/** A chapter's quoted span as its cast keeps it; `confidence` (0..1) is how sure attribution was. */
export interface QuotedSpan {
  char_start: number;
  char_end: number;
  speaker: string;
  confidence?: number | undefined;
}

/** Below this confidence a quote's speaker is shown as a guess ("Not sure who says this"). */
const UNCERTAIN_BELOW = 0.6;

/**
 * Who speaks each part of [from, to): the quoted spans inside it, the narrator between them. A
 * quote is never merged with the narration beside it, even when the narrator speaks it, so that
 * it can still be given to someone else.
 */
function speakersOf(from: number, to: number, quotes: readonly QuotedSpan[]): SpeakerSpan[] {
  const out: SpeakerSpan[] = [];
  let at = from;
  const narration = (start: number, end: number) => {
    if (end <= start) return;
    const last = out.at(-1);
    if (last !== undefined && last.quote_start === undefined && last.char_end === start) last.char_end = end;
    else out.push({ char_start: start, char_end: end, speaker: 'narrator' });
  };
  for (const q of quotes) {
    if (q.char_end <= from || q.char_start >= to) continue;
    const start = Math.max(q.char_start, from);
    narration(at, start);
    at = Math.min(q.char_end, to);
    if (at <= start) continue;
    out.push({
      char_start: start,
      char_end: at,
      speaker: q.speaker,
      quote_start: q.char_start,
      ...(q.confidence !== undefined && q.confidence < UNCERTAIN_BELOW && { uncertain: true }),
    });
  }
  narration(at, to);
  return out;
}

export interface Transcript {
  jobId: string;
  chapter: { id: string; order: number; title: string; start: number; duration: number };
  chapterCount: number;
  sentences: TranscriptSentence[];
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The sentences of `text` as its timing map places them, trimmed of surrounding blank space; with
 * `quotes` (a full-cast book's quoted spans, in text order), each with who speaks each part of it.
 */
export function sentencesOf(
  text: string,
  entries: readonly TimingEntry[],
  quotes?: readonly QuotedSpan[],
): TranscriptSentence[] {
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
      ...(quotes !== undefined && { spans: speakersOf(from, to, quotes) }),
    });
    previousEnd = to;
  }
  return out;
}
