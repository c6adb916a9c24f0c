/**
 * The first half of the tutoring analysis, the only part that loads compromise: the text is cleaned
 * and sampled (./samples.ts) and compromise finds the people and places in its small nlp sample.
 * The second half (./tutoring.ts, analyseFound) works from what this returns, with retext instead.
 * The analysis thread runs the halves in two threads one after the other (./run.ts), so the two
 * NLP libraries are never in memory together.
 */
import { createRequire } from 'node:module';
import type Compromise from 'compromise';
import { cleanName } from './characters';
import { cleanText, keywordSample, nlpSample, scanSample } from './samples';

/**
 * compromise's own one-file build, which its package gives `require` (the same version as its ES
 * modules, which `import` gets): this thread loads it in about half the time of its 300-odd module
 * files, about 0.2 s less CPU and 8 MB less at its peak (docs/decisions.md, "The analysis's share
 * of a conversion").
 */
const nlp = createRequire(import.meta.url)('compromise') as typeof Compromise;

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
    return { scan: scanSample(clean), keywordSample: keywordSample(clean), ...nlpEntities(nlpSample(clean)) };
  } catch {
    return null;
  }
}

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
