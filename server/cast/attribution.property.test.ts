import fc from 'fast-check';
import { attributeBook } from './attribution';

/** Words of narration: plain ones, names, and every kind of apostrophe a quote mark must not be taken for. */
const NARRATION_WORDS = [
  'the',
  'old',
  'house',
  'stood',
  'by',
  'a',
  'river',
  'and',
  'rain',
  'fell',
  'all',
  'night',
  'Marta',
  'Tobias',
  'Captain Harris',
  'she',
  'he',
  'said',
  'don’t',
  "don't",
  "it's",
  "James'",
  'James’',
  "the boys'",
  "'90s",
  '’90s',
  "rock 'n' roll",
  'rock ’n’ roll',
  "'em",
  "o'clock",
  "O'Brien",
  '’tis',
  'twenty-one',
];
const PUNCTUATION = [' ', ' ', ' ', ', ', '. ', '; ', ' — ', '! ', '? '];

const narration = fc
  .array(fc.tuple(fc.constantFrom(...NARRATION_WORDS), fc.constantFrom(...PUNCTUATION)), {
    minLength: 1,
    maxLength: 30,
  })
  .map((pieces) =>
    pieces
      .map(([w, p]) => w + p)
      .join('')
      .trim(),
  );

const paragraphs = (p: fc.Arbitrary<string>) =>
  fc.array(p, { minLength: 1, maxLength: 8 }).map((ps) => ps.join('\n\n'));

const OPENING = new Set(['"', '“', "'", '‘']);
const CLOSING: Record<string, string[]> = { '"': ['"', '”'], '“': ['"', '”'], "'": ["'", '’'], '‘': ["'", '’'] };

describe('attributeBook properties', () => {
  it('finds no span in narration without quotes, whatever its apostrophes', () => {
    fc.assert(
      fc.property(fc.array(paragraphs(narration), { minLength: 1, maxLength: 3 }), (chapters) => {
        const result = attributeBook(chapters.map((text) => ({ text })));
        expect(result.chapters.flat()).toEqual([]);
        expect(result.characters).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('gives spans inside the text, in order, apart, each from an opening mark to its closing one', () => {
    const piece = fc.oneof(
      fc.constantFrom('"', '“', '”', "'", '‘', '’', ' ', ' ', '\n', '\n\n', ', ', '. ', '* * *'),
      fc.constantFrom(...NARRATION_WORDS),
      fc.string({ maxLength: 4 }),
    );
    const text = fc.array(piece, { maxLength: 60 }).map((ps) => ps.join(''));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 3 }), (chapters) => {
        const result = attributeBook(chapters.map((t) => ({ text: t })));
        result.chapters.forEach((spans, c) => {
          const t = chapters[c] ?? '';
          let previousEnd = 0;
          for (const s of spans) {
            expect(s.charStart).toBeGreaterThanOrEqual(previousEnd);
            expect(s.charEnd).toBeGreaterThan(s.charStart + 1);
            expect(s.charEnd).toBeLessThanOrEqual(t.length);
            const open = t[s.charStart] ?? '';
            expect(OPENING.has(open)).toBe(true);
            expect(CLOSING[open]).toContain(t[s.charEnd - 1]);
            expect(s.confidence).toBeGreaterThanOrEqual(0);
            expect(s.confidence).toBeLessThanOrEqual(1);
            previousEnd = s.charEnd;
          }
        });
      }),
      { numRuns: 500 },
    );
  });

  it('never gives a line after a scene break, with nothing to go on, to someone named only before it', () => {
    const NAMES = ['Marta', 'Tobias', 'Captain Harris', 'Mrs. Odell', 'Jonas'];
    const name = fc.constantFrom(...NAMES);
    const plain = fc
      .array(fc.constantFrom('the', 'old', 'house', 'river', 'grey', 'cold', 'wind', 'rain', 'at', 'last', 'now'), {
        minLength: 1,
        maxLength: 8,
      })
      .map((ws) => ws.join(' '));
    const before = fc.oneof(
      fc.tuple(plain, name).map(([w, n]) => `"${w}," said ${n}.`),
      fc.tuple(name, plain).map(([n, w]) => `${n} ${'frowned'}. "${w}."`),
      fc.tuple(plain, name).map(([w, n]) => `"${w}?" ${n} asked.`),
      fc.tuple(plain, name).map(([w, n]) => `"${w}, ${n}."`),
      plain.map((w) => `"${w}."`),
      fc.tuple(name, name, plain).map(([a, b, w]) => `${a} looked at ${b}. She said, "${w}."`),
    );
    const breakMark = fc.constantFrom('* * *', '#', '***', '~', '—');
    const after = fc.oneof(
      plain.map((w) => `"${w}."`),
      fc.tuple(plain, plain).map(([n, w]) => `${n.charAt(0).toUpperCase()}${n.slice(1)}. "${w}!"`),
    );
    fc.assert(
      fc.property(
        fc.array(before, { minLength: 1, maxLength: 6 }),
        breakMark,
        fc.array(after, { minLength: 1, maxLength: 4 }),
        (scene, mark, next) => {
          const text = [...scene, mark, ...next].join('\n\n');
          const breakAt = text.indexOf(`\n\n${mark}\n\n`);
          const result = attributeBook([{ text }]);
          const characters = new Set(result.characters.map((c) => c.id));
          for (const s of result.chapters[0] ?? []) {
            if (s.charStart > breakAt && characters.has(s.speaker)) expect(s.confidence).toBeLessThanOrEqual(0.5);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
