/**
 * Word timings from a speech server's captions, placed on the text that was sent.
 *
 * A server that captions its speech (Kokoro-FastAPI's `/dev/captioned_speech`) answers its own
 * tokens with their times: the words it spoke after its own text normalisation ("1990" may come
 * back as "nineteen" and "ninety", "don't" as one token or two, punctuation as tokens of its own).
 * `alignCaptions` walks those tokens along the words of the sent text: a token equal to (or the
 * start of) one of the next few words times that word; tokens that match nothing belong to the
 * word the walk stands on (a number read out as several words); words no token reached get the
 * time between their neighbours. Every word of the text comes back, in order.
 */
import type { WordTiming } from './types';

export interface CaptionToken {
  word: string;
  start: number;
  end: number;
}

/** How many words ahead a token may match (words the server skipped or merged). */
const LOOKAHEAD_WORDS = 3;

const WORD = /[\p{L}\p{N}\p{M}]+(?:['’.-][\p{L}\p{N}\p{M}]+)*/gu;
const LETTERS = /[\p{L}\p{N}\p{M}]/u;

const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}\p{M}]/gu, '');

/** The words of `text` (letters and digits, with inner apostrophes, dots and hyphens) and where each is. */
export function wordsOf(text: string): { text: string; start: number; end: number }[] {
  return [...text.matchAll(WORD)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
}

interface Slot {
  start: number;
  end: number;
  charStart: number;
  charEnd: number;
  key: string;
  /** What of `key` the tokens have not spoken yet (a word spoken in several tokens). */
  rest: string;
  timed: boolean;
}

export function alignCaptions(text: string, tokens: readonly CaptionToken[], totalSeconds: number): WordTiming[] {
  const slots: Slot[] = wordsOf(text).map((w) => ({
    start: 0,
    end: 0,
    charStart: w.start,
    charEnd: w.end,
    key: norm(w.text),
    rest: norm(w.text),
    timed: false,
  }));
  const time = (slot: Slot, token: CaptionToken) => {
    if (!slot.timed) {
      slot.start = token.start;
      slot.timed = true;
    }
    slot.end = Math.max(slot.end, token.end, token.start);
  };
  let cursor = 0;
  for (const token of tokens) {
    if (!LETTERS.test(token.word) || !Number.isFinite(token.start) || !Number.isFinite(token.end)) continue;
    const key = norm(token.word);
    // The rest of a word spoken in pieces ("do" then "n't").
    const current = slots[cursor];
    if (current?.timed && current.rest !== '' && current.rest.startsWith(key)) {
      time(current, token);
      current.rest = current.rest.slice(key.length);
      if (current.rest === '') cursor += 1;
      continue;
    }
    let matched = -1;
    for (let j = cursor; j < Math.min(slots.length, cursor + LOOKAHEAD_WORDS + 1); j++) {
      const candidate = slots[j]!;
      if (candidate.key === key || (key.length > 0 && candidate.key.startsWith(key))) {
        matched = j;
        break;
      }
    }
    if (matched >= 0) {
      const slot = slots[matched]!;
      time(slot, token);
      slot.rest = slot.key.slice(key.length);
      cursor = slot.rest === '' ? matched + 1 : matched;
    } else if (cursor < slots.length) {
      // A word the server said in its own words (a number, an abbreviation): it owns this token.
      const slot = slots[cursor]!;
      time(slot, token);
      slot.rest = '';
    }
  }
  fillGaps(slots, totalSeconds);
  return slots.map((s) => ({
    start: round(s.start),
    end: round(Math.max(s.end, s.start)),
    charStart: s.charStart,
    charEnd: s.charEnd,
  }));
}

/** Untimed words share the time between the timed words around them; times never run backwards. */
function fillGaps(slots: Slot[], totalSeconds: number): void {
  let i = 0;
  let lastEnd = 0;
  while (i < slots.length) {
    const slot = slots[i]!;
    if (slot.timed) {
      slot.start = Math.max(slot.start, lastEnd);
      slot.end = Math.max(slot.end, slot.start);
      lastEnd = slot.end;
      i += 1;
      continue;
    }
    let j = i;
    while (j < slots.length && !slots[j]!.timed) j += 1;
    const until = j < slots.length ? Math.max(lastEnd, slots[j]!.start) : Math.max(lastEnd, totalSeconds);
    const share = (until - lastEnd) / (j - i);
    for (let k = i; k < j; k++) {
      slots[k]!.start = lastEnd + share * (k - i);
      slots[k]!.end = lastEnd + share * (k - i + 1);
    }
    lastEnd = until;
    i = j;
  }
}

const round = (n: number) => Math.round(n * 1000) / 1000;
