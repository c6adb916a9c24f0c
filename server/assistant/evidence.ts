/**
 * The passage an answer rests on, as the client shows it: the sentence itself (never a heading),
 * its chapter and time into the chapter, and where in the book to play from. And the mentions of a
 * person counted the way a reader counts them: "Elias Crane", "Crane" and "Elias" are one man,
 * unless another character shares that name.
 */
import { describePlace, type IndexedSentence } from './heard-index';
import { entityPattern, escapeRegex } from './text';

export interface Evidence {
  text: string;
  /** "in chapter 2, “The Box”, about 3 minutes in" */
  where: string;
  chapter: number | null;
  chapter_title: string | null;
  /** Seconds from the chapter's start. */
  seconds_in: number;
  /** Seconds from the book's start: "Play from here". */
  position_seconds: number;
}

/** The evidence of a passage: its text, where it is heard, and `start` (seconds from the book's start). */
export function evidenceOf(passage: Pick<IndexedSentence, 'text' | 'place' | 'start'>): Evidence {
  return {
    text: passage.text,
    where: describePlace(passage.place),
    chapter: passage.place.chapter,
    chapter_title: passage.place.chapterTitle,
    seconds_in: Math.max(0, Math.round(passage.place.secondsIn)),
    position_seconds: Math.max(0, Math.floor(passage.start)),
  };
}

/** A sentence that is a heading rather than prose: a chapter title, "Chapter 3", a short line with no end. */
export function isHeading(sentence: IndexedSentence): boolean {
  const text = sentence.text.trim();
  const words = text.split(/\s+/).length;
  const title = sentence.place.chapterTitle?.trim().toLowerCase();
  if (title !== undefined && title !== '' && text.toLowerCase().replace(/[.:]$/u, '') === title) return true;
  if (/^(?:chapter|part|book|section|prologue|epilogue)\b/iu.test(text) && words <= 8) return true;
  return words <= 8 && !/[.!?…"”’']$/u.test(text);
}

/** Sentences that are prose, not headings: the only ones an answer quotes. */
export function prose(sentences: readonly IndexedSentence[]): IndexedSentence[] {
  return sentences.filter((s) => !isHeading(s));
}

const HONORIFIC = /^(?:mr|mrs|ms|miss|dr|sir|lady|lord|captain|uncle|aunt|father|mother)\.?$/iu;

/**
 * Sentences naming a person: the full name, or a part of it (first or last name, as written, with
 * its capital) that no other character in `others` shares.
 */
export function personMentions(
  sentences: readonly IndexedSentence[],
  name: string,
  others: readonly string[],
): { matches: (text: string) => boolean; mentions: IndexedSentence[] } {
  const full = entityPattern(name);
  const taken = new Set(others.flatMap((o) => o.split(/\s+/).map((w) => w.replace(/\.$/u, '').toLowerCase())));
  // The parts keep their capital ("Crane" the man, not "a crane"): no i flag for them.
  const parts = name
    .split(/\s+/)
    .map((w) => w.replace(/\.$/u, ''))
    .filter((w) => w.length >= 3 && /^\p{Lu}/u.test(w) && !HONORIFIC.test(w) && !taken.has(w.toLowerCase()))
    .map((w) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegex(w)}(?![\\p{L}\\p{N}])`, 'u'));
  const matches = (text: string) => full.test(text) || parts.some((p) => p.test(text));
  return { matches, mentions: sentences.filter((s) => matches(s.text)) };
}
