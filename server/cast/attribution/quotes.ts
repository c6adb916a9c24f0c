/**
 * Paragraphs, scene breaks and quoted spans of a chapter's text.
 *
 * A book writes its dialogue in double quotes ("…", “…”) or in single ones (‘…’, '…'); the marks
 * of the other kind inside a quote are a quote within the quote, and outside one they are
 * apostrophes or scare quotes, never dialogue. A single mark is an apostrophe between two letters
 * (don't), before an elision or a number ('n', 'em, '90s) and after a plural before a word
 * (James' hat) when a later mark closes the quote instead.
 */

export type Paragraph = {
  /** Index of the paragraph's first non-blank character. */
  start: number;
  /** One past its last non-blank character. */
  end: number;
  /** The first paragraph of a scene: the chapter's first, or the first after a break. */
  sceneStart: boolean;
};

export type Quote = {
  /** The opening mark's index. */
  start: number;
  /** One past the closing mark. */
  end: number;
  /** The paragraph the quote opens in. */
  paragraph: number;
  /** The paragraph it closes in (a later one when the speech runs over paragraphs). */
  lastParagraph: number;
};

export type QuoteStyle = 'double' | 'single';

/** A paragraph that is only a scene-break mark: "* * *", "#", "~", "---". */
const SCENE_MARK = /^[\s*#~•·+=_—–-]+$/u;
/** A heading inside a chapter's text ("Chapter Two", "Part 3: The Return", "IV."): a new scene starts with it. */
const NUMBER = String.raw`(?:\d+|[ivxlc]+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty)`;
const HEADING = new RegExp(
  String.raw`^(?:(?:chapter|part|book)\s+${NUMBER}(?:[.:—–-][^"“‘]*)?|[IVXLC]+\.?|\d{1,3}\.?)$`,
  'iu',
);

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\u00a0';
}

function isLetter(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{M}\p{N}]/u.test(c);
}

/** Every double mark of a text, to jump from one to the next. */
const DOUBLE_MARKS = /["“”]/g;
/** Every single mark of a text. */
const SINGLE_MARKS = /['‘’]/g;
/** Every quotation mark of a text. */
const ANY_MARK = /["“”'‘’]/g;

/** The indexes of every mark a pattern finds in a text, in order. */
function markPositions(text: string, re: RegExp): number[] {
  return Array.from(text.matchAll(re), (m) => m.index);
}

/** The positions from `from` to `end`, found by halving. */
function* within(positions: readonly number[], from: number, end: number): Generator<number> {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((positions[mid] as number) < from) low = mid + 1;
    else high = mid;
  }
  for (let k = low; k < positions.length && (positions[k] as number) < end; k++) yield positions[k] as number;
}

/** Splits a chapter into paragraphs: at blank lines, or at every line break when it has no blank line. */
export function splitParagraphs(text: string): Paragraph[] {
  const separator = /\n[ \t\u00a0]*\n/.test(text) ? /\n(?:[ \t\u00a0]*\n)+/g : /\n+/g;
  const paragraphs: Paragraph[] = [];
  let sceneStart = true;
  let from = 0;
  const push = (start: number, end: number): void => {
    while (start < end && isSpace(text[start])) start++;
    while (end > start && isSpace(text[end - 1])) end--;
    if (start === end) return;
    if (SCENE_MARK.test(text.slice(start, Math.min(end, start + 40))) && end - start <= 40) {
      sceneStart = true;
      return;
    }
    if (end - start <= 60 && HEADING.test(text.slice(start, end))) sceneStart = true;
    paragraphs.push({ start, end, sceneStart });
    sceneStart = false;
  };
  for (const m of text.matchAll(separator)) {
    push(from, m.index);
    // Two blank lines or more inside a chapter part its sections.
    if ((m[0].match(/\n/g) ?? []).length >= 3 && paragraphs.length > 0) sceneStart = true;
    from = m.index + m[0].length;
  }
  push(from, text.length);
  return paragraphs;
}

const ELISIONS = /^(?:n['’]|em\b|tis\b|twas\b|cause\b|cos\b|til\b|bout\b|round\b|im\b|er\b|ere\b|ow\b|e\b|s\b|\d)/iu;

/** A single mark that opens a quote: after a space or the paragraph's start, before a word that is no elision. */
function opensSingle(text: string, i: number, paragraphStart: number, end: number): boolean {
  const c = text[i];
  if (c !== '‘' && c !== "'") return false;
  const before = i > paragraphStart ? text[i - 1] : undefined;
  if (before !== undefined && !isSpace(before) && !/[([{—–\-"“]/u.test(before)) return false;
  const after = text[i + 1];
  if (i + 1 >= end || isSpace(after)) return false;
  return !ELISIONS.test(text.slice(i + 1, i + 8));
}

/**
 * A book's dialogue style: the kind of quote that opens more often, outside the other kind (single
 * marks inside a double quote are nested), an opening at a paragraph's start, where dialogue
 * begins, counting three times.
 */
export function quoteStyle(texts: readonly string[]): QuoteStyle {
  let double = 0;
  let single = 0;
  for (const text of texts) {
    const positions = markPositions(text, ANY_MARK);
    for (const p of splitParagraphs(text)) {
      let inDouble = false;
      for (const i of within(positions, p.start, p.end)) {
        const c = text[i];
        const weight = i === p.start ? 3 : 1;
        if (c === '“' || (c === '"' && !inDouble)) {
          double += weight;
          inDouble = true;
        } else if (c === '”' || c === '"') inDouble = false;
        else if (!inDouble && opensSingle(text, i, p.start, p.end)) single += weight;
      }
    }
  }
  return single > double ? 'single' : 'double';
}

/** Of the places a single quote may have closed, the one a tag or a punctuation mark follows, else the last. */
function bestTentative(text: string, tentatives: number[]): number {
  for (const t of tentatives) {
    const next = text.slice(t, t + 24);
    if (/^[,;:.!?]/u.test(next) || /^\s+(?:he|she|I|they|we|said|asked|says|asks|replied|cried)\b/u.test(next))
      return t;
  }
  return tentatives[tentatives.length - 1] as number;
}

type Scan = {
  /** Where the text's quotation marks of the book's kind are. */
  marks: readonly number[];
  open: number | null;
  tentatives: number[];
  closed: [number, number][];
};

function scanDouble(text: string, p: Paragraph, from: number, scan: Scan): void {
  for (const i of within(scan.marks, from, p.end)) {
    const c = text[i];
    if (scan.open === null) {
      if (c === '“' || (c === '"' && i + 1 < p.end && !isSpace(text[i + 1]))) scan.open = i;
    } else if (c === '“' || (c === '"' && isSpace(text[i - 1]) && isLetter(text[i + 1]))) {
      scan.open = i; // an opening mark: the quote before had no closing one, so it is not a span
    } else {
      scan.closed.push([scan.open, i + 1]);
      scan.open = null;
    }
  }
}

function closeSingle(scan: Scan, at: number): void {
  if (scan.open !== null) scan.closed.push([scan.open, at]);
  scan.open = null;
  scan.tentatives = [];
}

function scanSingle(text: string, p: Paragraph, from: number, scan: Scan): void {
  for (const i of within(scan.marks, from, p.end)) {
    const c = text[i];
    if (scan.open === null) {
      if (opensSingle(text, i, p.start, p.end)) scan.open = i;
      continue;
    }
    const before = text[i - 1];
    const after = i + 1 < p.end ? text[i + 1] : undefined;
    if (isLetter(before) && isLetter(after)) continue; // don't, O'Brien
    if (c === '‘' || i - 1 === scan.open || isSpace(before)) {
      // Opens rather than closes: a new quote when an earlier mark could have closed this one.
      if (c !== '’' && scan.tentatives.length > 0 && opensSingle(text, i, p.start, p.end)) {
        closeSingle(scan, bestTentative(text, scan.tentatives));
        scan.open = i;
      }
      continue;
    }
    if (/[.,!?;:…—–\-"”“]/u.test(before ?? '')) closeSingle(scan, i + 1);
    else scan.tentatives.push(i + 1); // after a letter: a closing mark or a plural's apostrophe
  }
  if (scan.open !== null && scan.tentatives.length > 0) closeSingle(scan, bestTentative(text, scan.tentatives));
}

/** A quote still open at a paragraph's end goes on when the next paragraph opens with a mark of its kind. */
function reopens(text: string, p: Paragraph, style: QuoteStyle): boolean {
  const c = text[p.start];
  return style === 'double'
    ? c === '"' || c === '“'
    : c === '‘' || (c === "'" && opensSingle(text, p.start, p.start, p.end));
}

/** Every quoted span of a chapter, in text order, with the paragraph each opens and closes in. */
export function findQuotes(text: string, paragraphs: readonly Paragraph[], style: QuoteStyle): Quote[] {
  const quotes: Quote[] = [];
  const marks = markPositions(text, style === 'double' ? DOUBLE_MARKS : SINGLE_MARKS);
  const scan: Scan = { marks, open: null, tentatives: [], closed: [] };
  let openParagraph = 0;
  paragraphs.forEach((p, index) => {
    let from = p.start;
    if (scan.open !== null) {
      if (!p.sceneStart && reopens(text, p, style)) from = p.start + 1;
      else scan.open = null;
    }
    scan.closed = [];
    scan.tentatives = [];
    if (style === 'double') scanDouble(text, p, from, scan);
    else scanSingle(text, p, from, scan);
    for (const [start, end] of scan.closed) {
      quotes.push({ start, end, paragraph: start >= p.start ? index : openParagraph, lastParagraph: index });
    }
    if (scan.open !== null && scan.open >= p.start) openParagraph = index;
  });
  return quotes;
}
