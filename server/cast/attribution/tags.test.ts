import { tagOf } from './tags';

/** The tag of the first quote of a one-paragraph text. */
function tag(text: string): string | null {
  const start = text.search(/["“]/);
  const end = text.slice(start + 1).search(/["”]/) + start + 2;
  const next = text.slice(end).search(/["“]/);
  const found = tagOf(text, { start, end, paragraph: 0, lastParagraph: 0 }, 0, next < 0 ? text.length : end + next);
  return found ? found.subject : null;
}

describe('tags', () => {
  it.each([
    ['"Come here," said Marta.', 'Marta'],
    ['"Come here," Marta said.', 'Marta'],
    ['"Come here," she whispered urgently.', 'she'],
    ['"Come here," asked the old captain.', 'the old captain'],
    ['"Come here," said Mr. Bennet, turning a page.', 'Mr. Bennet'],
    ['"Come here," cried his wife.', 'his wife'],
    ['"Come here," said I.', 'I'],
    ['Marta said, "Come here."', 'Marta'],
    ['Then the captain turned to him and said: "Come here."', 'the captain'],
    ['"Come here," said the March Hare.', 'the March Hare'],
    ['On which Seven looked up and said, "Come here."', 'Seven'],
    ['The captain answered: "Come here."', 'The captain'],
    ['"Come here." Marta frowned.', null],
    ['"Come here." The door closed.', null],
  ])('%s → %s', (text, subject) => {
    expect(tag(text)).toBe(subject);
  });

  it('prefers the tag that belongs to the quote: after it when it ends with a comma, before it when that ends with one', () => {
    // A quote ending in a full stop leaves "Tobias said" to the next sentence; "Marta said," opens it.
    expect(tag('Marta said, "Come here." Tobias said nothing.')).toBe('Marta');
    expect(tag('"Come here," said Tobias. Marta said nothing.')).toBe('Tobias');
  });
});
