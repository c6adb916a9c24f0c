import { findQuotes, quoteStyle, splitParagraphs } from './quotes';

const spans = (text: string) => {
  const quotes = findQuotes(text, splitParagraphs(text), quoteStyle([text]));
  return quotes.map((q) => text.slice(q.start, q.end));
};

describe('quotes', () => {
  it('splits at blank lines, or at line breaks when there is no blank line, and marks scene starts', () => {
    const blank = splitParagraphs('One line\nwrapped.\n\nTwo.\n\n* * *\n\nThree.\n\n\n\nFour.');
    expect(blank.map((p) => p.sceneStart)).toEqual([true, false, true, true]);
    expect(splitParagraphs('One.\nTwo.\n#\nThree.')).toHaveLength(3);
    const headed = splitParagraphs('One.\n\nChapter Two: The Mill\n\nTwo.\n\nIV.\n\nThree.\n\nChapter and verse.');
    expect(headed.map((p) => p.sceneStart)).toEqual([true, true, false, true, false, false]);
  });

  it('finds straight and curly double quotes, and a quote broken by its tag', () => {
    expect(spans('"Come here," said Marta, "and look." “Now,” she said.')).toEqual([
      '"Come here,"',
      '"and look."',
      '“Now,”',
    ]);
  });

  it('runs a speech over paragraphs when the next one opens with a mark', () => {
    const text = '"First part,\n\n"second part."\n\nNarration with "a quote" after.';
    expect(spans(text)).toEqual(['"First part,\n\n"second part."', '"a quote"']);
  });

  it('leaves a quote that never closes out, and starts again at a new opening mark', () => {
    expect(spans('"Never closed.\n\nPlain narration. "Closed."')).toEqual(['"Closed."']);
    expect(spans('“Never closed. “Closed.”')).toEqual(['“Closed.”']);
  });

  it('reads single-quote dialogue with apostrophes in and around it', () => {
    const text = "'I can't,' said Ann. 'James' hat is in the boys' room.' Rock 'n' roll in the '90s, o'clock.";
    expect(quoteStyle([text])).toBe('single');
    expect(spans(text)).toEqual(["'I can't,'", "'James' hat is in the boys' room.'"]);
    expect(spans('‘Go away’ she said, ‘and don’t come back’.')).toEqual(['‘Go away’', '‘and don’t come back’']);
  });

  it('takes double quotes for dialogue when they are the more frequent, single ones then being nested or apostrophes', () => {
    const text = "\"He said 'no' to me,\" Ann said. It's the 'best' way.";
    expect(quoteStyle([text])).toBe('double');
    expect(spans(text)).toEqual(['"He said \'no\' to me,"']);
  });
});
