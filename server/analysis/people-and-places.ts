/**
 * The first half of the tutoring analysis, the only part that loads compromise: the text is cleaned
 * and sampled (./samples.ts) and compromise finds the people and places in the sentences of its
 * small nlp sample that may name someone or somewhere.
 * The second half (./tutoring.ts, analyseFound) works from what this returns, with retext instead.
 * The analysis thread runs the halves in two threads one after the other (./run.ts), so the two
 * NLP libraries are never in memory together.
 */
import { createRequire } from 'node:module';
import type Compromise from 'compromise';
import { collectThreadGarbageNow } from '../garbage';
import { cleanName } from './characters';
import { partOfSpeechLexicon, type SortedLexicon } from './lexicon';
import { splitSentences } from '../tts/chunking';
import { cleanText, keywordSample, nlpSample, scanSample } from './samples';

/**
 * compromise's own one-file build, which its package gives `require` (the same version as its ES
 * modules, which `import` gets): this thread loads it in about half the time of its 300-odd module
 * files, about 0.2 s less CPU and 8 MB less at its peak (docs/adr/0054-only-naming-sentences-go-to-compromise.md).
 * It is loaded only for a text with a sentence that may name someone: loading
 * it alone costs some 0.4 s of CPU and 25 MB.
 */
let compromise: typeof Compromise | null = null;
const nlp = (text: string) => {
  if (compromise === null) {
    compromise = createRequire(import.meta.url)('compromise') as typeof Compromise;
    collectThreadGarbageNow(); // what unpacking its lexicon left (about 10 MB of the thread's peak)
  }
  return compromise(text);
};

/** What the second half of the analysis reads: the text's samples and the names compromise found. */
export interface PeopleAndPlaces {
  scan: string;
  keywordSample: string;
  people: string[];
  places: string[];
}

/** The samples and the people and places in them; null for a text without a letter. Never throws. */
export function findPeopleAndPlaces(text: string): PeopleAndPlaces | null {
  try {
    const clean = cleanText(text);
    if (!/\p{L}/u.test(clean)) return null;
    const named = namingSentences(nlpSample(clean), partOfSpeechLexicon());
    return { scan: scanSample(clean), keywordSample: keywordSample(clean), ...nlpEntities(named) };
  } catch {
    return null;
  }
}

/**
 * compromise tells a person or a place by its capitals: in a sentence whose only capital is its
 * first letter, and that first word an ordinary one, it finds nobody (nor does anyone reading it),
 * yet it reads that sentence as slowly as any other, some 12 µs a character. So it is given only
 * the sentences that have a capitalised word after their first (other than "I"), or begin with a
 * word the part-of-speech lexicon does not know in lower case or knows as a proper noun ("Anna",
 * "London"); the others are left out, their paragraphs kept. A text of which no sentence may name
 * anyone (many an essay or manual) never loads compromise (docs/adr/0054-only-naming-sentences-go-to-compromise.md).
 */
export function namingSentences(sample: string, lexicon: SortedLexicon): string {
  const ordinary = (word: string): boolean => {
    const tag = lexicon.get(word)?.[0] ?? lexicon.get(word.toLowerCase())?.[0];
    return tag !== undefined && !tag.startsWith('NNP');
  };
  const mayName = (sentence: string): boolean => {
    let first = true;
    for (const [word] of sentence.matchAll(WORD)) {
      if (CAPITALISED.test(word) && (first ? !ordinary(word) : !FIRST_PERSON.test(word))) return true;
      first = false;
    }
    return false;
  };
  return sample
    .split(/\n[ \t]*\n/)
    .map((paragraph) =>
      splitSentences(paragraph)
        .map(({ start, end }) => paragraph.slice(start, end))
        .filter(mayName)
        .join(' '),
    )
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}

const WORD = /\p{L}[\p{L}\p{M}'’]*/gu;
const CAPITALISED = /^\p{Lu}/u;
/** "I", "I'm", "I'd", "I'll", "I've": capitalised wherever they stand. */
const FIRST_PERSON = /^I(?:['’](?:m|d|ll|ve))?$/;
/**
 * compromise is given the sample a few paragraphs at a time: its cost grows faster than the text
 * it is given (the bench's 30,000-character sample took about 1.1 s in one piece and 0.7 s in
 * pieces of 4,000 characters), and it reads sentence by sentence, so it finds the same people and
 * places. Pieces end at blank lines only: a single line break may be inside a sentence.
 */
const NLP_PIECE_CHARS = 4_000;

function nlpPieces(sample: string): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const paragraph of sample.split(/\n[ \t]*\n/)) {
    piece = piece === '' ? paragraph : `${piece}\n\n${paragraph}`;
    if (piece.length >= NLP_PIECE_CHARS) {
      pieces.push(piece);
      piece = '';
    }
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}

/** People and places compromise finds in the (small) nlp sample: one parse of each piece for both. */
function nlpEntities(sample: string): { people: string[]; places: string[] } {
  const people: string[] = [];
  const places: string[] = [];
  if (sample === '') return { people, places };
  try {
    for (const piece of nlpPieces(sample)) {
      const doc = nlp(piece);
      for (const p of doc.people().out('array') as string[]) people.push(cleanName(p));
      for (const p of doc.places().out('array') as string[]) places.push(cleanName(p));
    }
  } catch {
    // compromise failed on odd input: the regex cues still work
  }
  return { people: people.filter(Boolean), places: places.filter(Boolean) };
}
