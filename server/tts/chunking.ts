/**
 * Text chunking for speech synthesis.
 *
 * Offsets are UTF-16 code-unit offsets (JS string indices) into the ORIGINAL text, and lengths are
 * measured the same way (`text.length`), which is never less than the number of code points, so a
 * chunk within `maxChars` is also within a provider's per-request character limit.
 *
 * Invariants of `splitIntoChunks(text, max)`:
 * - `chunk.text === text.slice(chunk.start, chunk.end)` exactly; it starts and ends with a
 *   non-whitespace character (inner whitespace, newlines included, is kept verbatim);
 * - `chunk.text.length <= max`;
 * - chunks are in order, do not overlap, and together cover every non-whitespace character;
 * - `chunk.sentences` are the speakable units of the chunk (trimmed, in order, inside the chunk,
 *   each `<= max`); a sentence longer than `max` appears as several consecutive pieces;
 * - a boundary between chunks or pieces is never between two letters of one word, with one
 *   exception: a single "word" (no break opportunity at all) longer than `max` is cut at grapheme
 *   cluster boundaries, because nothing else can satisfy the length limit.
 */

export interface SentenceSpan {
  start: number;
  end: number;
}

export interface Chunk {
  text: string;
  start: number;
  end: number;
  sentences: SentenceSpan[];
}

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });
const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

const WHITESPACE = /\s/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;

function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && WHITESPACE.test(ch);
}

/** Shrinks [start, end) so that it neither starts nor ends with whitespace; null when empty. */
function trimRange(text: string, start: number, end: number): SentenceSpan | null {
  let s = start;
  let e = end;
  while (s < e && isSpace(text[s])) s++;
  while (e > s && isSpace(text[e - 1])) e--;
  return s < e ? { start: s, end: e } : null;
}

// Titles and abbreviations after which ICU's sentence segmenter wrongly breaks ("Mr. Rochester").
// Case-sensitive on purpose; "etc." is left out because it usually does end a sentence.
const ABBREVIATION =
  /^(?:Mr|Mrs|Ms|Mssrs|Messrs|Dr|Drs|St|Mt|Ft|Prof|Sr|Jr|Capt|Cpt|Col|Gen|Lt|Sgt|Cmdr|Adm|Maj|Rev|Hon|Gov|Pres|Sen|Rep|Fr|Mme|Mlle|vs|cf|viz|approx|No|Nos|Vol|Vols|Fig|Figs|Ch|Chap|pp?|e\.g|i\.e|[A-Z])\.$/;

function endsWithAbbreviation(text: string, span: SentenceSpan): boolean {
  const slice = text.slice(span.start, span.end);
  const lastSpace = Math.max(slice.lastIndexOf(' '), slice.lastIndexOf('\n'), slice.lastIndexOf('\t'));
  const token = slice.slice(lastSpace + 1).replace(/^[("'“‘[«]+/u, '');
  return ABBREVIATION.test(token);
}

function continuesInLowerCase(text: string, prev: SentenceSpan, next: SentenceSpan): boolean {
  return (
    /[?!…][”’"'»)\]]*$/u.test(text.slice(prev.start, prev.end)) &&
    /^\p{Ll}/u.test(text.slice(next.start, next.start + 2))
  );
}

/**
 * How much text an ICU segmenter is given at once (for sentences; for words, a tenth). V8 before
 * version 12 (Node 20) copies the whole input again for every segment it returns, so one long text
 * took quadratic time and memory on the main thread (200,000 characters: about 0.8 s to split into
 * sentences; a 100,000-character "sentence" with no full stop took 1.9 s to split into words).
 * Within a window the cost is still its length times its segments, hence the smaller word window.
 */
const SENTENCE_WINDOW = 4_000;
const WORD_WINDOW = 400;

/**
 * The segments of text.slice(start, end) as [start, end) offsets into `text`, found a window at a
 * time. A window's last two segments are not taken: the next window starts at the first of them,
 * at a boundary, so each boundary taken had a whole segment of text after it to decide on (ICU's
 * sentence rules look ahead past spaces and punctuation for a lower-case word). A window holding
 * fewer than three segments grows.
 */
function segmentsOf(
  segmenter: Intl.Segmenter,
  initialWindow: number,
  text: string,
  start = 0,
  end = text.length,
): SentenceSpan[] {
  const spans: SentenceSpan[] = [];
  let from = start;
  let window = initialWindow;
  while (from < end) {
    const to = Math.min(end, from + window);
    const found: SentenceSpan[] = [];
    for (const seg of segmenter.segment(text.slice(from, to))) {
      found.push({ start: from + seg.index, end: from + seg.index + seg.segment.length });
    }
    if (to === end) {
      spans.push(...found);
      break;
    }
    if (found.length < 3) {
      window *= 2;
      continue;
    }
    spans.push(...found.slice(0, -2));
    from = found[found.length - 2]!.start;
    window = initialWindow;
  }
  return spans;
}

/** Sentences of `text` as trimmed spans (whitespace-only segments dropped). */
export function splitSentences(text: string): SentenceSpan[] {
  const raw: SentenceSpan[] = [];
  for (const seg of segmentsOf(sentenceSegmenter, SENTENCE_WINDOW, text)) {
    const span = trimRange(text, seg.start, seg.end);
    if (span) raw.push(span);
  }
  const merged: SentenceSpan[] = [];
  for (const span of raw) {
    const prev = merged[merged.length - 1];
    // Merge "Mr." + "Rochester came in." and '"Is it you?"' + 'he asked.' (ICU breaks after
    // "?" / "!" + closing quote even when the sentence goes on in lower case), unless a paragraph
    // break separates them.
    if (
      prev &&
      (endsWithAbbreviation(text, prev) || continuesInLowerCase(text, prev, span)) &&
      !/\n\s*\n/.test(text.slice(prev.end, span.start))
    ) {
      prev.end = span.end;
    } else {
      merged.push({ ...span });
    }
  }
  return merged;
}

/** Largest element of the ascending array `arr` in (lo, hi], or -1. */
function largestIn(arr: number[], lo: number, hi: number): number {
  let a = 0;
  let b = arr.length - 1;
  let found = -1;
  while (a <= b) {
    const mid = (a + b) >> 1;
    const v = arr[mid]!;
    if (v <= hi) {
      if (v > lo) found = v;
      a = mid + 1;
    } else {
      b = mid - 1;
    }
  }
  return found;
}

/** Last grapheme boundary in (lo, hi]; falls back to a code-point boundary. */
function graphemeBreak(text: string, lo: number, hi: number): number {
  let best = -1;
  for (const g of graphemeSegmenter.segment(text.slice(lo, hi + 1))) {
    const pos = lo + g.index;
    if (pos > hi) break;
    if (pos > lo) best = pos;
    const endPos = pos + g.segment.length;
    if (endPos <= hi && endPos > lo) best = endPos;
  }
  if (best > lo) return best;
  // A single grapheme cluster longer than the limit: cut, but never inside a surrogate pair.
  let cut = hi;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff && cut - 1 > lo) cut--;
  return cut;
}

/** Splits an over-long sentence [start, end) into trimmed pieces of at most maxChars. */
function splitLongSentence(text: string, span: SentenceSpan, maxChars: number): SentenceSpan[] {
  // Break opportunities, by preference:
  // 1. next to whitespace; 2. word boundaries next to punctuation/symbols ("well-|known", "a,|b");
  // 3. word boundaries between two letters (dictionary breaks in CJK/Thai text, which are word
  //    boundaries, not positions inside a word).
  const tier1: number[] = [];
  const tier2: number[] = [];
  const tier3: number[] = [];
  for (const seg of segmentsOf(wordSegmenter, WORD_WINDOW, text, span.start, span.end)) {
    if (seg.start === span.start) continue;
    const pos = seg.start;
    const before = text[pos - 1];
    const after = text[pos];
    if (isSpace(before) || isSpace(after)) tier1.push(pos);
    else if (!(LETTER_OR_DIGIT.test(before ?? '') && LETTER_OR_DIGIT.test(after ?? ''))) tier2.push(pos);
    else tier3.push(pos);
  }

  const pieces: SentenceSpan[] = [];
  let cur = span.start;
  while (span.end - cur > maxChars) {
    const limit = cur + maxChars;
    let b = largestIn(tier1, cur, limit);
    if (b < 0) b = largestIn(tier2, cur, limit);
    if (b < 0) b = largestIn(tier3, cur, limit);
    if (b < 0) b = graphemeBreak(text, cur, limit);
    const piece = trimRange(text, cur, b);
    if (piece) pieces.push(piece);
    cur = b;
    while (cur < span.end && isSpace(text[cur])) cur++;
  }
  const last = trimRange(text, cur, span.end);
  if (last) pieces.push(last);
  return pieces;
}

/**
 * Splits `text` into chunks of whole sentences, each at most `maxChars` long (see the invariants at
 * the top of this file). A sentence longer than `maxChars` is split at word boundaries.
 */
export function splitIntoChunks(text: string, maxChars: number): Chunk[] {
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new RangeError(`maxChars must be a positive integer, got ${maxChars}`);
  }
  const units: SentenceSpan[] = [];
  for (const s of splitSentences(text)) {
    if (s.end - s.start <= maxChars) units.push(s);
    else units.push(...splitLongSentence(text, s, maxChars));
  }

  const chunks: Chunk[] = [];
  let cur: Chunk | undefined;
  for (const u of units) {
    if (cur && u.end - cur.start <= maxChars) {
      cur.end = u.end;
      cur.sentences.push(u);
    } else {
      cur = { text: '', start: u.start, end: u.end, sentences: [u] };
      chunks.push(cur);
    }
  }
  for (const c of chunks) c.text = text.slice(c.start, c.end);
  return chunks;
}
