import { describe, expect, it } from 'vitest';
import { splitIntoChunks, splitSentences, type Chunk } from './chunking';

// Small deterministic PRNG (mulberry32) so failures are reproducible.
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'the',
  'a',
  'Rochester',
  'Jane',
  'moor',
  'said',
  'governess',
  'Thornfield',
  'café',
  'naïve',
  'Zoë',
  'fiancée',
  '東京',
  'Москва',
  'straße',
  'déjà',
  'vu',
  "don't",
  'well-known',
  '3.14',
  '1,000',
  'e-mail',
  '😀',
  '👩‍👩‍👧',
  'Ωmega',
  'x',
  'antidisestablishmentarianism',
  'Pneumonoultramicroscopic',
];
const OPENERS = ['', '', '', '"', '“', '(', '‘'];
const CLOSERS = ['.', '.', '.', '!', '?', '…', '."', '?”', '.)', ';', ':', ',', '—'];
const PREFIXES = ['Mr.', 'Mrs.', 'Dr.', 'St.', 'Prof.', 'J.', 'e.g.', 'i.e.', 'U.S.'];
const SPACES = [' ', ' ', ' ', '  ', '\n', '\n\n', '\t', ' \u00a0', '\r\n'];

function genText(r: () => number, maxWordLen: number): string {
  const pick = <T>(arr: readonly T[]) => arr[Math.floor(r() * arr.length)]!;
  const sentences = Math.floor(r() * 25);
  let out = r() < 0.3 ? pick(SPACES) : '';
  for (let s = 0; s < sentences; s++) {
    const words = 1 + Math.floor(r() * (r() < 0.1 ? 120 : 18));
    let sentence = pick(OPENERS);
    for (let w = 0; w < words; w++) {
      let word = r() < 0.05 ? pick(PREFIXES) : pick(WORDS);
      if (r() < 0.03) word = 'z'.repeat(1 + Math.floor(r() * maxWordLen)); // long words
      if (word.length > maxWordLen) word = word.slice(0, maxWordLen);
      sentence += (w === 0 ? '' : r() < 0.05 ? pick(SPACES) : ' ') + word + (r() < 0.08 ? ',' : '');
    }
    out += sentence + pick(CLOSERS) + pick(SPACES);
  }
  return out;
}

const WORDCHAR = /[\p{L}\p{M}\p{N}]/u;
const nonSpace = (s: string) => s.replace(/\s+/gu, '');

function checkInvariants(text: string, chunks: Chunk[], max: number) {
  let prevEnd = 0;
  for (const c of chunks) {
    expect(c.text.length).toBeLessThanOrEqual(max);
    expect(c.text.length).toBeGreaterThan(0);
    expect(text.slice(c.start, c.end)).toBe(c.text);
    expect(c.text.trim()).toBe(c.text);
    expect(c.start).toBeGreaterThanOrEqual(prevEnd);
    prevEnd = c.end;
    expect(c.sentences.length).toBeGreaterThan(0);
    expect(c.sentences[0]!.start).toBe(c.start);
    expect(c.sentences[c.sentences.length - 1]!.end).toBe(c.end);
    let sPrev = c.start;
    for (const s of c.sentences) {
      expect(s.start).toBeGreaterThanOrEqual(sPrev);
      expect(s.end).toBeGreaterThan(s.start);
      expect(s.end - s.start).toBeLessThanOrEqual(max);
      const st = text.slice(s.start, s.end);
      expect(st.trim()).toBe(st);
      sPrev = s.end;
      // No boundary between two letters of one word (start and end of every speakable unit).
      const inside = (pos: number) =>
        pos > 0 && pos < text.length && WORDCHAR.test(text[pos - 1]!) && WORDCHAR.test(text[pos]!);
      expect(inside(s.start), `start ${s.start} in ${JSON.stringify(text.slice(s.start - 5, s.start + 5))}`).toBe(
        false,
      );
      expect(inside(s.end), `end ${s.end} in ${JSON.stringify(text.slice(s.end - 5, s.end + 5))}`).toBe(false);
    }
  }
  // Every non-space character, in order, exactly once.
  expect(nonSpace(chunks.map((c) => c.text).join(''))).toBe(nonSpace(text));
}

describe('splitIntoChunks', () => {
  it('holds its invariants on 300 generated texts', () => {
    const r = rng(42);
    for (let i = 0; i < 300; i++) {
      const max = [40, 60, 100, 250, 1000, 4096][i % 6]!;
      const text = genText(r, Math.min(max, 35));
      const chunks = splitIntoChunks(text, max);
      checkInvariants(text, chunks, max);
    }
  });

  it('groups whole sentences up to the limit', () => {
    const text = 'One two. Three four five. Six.';
    const chunks = splitIntoChunks(text, 20);
    expect(chunks.map((c) => c.text)).toEqual(['One two.', 'Three four five.', 'Six.']);
    expect(splitIntoChunks(text, 100).map((c) => c.text)).toEqual([text]);
    const two = splitIntoChunks(text, 25);
    expect(two.map((c) => c.text)).toEqual(['One two. Three four five.', 'Six.']);
    expect(two[0]!.sentences).toEqual([
      { start: 0, end: 8 },
      { start: 9, end: 25 },
    ]);
  });

  it('keeps "Mr. Rochester" and quoted dialogue in one sentence', () => {
    const text = 'Mr. Rochester came in. "Is that you, Jane?" he asked. Dr. J. R. Smith nodded.';
    const sentences = splitSentences(text).map((s) => text.slice(s.start, s.end));
    expect(sentences).toEqual(['Mr. Rochester came in.', '"Is that you, Jane?" he asked.', 'Dr. J. R. Smith nodded.']);
  });

  // The segmenter is given a long text a window at a time (V8 before 12 took quadratic time for
  // one long input): the sentences are the same as ICU finds in the whole text.
  it('splits a long paragraph exactly as ICU splits the whole text', () => {
    const kinds = [
      'The harbour was quiet.',
      'Was it? Nobody knew!',
      'See the list etc. 123 and more came after it.',
      'Pi is 3.14 or so.',
      'Wait... then it rained.',
      'Ça va? Oui.',
      `Long${' word'.repeat(2_000)}.`,
    ];
    let text = '';
    for (let i = 0; text.length < 60_000; i += 1) text += `${kinds[(i * 5) % kinds.length]} `;
    const whole = [...new Intl.Segmenter('en', { granularity: 'sentence' }).segment(text)]
      .map((seg) => seg.segment.trim())
      .filter((sentence) => sentence.length > 0);
    expect(splitSentences(text).map((s) => text.slice(s.start, s.end))).toEqual(whole);
  });

  it('splits a long text of paragraphs as it splits each paragraph', () => {
    const paragraphs = Array.from(
      { length: 400 },
      (_, i) => `Mr. Rochester came in, chapter ${i}. "Is that you, Jane?" he asked. Dr. J. R. Smith nodded.`,
    );
    const text = paragraphs.join('\n\n');
    let offset = 0;
    const expected = paragraphs.flatMap((p) => {
      const spans = splitSentences(p).map((s) => ({ start: s.start + offset, end: s.end + offset }));
      offset += p.length + 2;
      return spans;
    });
    expect(splitSentences(text)).toEqual(expected);
  });

  it('cuts a long text without a full stop only where ICU finds word boundaries in the whole text', () => {
    const words = ['well-known', 'harbour', 'a,b', 'lamp', '日本語の文', 'x'.repeat(40), '—', 'walls'];
    let text = '';
    for (let i = 0; text.length < 30_000; i += 1) text += `${words[(i * 3) % words.length]}${i % 4 ? ' ' : ''}`;
    text = text.trim();
    const boundaries = new Set(
      [...new Intl.Segmenter('en', { granularity: 'word' }).segment(text)].map((seg) => seg.index),
    );
    const chunks = splitIntoChunks(text, 300);
    checkInvariants(text, chunks, 300);
    for (const chunk of chunks.slice(1)) {
      // A chunk starts at a word boundary (after any whitespace that follows one).
      let at = chunk.start;
      while (at > 0 && /\s/.test(text[at - 1]!)) at -= 1;
      expect(boundaries.has(at) || boundaries.has(chunk.start)).toBe(true);
    }
  });

  it('splits an over-long sentence at word boundaries', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu.';
    const chunks = splitIntoChunks(text, 16);
    checkInvariants(text, chunks, 16);
    for (const c of chunks) for (const w of c.text.split(/\s+/)) expect(text.split(/\s+/)).toContain(w);
  });

  it('cuts a single word longer than the limit at grapheme boundaries only', () => {
    const word = '😀'.repeat(10) + 'x'.repeat(10);
    const chunks = splitIntoChunks(`Start. ${word} end.`, 7);
    expect(nonSpace(chunks.map((c) => c.text).join(''))).toBe(nonSpace(`Start. ${word} end.`));
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(7);
      expect(c.text).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  });

  it('drops whitespace-only input and rejects a bad limit', () => {
    expect(splitIntoChunks('', 100)).toEqual([]);
    expect(splitIntoChunks(' \n\t \n', 100)).toEqual([]);
    expect(() => splitIntoChunks('x', 0)).toThrow(RangeError);
  });

  it('reports offsets into the original text with leading whitespace and CRLF', () => {
    const text = '\r\n  First line.\r\n\r\nSecond one!  ';
    const chunks = splitIntoChunks(text, 12);
    expect(chunks.map((c) => [c.start, c.end, c.text])).toEqual([
      [4, 15, 'First line.'],
      [19, 30, 'Second one!'],
    ]);
  });
});
