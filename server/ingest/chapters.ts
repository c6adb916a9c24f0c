/**
 * Decides whether a text is narrated as one piece ('text') or as a book of chapters, and where
 * the chapters are. Offsets index the given text: chapter text = text.slice(start, end).
 *
 * Heading families, tried in the earlier backend's order (docs/adr/0010-chapters-found-as-the-earlier-backend-found-them.md):
 *   A. "Chapter"/"CHAPTER" + roman numeral           CHAPTER IV.  /  Chapter iv: A Title
 *   B. "Chapter N", "Ch. N", or a line that is only "N" / "N."
 *   C. Prologue / Epilogue / Introduction / Preface / Appendix (also Foreword, Afterword)
 *   D. "Part" / "Book" + number, roman numeral or number word    Part One
 *   E. "Chapter" + number word                       Chapter Three
 * A, B and E are alternatives: the first of them that finds at least two headings is used (if
 * none finds two, the first that finds one). C and D are always added, so a Prologue, the
 * chapters, Parts and an Epilogue combine.
 *
 * Rules (choices where the old backend's description was open):
 * - A heading is a whole line (trimmed) that starts a block: it is the first line of the text or
 *   follows a blank line. The keyword must be capitalised ("Chapter"/"CHAPTER", not "chapter").
 *   It may carry a title after ':', '.', '—', '–' or ' - ' on the same line, or on the next line
 *   (directly below, or after one blank line when that line is short, has no end punctuation
 *   and is followed by a blank line). "CHAPTER I.\nThe Beginning" -> "Chapter I: The Beginning".
 *   Prose such as "Chapter 3 of the report says ..." is never a heading.
 * - Lone-number headings count only when they run in sequence 1, 2, 3 ... (at least three) and
 *   the sections between them are paragraph-sized (median >= 20 words), so a numbered list is
 *   not mistaken for chapters.
 * - A heading whose body is mostly other heading-like lines is a table of contents entry and is
 *   not a chapter (it stays in the text before the next real heading).
 * - A chapter's range starts at its heading line, so the narration reads the heading.
 * - A chapter whose body (without heading and title) has fewer than 5 words is merged into the
 *   next chapter (the last one into the previous).
 * - Text before the first heading with at least 5 words becomes an "Opening" chapter; shorter
 *   front matter is merged into the first chapter.
 * - A chapter over 15,000 words is split at paragraph boundaries into ~5,000-word pieces titled
 *   "{title} - Part N".
 * - Book or text: at least 2 detected headings -> book; otherwise more than 10,000 words -> book
 *   split on 3+ blank lines (and paragraphs when needed) into ~5,000-word "Chapter N" chunks;
 *   otherwise 'text'.
 */

import { findHeadings, matchLine, splitLines, type Family, type Heading, type Line } from './chapter-headings';

export type PlannedChapter = { title: string; order: number; start: number; end: number };
export type BookPlan = { kind: 'text' } | { kind: 'book'; chapters: PlannedChapter[] };

export const MIN_CHAPTER_WORDS = 5;
export const MAX_CHAPTER_WORDS = 15_000;
export const TARGET_CHUNK_WORDS = 5_000;
export const LONG_TEXT_WORDS = 10_000;

export function countWords(text: string, start = 0, end = text.length): number {
  let n = 0;
  let inWord = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xa0;
    if (space) inWord = false;
    else if (!inWord) {
      inWord = true;
      n++;
    }
  }
  return n;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function acceptLoneNumbers(text: string, lone: Heading[]): Heading[] {
  const seq: Heading[] = [];
  let expect = 1;
  for (const h of lone) {
    if (h.value === expect) {
      seq.push(h);
      expect++;
    }
  }
  if (seq.length < 3) return [];
  const gaps: number[] = [];
  for (let i = 0; i < seq.length; i++) {
    const cur = seq[i] as Heading;
    const next = seq[i + 1];
    gaps.push(countWords(text, cur.bodyStart, next ? next.start : text.length));
  }
  return median(gaps) >= 20 ? seq : [];
}

function chooseHeadings(text: string, all: Heading[]): Heading[] {
  const byFamily = (f: Family) => all.filter((h) => h.family === f);
  const numbered = byFamily('number');
  const candidates: Heading[][] = [
    byFamily('roman'),
    numbered.length > 0 ? numbered : acceptLoneNumbers(text, byFamily('lone')),
    byFamily('word'),
  ];
  const primary = candidates.find((c) => c.length >= 2) ?? candidates.find((c) => c.length >= 1) ?? [];
  return [...primary, ...byFamily('special'), ...byFamily('part')].sort((a, b) => a.start - b.start);
}

/** Drops table-of-contents entries: headings whose body is mostly heading-like lines. */
function dropContentsEntries(lines: Line[], text: string, headings: Heading[]): Heading[] {
  return headings.filter((h, idx) => {
    const next = headings[idx + 1];
    const end = next ? next.start : text.length;
    let total = 0;
    let headingLike = 0;
    for (let i = h.line + 1; i < lines.length; i++) {
      const l = lines[i] as Line;
      if (l.start >= end) break;
      if (l.start < h.bodyStart || l.text === '') continue;
      total++;
      if (matchLine(l.text) !== null) headingLike++;
    }
    return !(headingLike >= 1 && headingLike / Math.max(1, total) >= 0.5);
  });
}

function trimRange(text: string, start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s] ?? '')) s++;
  while (e > s && /\s/.test(text[e - 1] ?? '')) e--;
  return [s, e];
}

/** Offsets where paragraphs start (after a blank line) within [start, end). */
function paragraphStarts(text: string, start: number, end: number): number[] {
  const starts: number[] = [];
  const re = /\n[ \t]*\n\s*/g;
  re.lastIndex = start;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const at = m.index + m[0].length;
    if (at >= end) break;
    starts.push(at);
  }
  return starts;
}

/**
 * Cuts [start, end) into pieces of about `target` words at paragraph boundaries (falling back
 * to line, then sentence boundaries inside a paragraph that is itself too long).
 */
function cutIntoPieces(text: string, start: number, end: number, target: number): [number, number][] {
  const total = countWords(text, start, end);
  const pieces = Math.max(1, Math.round(total / target));
  if (pieces <= 1) return [trimRange(text, start, end)];
  const per = total / pieces;

  let cuts = paragraphStarts(text, start, end);
  // Use finer boundaries when paragraphs are too coarse to reach the target.
  const coarse = (bounds: number[]) => {
    let prev = start;
    for (const b of [...bounds, end]) {
      if (countWords(text, prev, b) > per * 1.5) return true;
      prev = b;
    }
    return false;
  };
  if (coarse(cuts)) {
    const lineCuts: number[] = [];
    for (let i = text.indexOf('\n', start); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) lineCuts.push(i + 1);
    cuts = lineCuts;
  }
  if (coarse(cuts)) {
    const sentenceCuts: number[] = [];
    const re = /[.!?]["'”’)]*\s+/g;
    re.lastIndex = start;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null && m.index < end) sentenceCuts.push(m.index + m[0].length);
    cuts = sentenceCuts;
  }

  const result: [number, number][] = [];
  let pieceStart = start;
  let words = 0;
  let prev = start;
  for (const cut of [...cuts, end]) {
    words += countWords(text, prev, cut);
    prev = cut;
    const remaining = pieces - result.length;
    if (remaining > 1 && words >= per && cut < end) {
      result.push(trimRange(text, pieceStart, cut));
      pieceStart = cut;
      words = 0;
    }
  }
  result.push(trimRange(text, pieceStart, end));
  return result.filter(([s, e]) => e > s);
}

function splitLong(chapters: PlannedChapter[], text: string): PlannedChapter[] {
  const out: PlannedChapter[] = [];
  for (const ch of chapters) {
    if (countWords(text, ch.start, ch.end) <= MAX_CHAPTER_WORDS) {
      out.push(ch);
      continue;
    }
    const pieces = cutIntoPieces(text, ch.start, ch.end, TARGET_CHUNK_WORDS);
    pieces.forEach(([start, end], i) => out.push({ title: `${ch.title} - Part ${i + 1}`, order: 0, start, end }));
  }
  return out.map((c, i) => ({ ...c, order: i + 1 }));
}

function planFromHeadings(text: string, headings: Heading[]): PlannedChapter[] {
  type Draft = { title: string; start: number; end: number; bodyWords: number };
  const drafts: Draft[] = headings.map((h, i) => {
    const next = headings[i + 1];
    const end = next ? next.start : text.length;
    return {
      title: h.title ? `${h.label}: ${h.title}` : h.label,
      start: h.start,
      end,
      bodyWords: countWords(text, Math.min(h.bodyStart, end), end),
    };
  });

  // Front matter before the first heading.
  const first = drafts[0];
  if (first) {
    const [s, e] = trimRange(text, 0, first.start);
    const words = countWords(text, s, e);
    if (words >= MIN_CHAPTER_WORDS) drafts.unshift({ title: 'Opening', start: s, end: first.start, bodyWords: words });
    else if (e > s) first.start = s;
  }

  // Merge chapters with almost no body into the next one (the last into the previous).
  const merged: Draft[] = [];
  let carryStart: number | null = null;
  for (const d of drafts) {
    if (carryStart !== null) {
      d.start = carryStart;
      carryStart = null;
    }
    if (d.bodyWords < MIN_CHAPTER_WORDS) {
      carryStart = d.start;
      continue;
    }
    merged.push(d);
  }
  if (carryStart !== null) {
    const last = merged[merged.length - 1];
    if (last) last.end = text.length;
  }
  const chapters = merged.map((d, i) => {
    const [start, end] = trimRange(text, d.start, d.end);
    return { title: d.title, order: i + 1, start, end };
  });
  return splitLong(chapters, text);
}

function planWithoutMarkers(text: string): PlannedChapter[] {
  // Sections separated by three or more blank lines, each cut further if it is very long.
  const segments: [number, number][] = [];
  const re = /\n(?:[ \t]*\n){3,}/g;
  let prev = 0;
  let m: RegExpExecArray | null;
  const pushSection = (s: number, e: number) => {
    const [ts, te] = trimRange(text, s, e);
    if (te <= ts) return;
    if (countWords(text, ts, te) > TARGET_CHUNK_WORDS * 1.5)
      segments.push(...cutIntoPieces(text, ts, te, TARGET_CHUNK_WORDS));
    else segments.push([ts, te]);
  };
  while ((m = re.exec(text)) !== null) {
    pushSection(prev, m.index);
    prev = m.index + m[0].length;
  }
  pushSection(prev, text.length);

  // Group sections into chunks of about 5,000 words.
  const chunks: [number, number, number][] = [];
  let cur: [number, number, number] | null = null;
  for (const [s, e] of segments) {
    const w = countWords(text, s, e);
    if (cur && cur[2] + w > TARGET_CHUNK_WORDS * 1.3 && cur[2] >= TARGET_CHUNK_WORDS * 0.5) {
      chunks.push(cur);
      cur = null;
    }
    cur = cur ? [cur[0], e, cur[2] + w] : [s, e, w];
    if (cur[2] >= TARGET_CHUNK_WORDS) {
      chunks.push(cur);
      cur = null;
    }
  }
  if (cur) {
    const last = chunks[chunks.length - 1];
    if (last && cur[2] < TARGET_CHUNK_WORDS * 0.2) {
      last[1] = cur[1];
      last[2] += cur[2];
    } else chunks.push(cur);
  }
  return chunks.map(([start, end], i) => ({ title: `Chapter ${i + 1}`, order: i + 1, start, end }));
}

/** Plans a text as a single narration or as a book of chapters (see the rules above). */
export function planBook(title: string, text: string): BookPlan {
  void title; // kept in the signature for callers; chapter titles come from the text
  const lines = splitLines(text);
  const headings = dropContentsEntries(lines, text, chooseHeadings(text, findHeadings(text, lines)));
  const words = countWords(text);

  if (headings.length >= 2) {
    const chapters = planFromHeadings(text, headings);
    if (chapters.length >= 2 || words > LONG_TEXT_WORDS) return { kind: 'book', chapters };
  }
  if (words > LONG_TEXT_WORDS) {
    const chapters = headings.length === 1 ? planFromHeadings(text, headings) : planWithoutMarkers(text);
    if (chapters.length >= 2) return { kind: 'book', chapters };
    return { kind: 'book', chapters: planWithoutMarkers(text) };
  }
  return { kind: 'text' };
}
