/**
 * A chapter laid out for attribution: its paragraphs, its quotes, the narration between them, and
 * who the narration mentions (names, "the captain", pronouns), in text order. Names inside quotes
 * are not mentions: a character talked about is not there.
 */
import type { CastGender } from '../types';
import { GENDER_PRONOUNS, SUBJECT_PRONOUNS } from './lexicon';
import type { Cast, Person } from './cast';
import { findQuotes, splitParagraphs, type Paragraph, type Quote, type QuoteStyle } from './quotes';

export type PronounKind = CastGender | 'first-person' | 'plural';

export type Mention = {
  at: number;
  /** The person a name or a noun phrase names, or the narrator for "I", "me" and "my". */
  person: Person | null;
  /** What a subject pronoun tells ("she": female, "I": first-person). */
  pronoun: PronounKind | null;
  /** The gender a pronoun gives the name before it (he, his, she, herself...). */
  cue: CastGender | null;
  /** It opens a sentence or a clause after a quote: the one who acts. */
  subject: boolean;
  /** Which stretch of its paragraph's narration it is in. */
  range: number;
};

export type ChapterLayout = {
  text: string;
  paragraphs: Paragraph[];
  quotes: Quote[];
  /** Per paragraph, the indexes (into quotes) of the quotes that open in it. */
  opening: number[][];
  /** Per paragraph, its narration: the ranges outside quotes. */
  narration: [number, number][][];
  /** Per paragraph, who its narration mentions, in text order. */
  mentions: Mention[][];
};

const PRONOUN_EXCLUDED = String.raw`(?!(?:he|she|they|we|i|his|her|him|it|them)(?![\p{L}]))`;
/** "her" before the thing she has ("shook her head"), not "looked at her and": only the first tells whose. */
const POSSESSIVE_HER = String.raw`[Hh]er(?=\s+(?!(?:and|to|at|in|as|with|for|that|the|a|an|from|on|by|so|but|or|was|is|had|if|when)(?![\p{L}]))\p{Ll})`;
const MENTION_RE = new RegExp(
  String.raw`(?=[\p{Lu}hstwim])(?<![\p{L}\p{M}'’])(?:` +
    String.raw`(?<spouse>(?:[Hh]is|[Hh]er)\s+(?:wife|husband))|` +
    String.raw`(?<pronoun>[Hh]e|[Ss]he|[Tt]hey|I|[Ww]e|[Mm]e|[Mm]y|[Mm]yself|[Hh]is|[Hh]imself|[Hh]erself|[Hh]ers|${POSSESSIVE_HER})` +
    String.raw`|(?<noun>[Tt]he(?:\s+${PRONOUN_EXCLUDED}\p{Ll}[\p{Ll}-]*){1,2})` +
    String.raw`|(?<name>(?:(?:Mr|Mrs|Ms|Dr|St|Mme|Mlle|Prof|Rev)\.\s+)?\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){0,3})` +
    String.raw`)(?![\p{L}\p{M}])`,
  'gu',
);

/** The narrator's own words in narration. */
const FIRST_PERSON = new Set(['i', 'me', 'my', 'myself']);

/** Paragraphs, quotes and narration of one chapter. */
export function layoutChapter(text: string, style: QuoteStyle): Omit<ChapterLayout, 'mentions'> {
  const paragraphs = splitParagraphs(text);
  const quotes = findQuotes(text, paragraphs, style);
  const opening: number[][] = paragraphs.map(() => []);
  quotes.forEach((q, i) => opening[q.paragraph]?.push(i));
  const narration: [number, number][][] = [];
  let first = 0;
  for (const p of paragraphs) {
    while (first < quotes.length && (quotes[first] as Quote).end <= p.start) first++;
    const ranges: [number, number][] = [];
    let cursor = p.start;
    for (let j = first; j < quotes.length && (quotes[j] as Quote).start < p.end; j++) {
      const q = quotes[j] as Quote;
      if (q.start > cursor) ranges.push([cursor, q.start]);
      cursor = Math.max(cursor, q.end);
    }
    if (cursor < p.end) ranges.push([cursor, p.end]);
    narration.push(ranges);
  }
  return { text, paragraphs, quotes, opening, narration };
}

/** Characters after which a word opens a clause: the end of a sentence, a dash, a quotation mark. */
const CLAUSE_ENDS = new Set('.!?;:—–…"”’\'‘“('.split(''));

function opensClause(text: string, at: number, paragraphStart: number): boolean {
  let i = at - 1;
  while (i >= paragraphStart && (text[i] === ' ' || text[i] === '\n' || text[i] === '\t')) i--;
  return i < paragraphStart || CLAUSE_ENDS.has(text[i] as string);
}

type Place = { subject: boolean; range: number };

function mentionOf(m: RegExpMatchArray, cast: Cast, place: Place, before: Mention[]): Mention | null {
  const at = m.index ?? 0;
  const groups = m.groups ?? {};
  if (groups.spouse !== undefined) {
    // "his wife": the wife of the last man the paragraph names.
    const gender = /^his/i.test(groups.spouse) ? 'male' : 'female';
    const holder = before.findLast((b) => b.person?.gender === gender)?.person;
    const person = holder ? cast.spouseOf(holder) : null;
    return person ? { at, person, pronoun: null, cue: null, ...place } : null;
  }
  if (groups.pronoun !== undefined) {
    const word = groups.pronoun.toLowerCase();
    const pronoun = SUBJECT_PRONOUNS.get(word) ?? null;
    const person = FIRST_PERSON.has(word) ? cast.narrator : null;
    return { at, person, pronoun, cue: GENDER_PRONOUNS.get(word) ?? null, ...place };
  }
  const person = groups.noun !== undefined ? cast.resolveNoun(groups.noun) : cast.resolveName(groups.name ?? '');
  return person ? { at, person, pronoun: null, cue: null, ...place } : null;
}

/** Who each paragraph's narration mentions. */
export function findMentions(layout: Omit<ChapterLayout, 'mentions'>, cast: Cast): Mention[][] {
  const { text } = layout;
  return layout.paragraphs.map((p, index) => {
    const found: Mention[] = [];
    for (const [range, [start, end]] of (layout.narration[index] ?? []).entries()) {
      for (const m of text.slice(start, end).matchAll(MENTION_RE)) {
        m.index += start;
        const mention = mentionOf(m, cast, { subject: opensClause(text, m.index, p.start), range }, found);
        if (mention) found.push(mention);
      }
    }
    return found;
  });
}

/** Sets each person's gender, where no title gave it, from the pronouns that follow the name. */
export function settleGenders(cast: Cast, chapters: readonly ChapterLayout[]): void {
  const votes = new Map<Person, { male: number; female: number }>();
  for (const chapter of chapters) {
    for (const mentions of chapter.mentions) {
      mentions.forEach((m, i) => {
        if (m.cue === null || m.cue === 'unknown') return;
        // "Ruth met Daniel. She...": a pronoun opening a clause is the last actor's (else the
        // nearest name's); "his", "her" and the others are the nearest name's. A pronoun of the
        // other gender between them ("Her father ... his pipe") means someone else is meant.
        let owner: Person | null = null;
        let nearest: Person | null = null;
        for (let j = i - 1; j >= 0 && owner === null; j--) {
          const before = mentions[j] as Mention;
          if (m.at - before.at > 300 || before.range !== m.range) break;
          if (before.cue !== null && before.cue !== m.cue) break;
          if (!before.person || before.person === cast.narrator) continue;
          if (before.subject || !m.subject) owner = before.person;
          else nearest ??= before.person;
        }
        owner ??= nearest;
        if (!owner) return;
        const v = votes.get(owner) ?? { male: 0, female: 0 };
        v[m.cue]++;
        votes.set(owner, v);
      });
    }
  }
  for (const person of cast.people) {
    const v = votes.get(person);
    if (person.gender !== 'unknown' || !v) continue;
    if (v.male > v.female && v.male >= v.female * 2) person.gender = 'male';
    else if (v.female > v.male && v.female >= v.male * 2) person.gender = 'female';
  }
}
