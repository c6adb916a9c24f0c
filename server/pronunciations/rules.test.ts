import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRules, matchingEntries, rewrite } from './rules';

const rules = compileRules([
  { text: 'Hermione', sayAs: 'her-my-oh-nee' },
  { text: 'GIF', sayAs: 'jiff' },
  { text: 'New York', sayAs: 'New York City' },
  { text: 'York', sayAs: 'Yorrk' },
]);

describe('pronunciations', () => {
  it('replace whole words, ignoring case, the longest entry first', () => {
    const out = rewrite('Hermione saw a gif in New\nYork, not in York or Yorkshire. GIFs? HERMIONE!', rules);
    expect(out.spoken).toBe(
      'her-my-oh-nee saw a jiff in New York City, not in Yorrk or Yorkshire. GIFs? her-my-oh-nee!',
    );
    expect(out.applied.map((e) => e.text)).toEqual(['Hermione', 'GIF', 'New York', 'York']);
  });

  it('leave a text without their words unchanged', () => {
    expect(rewrite('Nothing to see.', rules)).toMatchObject({ spoken: 'Nothing to see.', applied: [] });
    expect(rewrite('Anything at all.', compileRules([]))).toMatchObject({ spoken: 'Anything at all.', applied: [] });
  });

  it("place word timings of the spoken text back on the book's words", () => {
    const text = 'Ask Hermione now.';
    const out = rewrite(text, rules);
    expect(out.spoken).toBe('Ask her-my-oh-nee now.');
    const timed = out.toOriginal([
      { start: 0, end: 0.2, charStart: 0, charEnd: 3 },
      { start: 0.25, end: 0.9, charStart: 4, charEnd: 17 },
      { start: 1, end: 1.2, charStart: 18, charEnd: 21 },
    ]);
    expect(timed.map((w) => [text.slice(w.charStart, w.charEnd), w.start, w.end])).toEqual([
      ['Ask', 0, 0.2],
      ['Hermione', 0.25, 0.9],
      ['now', 1, 1.2],
    ]);
    // A phrase said in several words is one word of the book.
    const city = 'In New York today.';
    const said = rewrite(city, rules);
    expect(said.spoken).toBe('In New York City today.');
    const words = said.toOriginal([
      { start: 0, end: 0.1, charStart: 0, charEnd: 2 },
      { start: 0.2, end: 0.3, charStart: 3, charEnd: 6 },
      { start: 0.4, end: 0.5, charStart: 7, charEnd: 11 },
      { start: 0.6, end: 0.7, charStart: 12, charEnd: 16 },
      { start: 0.8, end: 0.9, charStart: 17, charEnd: 22 },
    ]);
    expect(words.map((w) => [city.slice(w.charStart, w.charEnd), w.start, w.end])).toEqual([
      ['In', 0, 0.1],
      ['New York', 0.2, 0.7],
      ['today', 0.8, 0.9],
    ]);
  });

  it('finds which entries a long text contains, in list order', async () => {
    const paragraph = 'The river ran past the mill, and the miller slept.\n';
    const book = paragraph.repeat(2000) + 'At the end a GIF from york.' + paragraph.repeat(10);
    expect((await matchingEntries(book, rules)).map((e) => e.text)).toEqual(['GIF', 'York']);
    expect(await matchingEntries(book, null)).toEqual([]);
  });
});

describe('entries with characters a pattern would read as its own', () => {
  const odd = [
    { text: 'Jean-Luc', sayAs: 'zhan luke' },
    { text: 'X-ray', sayAs: 'ex ray' },
    { text: "O'Brien", sayAs: 'oh bryan' },
    { text: 'St. Ives', sayAs: 'saint ives' },
    { text: 'C++', sayAs: 'see plus plus' },
    { text: '[sic]', sayAs: 'sick' },
    { text: 'a/b', sayAs: 'a over b' },
    { text: '$5', sayAs: 'five dollars' },
    { text: 'Ægir', sayAs: 'eye geer' },
    { text: 'Чехов', sayAs: 'chekhov' },
    { text: '東京', sayAs: 'tokyo' },
    { text: '🙂', sayAs: 'smiley' },
    { text: 'AT&T', sayAs: 'A T and T' },
    { text: 'x|y', sayAs: 'x or y' },
    { text: '(a)', sayAs: 'item a' },
  ];

  it('match literally, each where the book writes it and nowhere else', () => {
    const compiled = compileRules(odd);
    const text = odd.map((e) => `Then ${e.text} came.`).join(' ');
    const out = rewrite(text, compiled);
    expect(out.spoken).toBe(odd.map((e) => `Then ${e.sayAs} came.`).join(' '));
    expect(out.applied).toEqual(odd);
    // Characters the pattern would read as its own match only themselves.
    expect(rewrite('Jean Luc and Jean_Luc, x or y, C, St Ives, 5 dollars.', compiled).applied).toEqual([]);
  });
});

/** Text made of words, the pattern's own characters, other scripts, emoji and blank space. */
const PIECES = [
  'Jean',
  '-',
  'Luc',
  "'",
  '.',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '\\',
  '/',
  '|',
  '^',
  '$',
  '*',
  '+',
  '?',
  'é',
  'ß',
  'Ω',
  'д',
  '東',
  '🙂',
  '👩‍👩‍👧',
  '1',
  ' ',
  ' ',
  '\n',
];
const piece = fc.constantFrom(...PIECES);
const textOf = (min: number, max: number) =>
  fc
    .array(fc.oneof(piece, fc.string({ unit: 'grapheme', maxLength: 3 })), { minLength: min, maxLength: max })
    .map((p) => p.join(''));

describe('any entry the pronunciation list accepts', () => {
  it('compiles, and a text holding its words reads them as said, whatever characters they are made of', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ text: textOf(1, 6), sayAs: fc.constantFrom('said so', 'zhan luke') }), { maxLength: 6 }),
        textOf(0, 40),
        async (entries, text) => {
          const rules = compileRules(entries);
          // Never throws, whatever the entries or the text hold.
          const out = rewrite(text, rules);
          await matchingEntries(text, rules);
          if (rules === null) return;
          // An entry placed alone between blanks is read as said (the longest entry wins an overlap).
          const entry = rules.entries[0]!;
          const placed = rewrite(`${text} \n${entry.text.trim()}\n`, rules);
          expect(placed.applied.length).toBeGreaterThan(0);
          expect(out.spoken.length).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
