import nlp from 'compromise';
import { cleanName } from './characters';
import { findPeopleAndPlaces } from './people-and-places';

// compromise reads the sample a few paragraphs at a time, and the analysis loads the package's
// one-file build; what it finds is what compromise's ES modules find in the whole sample at once.
describe('findPeopleAndPlaces', () => {
  it('finds the same people and places as compromise reading the whole text at once', () => {
    const sentences = [
      'Anna Marsh walked slowly towards the house with Mr. Tom Baker.',
      '"Is that you, Jane?" asked Edward Rochester from the gate of Thornfield Hall.',
      'They rode to London with Captain Harris and his sister Margaret.',
      'Nobody in Whitby remembered who had planted the orchard on the hill.',
      'Dr. Watson wrote to Sherlock Holmes from Baker Street before dawn.',
      'The rain came in from the west, and the boats stayed in the harbour.',
    ];
    let text = '';
    for (let i = 0; text.length < 20_000; i += 1)
      text += `${sentences[(i * 5) % sentences.length]}${i % 4 ? ' ' : '\n\n'}`;
    const found = findPeopleAndPlaces(text)!;
    const whole = nlp(text);
    const names = (list: string[]) => list.map(cleanName).filter(Boolean);
    expect(found.people).toEqual(names(whole.people().out('array') as string[]));
    expect(found.places).toEqual(names(whole.places().out('array') as string[]));
    expect(new Set(found.people)).toContain('Edward Rochester');
  });
});
