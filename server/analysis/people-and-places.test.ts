import nlp from 'compromise';
import { createRequire } from 'node:module';
import { cleanName } from './characters';
import { partOfSpeechLexicon } from './lexicon';
import { findPeopleAndPlaces, namingSentences } from './people-and-places';

// The analysis loads compromise with `require` only when it has a sentence to give it.
vi.mock('node:module', async (original) => {
  const actual = await original<typeof import('node:module')>();
  return { ...actual, createRequire: vi.fn(actual.createRequire) };
});

const NAMING = [
  'Anna Marsh walked slowly towards the house with Mr. Tom Baker.',
  '"Is that you, Jane?" asked Edward Rochester from the gate of Thornfield Hall.',
  'They rode to London with Captain Harris and his sister Margaret.',
  'Nobody in Whitby remembered who had planted the orchard on the hill.',
  'Dr. Watson wrote to Sherlock Holmes from Baker Street before dawn.',
  'Margaret laughed at the storm.',
];
const ORDINARY = [
  'The rain came in from the west, and the boats stayed in the harbour.',
  'Every morning I walked to the end of the pier and back.',
  'Nobody knew why the bell had stopped ringing.',
];

describe('findPeopleAndPlaces', () => {
  // compromise reads the sample a few paragraphs at a time, and only its sentences that may name
  // someone; the analysis loads the package's one-file build; what it finds is what compromise's ES
  // modules find in the whole sample at once.
  it('finds the same people and places as compromise reading the whole text at once', () => {
    const sentences = [...NAMING, ...ORDINARY];
    let text = '';
    for (let i = 0; text.length < 20_000; i += 1)
      text += `${sentences[(i * 5) % sentences.length]}${i % 4 ? ' ' : '\n\n'}`;
    const found = findPeopleAndPlaces(text)!;
    const whole = nlp(text);
    const names = (list: string[]) => list.map(cleanName).filter(Boolean);
    expect(found.people).toEqual(names(whole.people().out('array') as string[]));
    expect(found.places).toEqual(names(whole.places().out('array') as string[]));
    expect(new Set(found.people)).toContain('Edward Rochester');
    expect(new Set(found.places)).toContain('London');
  });

  it('never loads compromise for a text of which no sentence may name anyone', async () => {
    // A thread's first analysis: the module as it is before compromise was ever loaded.
    vi.resetModules();
    const fresh = (await import('./people-and-places')).findPeopleAndPlaces;
    const load = vi.mocked(createRequire);
    load.mockClear();
    const text = `${ORDINARY.join(' ')}\n\n${ORDINARY.join(' ')}`;
    expect(fresh(text)).toMatchObject({ people: [], places: [] });
    expect(load).not.toHaveBeenCalled();
    expect(fresh(`${text}\n\n${NAMING[5]}`)?.people).toEqual(['Margaret']);
    expect(load).toHaveBeenCalled();
  });
});

describe('namingSentences', () => {
  it('keeps the sentences with a capitalised word after the first, or beginning with a name', () => {
    const lexicon = partOfSpeechLexicon();
    const text = `${ORDINARY[0]} ${NAMING[5]} ${ORDINARY[1]}\n\n${ORDINARY[2]}\n\n${NAMING[3]} Rose went home. Will it rain?`;
    // "Rose" is a name to the lexicon; "Will" starting a question is not (nor to compromise).
    expect(namingSentences(text, lexicon)).toBe(`${NAMING[5]}\n\n${NAMING[3]} Rose went home.`);
  });
});
