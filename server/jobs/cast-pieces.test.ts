import { describe, expect, it } from 'vitest';
import { joinSentenceParts, voicedPieces } from './cast-pieces';
import type { Piece } from './synthesis';

const TEXT = '"Run," said Tom. Alice looked up. "Where?" she asked. "Home".';
const quote = (q: string, from = 0) => {
  const start = TEXT.indexOf(q, from);
  return { start, end: start + q.length };
};
const sentence = (s: string) => ({ start: TEXT.indexOf(s), end: TEXT.indexOf(s) + s.length });
const SENTENCES = ['"Run," said Tom.', 'Alice looked up.', '"Where?" she asked.', '"Home".'].map(sentence);
const CAST = {
  narrator: 'nar',
  spans: [
    { ...quote('"Run,"'), voice: 'tom' },
    { ...quote('"Where?"'), voice: 'alice' },
    { ...quote('"Home"'), voice: 'tom' },
  ].map((s) => ({ charStart: s.start, charEnd: s.end, voice: s.voice })),
};
const said = (p: Piece) => [TEXT.slice(p.start, p.end), p.voice];

describe('voicedPieces', () => {
  it('cuts a piece of several sentences where the speaker changes, each part in its voice', () => {
    const pieces = voicedPieces(TEXT, [{ start: 0, end: TEXT.length, sentences: SENTENCES }], CAST);
    expect(pieces.map(said)).toEqual([
      ['"Run,"', 'tom'],
      ['said Tom. Alice looked up.', 'nar'],
      ['"Where?"', 'alice'],
      ['she asked.', 'nar'],
      // The full stop after the closing quote is read with the quote.
      ['"Home".', 'tom'],
    ]);
    // Each part keeps the sentences (or the parts of them) it holds.
    expect(pieces[1]!.sentences.map((s) => TEXT.slice(s.start, s.end))).toEqual(['said Tom.', 'Alice looked up.']);
  });

  it('reads a quote the narrator is given with the narration around it, in one request', () => {
    const cast = { ...CAST, spans: CAST.spans.map((s, i) => (i === 1 ? { ...s, voice: 'nar' } : s)) };
    const pieces = voicedPieces(TEXT, [{ start: 0, end: TEXT.length, sentences: SENTENCES }], cast);
    expect(pieces.map(said)).toContainEqual(['said Tom. Alice looked up. "Where?" she asked.', 'nar']);
  });

  it('leaves a piece without quotes whole, in the narrator voice', () => {
    const alice = sentence('Alice looked up.');
    expect(voicedPieces(TEXT, [{ ...alice, sentences: [alice] }], CAST)).toEqual([
      { ...alice, sentences: [alice], voice: 'nar' },
    ]);
  });
});

describe('joinSentenceParts', () => {
  it('joins the parts of a sentence into one entry spanning them, with all their words', () => {
    const run = sentence('"Run," said Tom.');
    const alice = sentence('Alice looked up.');
    const joined = joinSentenceParts(
      [
        { start: 0, end: 0.5, char_start: 0, char_end: 6, words: [{ start: 0, end: 0.4, char_start: 1, char_end: 4 }] },
        { start: 0.5, end: 1.2, char_start: 7, char_end: run.end },
        { start: 1.2, end: 2, char_start: alice.start, char_end: alice.end },
      ],
      [run, alice],
    );
    expect(joined).toEqual([
      {
        start: 0,
        end: 1.2,
        char_start: run.start,
        char_end: run.end,
        words: [{ start: 0, end: 0.4, char_start: 1, char_end: 4 }],
      },
      { start: 1.2, end: 2, char_start: alice.start, char_end: alice.end },
    ]);
  });
});
