/**
 * The first half of the tutoring analysis, the only part that loads compromise: the text is cleaned
 * and sampled (./samples.ts) and compromise finds the people and places in its small nlp sample.
 * The second half (./tutoring.ts, analyseFound) works from what this returns, with retext instead.
 * The analysis thread runs the halves in two threads one after the other (./run.ts), so the two
 * NLP libraries are never in memory together.
 */
import nlp from 'compromise';
import { cleanName } from './characters';
import { cleanText, keywordSample, nlpSample, scanSample } from './samples';

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

/** People and places compromise finds in the (small) nlp sample: one parse for both. */
function nlpEntities(sample: string): { people: string[]; places: string[] } {
  const people: string[] = [];
  const places: string[] = [];
  try {
    const doc = nlp(sample);
    for (const p of doc.people().out('array') as string[]) people.push(cleanName(p));
    for (const p of doc.places().out('array') as string[]) places.push(cleanName(p));
  } catch {
    // compromise failed on odd input: the regex cues still work
  }
  return { people: people.filter(Boolean), places: places.filter(Boolean) };
}
