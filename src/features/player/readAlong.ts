import type { ReactNode } from 'react';
import type { TranscriptSentence } from '../../api/gen/model';
import type { Tone } from '../../styles/theme';

type Timed = Pick<TranscriptSentence, 'start' | 'end'>;

/**
 * The sentence being spoken `seconds` into a chapter: the last one starting at or before it
 * (binary search over the timing map, which is in reading order). Before the first sentence it is
 * the first; past the end, the last. -1 for a chapter without sentences.
 */
export function sentenceAt(sentences: readonly Timed[], seconds: number): number {
  if (sentences.length === 0) return -1;
  let low = 0;
  let high = sentences.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (sentences[middle]!.start <= seconds + 0.001) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** Sentences grouped into the paragraphs the text had (a sentence that starts one opens a group). */
export function paragraphsOf<S extends Pick<TranscriptSentence, 'paragraph_start'>>(sentences: readonly S[]): S[][] {
  const paragraphs: S[][] = [];
  for (const sentence of sentences) {
    const last = paragraphs[paragraphs.length - 1];
    if (!last || sentence.paragraph_start) paragraphs.push([sentence]);
    else last.push(sentence);
  }
  return paragraphs;
}

/**
 * Where, in the sentence's own text, the word spoken `seconds` into the chapter is: null when the
 * sentence has no word timings (or before its first word).
 */
export function spokenWord(
  sentence: Pick<TranscriptSentence, 'text' | 'char_start' | 'words'>,
  seconds: number,
): { from: number; to: number } | null {
  const words = sentence.words ?? [];
  if (words.length === 0 || seconds + 0.001 < words[0]!.start) return null;
  const word = words[sentenceAt(words, seconds)]!;
  const from = Math.max(0, word.char_start - sentence.char_start);
  const to = Math.min(sentence.text.length, word.char_end - sentence.char_start);
  return to > from ? { from, to } : null;
}

/** A part of a sentence, by where it lies in the sentence's own text, and who speaks it. */
export interface SentencePart {
  from: number;
  to: number;
  /** A character's id or `narrator`; null for a sentence of a book without a cast. */
  speaker: string | null;
  /** For a quoted part: where its quote starts in the chapter's text (what a correction names it by). */
  quoteStart?: number;
  uncertain?: boolean;
}

/**
 * The sentence cut into who speaks each part (its `spans`), by offsets in its own text; one
 * narration part without spans. Gaps the spans leave are narration, so the parts cover the text.
 */
export function partsOf(sentence: Pick<TranscriptSentence, 'text' | 'char_start' | 'spans'>): SentencePart[] {
  const length = sentence.text.length;
  const spans = sentence.spans ?? [];
  if (spans.length === 0) return [{ from: 0, to: length, speaker: null }];
  const parts: SentencePart[] = [];
  let at = 0;
  for (const span of spans) {
    const from = Math.max(at, Math.min(length, span.char_start - sentence.char_start));
    const to = Math.max(from, Math.min(length, span.char_end - sentence.char_start));
    if (from > at) parts.push({ from: at, to: from, speaker: 'narrator' });
    if (to > from) {
      parts.push({
        from,
        to,
        speaker: span.speaker,
        ...(span.quote_start !== undefined && { quoteStart: span.quote_start }),
        ...(span.uncertain === true && { uncertain: true }),
      });
    }
    at = to;
  }
  if (at < length) parts.push({ from: at, to: length, speaker: 'narrator' });
  return parts;
}

/** A quote's speaker menu, as the read-along asks for it after the quote. */
export interface QuoteMenu {
  /** The menu button's id: a click on the quote itself opens it. */
  id: string;
  /** The chapter's number (from 1) and where the quote starts in its text: what a correction names. */
  chapter: number;
  quoteStart: number;
  speaker: string;
  uncertain: boolean;
  /** Whether the button is in the tab order (only the current sentence's are). */
  tabbable: boolean;
}

/**
 * What a full-cast book adds to the read-along, given by the screen (the cast feature makes it):
 * each speaker's tone for the underline of their quotes, the speaker menu after each quote, and a
 * notice above the text (the chapters being read again, a correction that failed).
 */
export interface ReadAlongSpeakers {
  toneOf(speaker: string): Tone;
  menu(quote: QuoteMenu): ReactNode;
  notice: ReactNode;
}
