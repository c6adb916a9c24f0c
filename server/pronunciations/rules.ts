/**
 * Pronunciations applied to text before a voice reads it: each entry's `text` is matched as whole
 * words (letters, digits and marks on neither side), ignoring case, with any run of blank space
 * between the words of a phrase; the longest entry wins where two overlap. The spoken text
 * changes, the book's text does not: `rewrite` keeps the way back from an offset in the spoken
 * text to the book's, so word timings land on the book's own words.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import escapeStringRegexp from 'escape-string-regexp';
import type { WordTiming } from '../tts/types';

export interface Pronunciation {
  text: string;
  sayAs: string;
}

export interface Rules {
  readonly entries: readonly Pronunciation[];
  /** A fresh global matcher of every entry. */
  matcher(): RegExp;
  /** The entry a matched piece of text belongs to. */
  entryFor(matched: string): Pronunciation | undefined;
}

const BEFORE = '(?<![\\p{L}\\p{N}\\p{M}_])';
const AFTER = '(?![\\p{L}\\p{N}\\p{M}_])';

/** An entry's words as a literal pattern, whatever they hold (hyphens, brackets, dots, emoji), valid under the `u` flag. */
const literal = (text: string) => text.trim().split(/\s+/u).map(escapeStringRegexp).join('\\s+');
/** The same key for an entry and any way the book writes it: lower case, blank runs as one space. */
export const pronunciationKey = (s: string) => s.trim().replace(/\s+/gu, ' ').toLowerCase();

/** Rules for a list, or null when there is nothing to apply. */
export function compileRules(entries: readonly Pronunciation[]): Rules | null {
  const usable = entries.filter((e) => e.text.trim() !== '' && e.sayAs.trim() !== '');
  if (usable.length === 0) return null;
  const byKey = new Map(usable.map((e) => [pronunciationKey(e.text), e]));
  const alternatives = [...byKey.values()].sort((a, b) => b.text.length - a.text.length).map((e) => literal(e.text));
  const source = `${BEFORE}(?:${alternatives.join('|')})${AFTER}`;
  return {
    entries: usable,
    matcher: () => new RegExp(source, 'giu'),
    entryFor(matched) {
      const direct = byKey.get(pronunciationKey(matched));
      if (direct) return direct;
      // Case folding the key cannot see (ß and SS): ask each entry.
      return usable.find((e) => new RegExp(`^${literal(e.text)}$`, 'iu').test(matched));
    },
  };
}

interface Replacement {
  /** In the book's text. */
  from: number;
  to: number;
  /** In the spoken text. */
  spokenFrom: number;
  spokenTo: number;
}

export interface Rewritten {
  /** What the voice reads. */
  spoken: string;
  /** Entries that matched, once each, in list order. */
  applied: Pronunciation[];
  /** Word timings of the spoken text placed on the book's text (a replaced phrase becomes its original words' span). */
  toOriginal(words: readonly WordTiming[]): WordTiming[];
}

export function rewrite(text: string, rules: Rules | null): Rewritten {
  if (rules === null) return { spoken: text, applied: [], toOriginal: (words) => [...words] };
  const replacements: Replacement[] = [];
  const applied = new Set<Pronunciation>();
  let spoken = '';
  let last = 0;
  for (const match of text.matchAll(rules.matcher())) {
    const entry = rules.entryFor(match[0]);
    if (entry === undefined) continue;
    applied.add(entry);
    spoken += text.slice(last, match.index);
    const spokenFrom = spoken.length;
    spoken += entry.sayAs.trim();
    replacements.push({ from: match.index, to: match.index + match[0].length, spokenFrom, spokenTo: spoken.length });
    last = match.index + match[0].length;
  }
  spoken += text.slice(last);
  const order = rules.entries.filter((e) => applied.has(e));

  /** The book's span of a spoken span: inside a replacement, the replaced words; elsewhere shifted. */
  function place(start: number, end: number): { start: number; end: number } {
    let shift = 0;
    for (const r of replacements) {
      if (start >= r.spokenTo) {
        shift = r.to - r.spokenTo;
        continue;
      }
      if (end > r.spokenFrom) return { start: r.from, end: r.to };
      break;
    }
    return { start: start + shift, end: end + shift };
  }

  return {
    spoken,
    applied: order,
    toOriginal(words) {
      const out: WordTiming[] = [];
      for (const w of words) {
        const span = place(w.charStart, w.charEnd);
        const previous = out[out.length - 1];
        if (previous && previous.charStart === span.start && previous.charEnd === span.end) {
          previous.end = Math.max(previous.end, w.end);
          continue;
        }
        out.push({ start: w.start, end: w.end, charStart: span.start, charEnd: span.end });
      }
      return out;
    },
  };
}

/** Characters scanned between two yields to the event loop. */
const SLICE_CHARS = 32_768;

/**
 * The entries that match somewhere in `text`, in list order. A long text is scanned in slices cut
 * at line breaks, yielding between them, so a whole book never holds the thread for long.
 */
export async function matchingEntries(text: string, rules: Rules | null): Promise<Pronunciation[]> {
  if (rules === null) return [];
  const found = new Set<Pronunciation>();
  for (let from = 0; from < text.length;) {
    let to = Math.min(text.length, from + SLICE_CHARS);
    if (to < text.length) {
      const lineBreak = text.lastIndexOf('\n', to);
      const blank = text.slice(from, to).search(/\s\S*$/u);
      to = lineBreak > from ? lineBreak : blank > 0 ? from + blank : to;
    }
    for (const match of text.slice(from, to).matchAll(rules.matcher())) {
      const entry = rules.entryFor(match[0]);
      if (entry !== undefined) found.add(entry);
    }
    from = to;
    if (found.size === rules.entries.length) break;
    if (from < text.length) await yieldToLoop();
  }
  return rules.entries.filter((e) => found.has(e));
}
