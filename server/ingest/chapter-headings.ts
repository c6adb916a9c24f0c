/**
 * Chapter headings: which lines of a text are headings (the families and rules are described at
 * the top of chapters.ts), what each says (its label and title, tidied) and where its body starts.
 */

export type Family = 'roman' | 'number' | 'lone' | 'special' | 'part' | 'word';

export type Heading = {
  family: Family;
  line: number;
  start: number; // offset of the heading line
  bodyStart: number; // offset after heading (and title line if any)
  label: string; // "Chapter I", "Prologue", "Part One"
  title: string; // "" when none
  value: number | null; // lone-number value
};

export type Line = { start: number; end: number; text: string };

const ROMAN = /^(?=[MDCLXVI])M{0,3}(?:C[MD]|D?C{0,3})(?:X[CL]|L?X{0,3})(?:I[XV]|V?I{0,3})$/i;

const UNITS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const TEENS = [
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const ORDINALS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
  'twentieth',
  'last',
  'final',
];
const NUMBER_WORD = `(?:(?:${TENS.join('|')})(?:[- ](?:${UNITS.join('|')}))?|${TEENS.join('|')}|${UNITS.join('|')}|${ORDINALS.join('|')}|hundred)`;

// A title after the label: "CHAPTER I. The Beginning", "Chapter 2: Home", "Part One — Youth".
const TITLE_TAIL = String.raw`(?:\s*[.:—–]\s*(.*?)|\s+-\s+(.*?))?`;

const RE_ROMAN = new RegExp(String.raw`^(Chapter|CHAPTER)\s+([IVXLCDM]+|[ivxlcdm]+)${TITLE_TAIL}\s*$`);
const RE_NUMBER = new RegExp(String.raw`^(Chapter|CHAPTER|Chap\.|CHAP\.|Ch\.|CH\.)\s*(\d{1,4})${TITLE_TAIL}\s*$`);
const RE_LONE = /^(\d{1,3})\.?$/;
const RE_SPECIAL = new RegExp(
  String.raw`^(Prologue|Epilogue|Introduction|Preface|Appendix|Foreword|Afterword|PROLOGUE|EPILOGUE|INTRODUCTION|PREFACE|APPENDIX|FOREWORD|AFTERWORD)(?:\s+([A-Z]|\d{1,3}|[IVX]{1,5}))?${TITLE_TAIL}\s*$`,
);
const RE_PART = new RegExp(
  String.raw`^(Part|PART|Book|BOOK)\s+(\d{1,3}|[IVXLC]+|${NUMBER_WORD})${TITLE_TAIL}\s*$`,
  'i',
);
const RE_WORD = new RegExp(String.raw`^(Chapter|CHAPTER)\s+(${NUMBER_WORD})${TITLE_TAIL}\s*$`, 'i');

function titleCase(word: string): string {
  return word.toLowerCase().replace(/(^|[\s-])([a-z])/g, (_m, pre: string, c: string) => pre + c.toUpperCase());
}

/** ALL-CAPS titles become Title Case; others keep the author's casing. */
export function tidyTitle(raw: string): string {
  const t = raw
    .replace(/\s+/g, ' ')
    .replace(/^[\s.:—–-]+|[\s.:—–-]+$/g, '')
    .trim();
  if (t === '') return '';
  if (/[A-Z]/.test(t) && t === t.toUpperCase()) {
    return t.toLowerCase().replace(/(^|[\s"“(])([a-z])/g, (_m, pre: string, c: string) => pre + c.toUpperCase());
  }
  return t;
}

type LineMatch = { family: Family; label: string; title: string; value: number | null };

export function matchLine(line: string): LineMatch | null {
  if (line.length === 0 || line.length > 120) return null;
  let m = RE_ROMAN.exec(line);
  if (m && ROMAN.test(m[2] ?? '')) {
    return {
      family: 'roman',
      label: `Chapter ${(m[2] ?? '').toUpperCase()}`,
      title: tidyTitle(m[3] ?? m[4] ?? ''),
      value: null,
    };
  }
  m = RE_NUMBER.exec(line);
  if (m)
    return { family: 'number', label: `Chapter ${Number(m[2])}`, title: tidyTitle(m[3] ?? m[4] ?? ''), value: null };
  m = RE_LONE.exec(line);
  if (m) return { family: 'lone', label: `Chapter ${Number(m[1])}`, title: '', value: Number(m[1]) };
  m = RE_SPECIAL.exec(line);
  if (m) {
    const suffix = m[2] ? ` ${m[2]}` : '';
    return {
      family: 'special',
      label: `${titleCase(m[1] ?? '')}${suffix}`,
      title: tidyTitle(m[3] ?? m[4] ?? ''),
      value: null,
    };
  }
  m = RE_PART.exec(line);
  if (m && /^[PB]/.test(line)) {
    const n = m[2] ?? '';
    const num = /^[ivxlc]+$/i.test(n) ? (ROMAN.test(n) ? n.toUpperCase() : null) : /^\d+$/.test(n) ? n : titleCase(n);
    if (num !== null)
      return {
        family: 'part',
        label: `${titleCase(m[1] ?? '')} ${num}`,
        title: tidyTitle(m[3] ?? m[4] ?? ''),
        value: null,
      };
  }
  m = RE_WORD.exec(line);
  if (m && /^C/.test(line)) {
    return {
      family: 'word',
      label: `Chapter ${titleCase(m[2] ?? '')}`,
      title: tidyTitle(m[3] ?? m[4] ?? ''),
      value: null,
    };
  }
  return null;
}

export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let pos = 0;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    lines.push({ start: pos, end, text: text.slice(pos, end).trim() });
    if (nl === -1) break;
    pos = nl + 1;
  }
  return lines;
}

/** A short line that can serve as a chapter title. */
function titleLike(line: string): boolean {
  if (line === '' || line.length > 80) return false;
  if (matchLine(line) !== null) return false;
  const words = line.split(/\s+/).length;
  if (words > 10) return false;
  if (/[.!?,;:"'”’)]$/.test(line) && !/^[A-Z0-9\s'’.-]+$/.test(line)) return false;
  return /^[\p{Lu}\p{N}"“'‘(]/u.test(line);
}

export function findHeadings(text: string, lines: Line[]): Heading[] {
  const found: Heading[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    if (line.text === '') continue;
    if (i > 0 && (lines[i - 1] as Line).text !== '') continue; // must start a block
    const m = matchLine(line.text);
    if (!m) continue;
    let title = m.title;
    let bodyStart = line.end;
    if (title === '' && m.family !== 'lone') {
      const next = lines[i + 1];
      const afterBlank = lines[i + 2];
      const afterThat = lines[i + 3];
      if (next && next.text !== '' && titleLike(next.text) && (lines[i + 2]?.text ?? '') === '') {
        title = tidyTitle(next.text);
        bodyStart = next.end;
      } else if (
        next?.text === '' &&
        afterBlank &&
        titleLike(afterBlank.text) &&
        afterBlank.text.split(/\s+/).length <= 8 &&
        !/[.!?,;:"”]$/.test(afterBlank.text) &&
        (afterThat === undefined || afterThat.text === '')
      ) {
        title = tidyTitle(afterBlank.text);
        bodyStart = afterBlank.end;
      }
    }
    const indent = text.slice(line.start, line.end).length - text.slice(line.start, line.end).trimStart().length;
    found.push({
      family: m.family,
      line: i,
      start: line.start + indent,
      bodyStart,
      label: m.label,
      title,
      value: m.value,
    });
  }
  return found;
}
