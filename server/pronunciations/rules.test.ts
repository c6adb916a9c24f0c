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
