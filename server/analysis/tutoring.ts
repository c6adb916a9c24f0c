/**
 * The tutoring analysis stored in a job's config.tutoring_analysis: themes, characters, setting,
 * discussion questions and whether the text reads as fiction or non-fiction.
 *
 * This is its second half: it starts from the samples and the names the first half found
 * (./people-and-places.ts, with compromise) and uses retext for the themes, never compromise, so
 * each half runs in a thread of its own with one NLP library loaded (./run.ts; the whole in one
 * call is ./analyse.ts). What the samples are: ./samples.ts.
 * analyseFound never throws: any internal failure falls back to a minimal analysis.
 */
import { findCharacters, findPlace, type CharacterRole } from './characters';
import { classify } from './fiction';
import { buildQuestions } from './questions';
import { findThemes } from './themes';
import { findTime } from './time';
import type { PeopleAndPlaces } from './people-and-places';
import { escapeRe, NOT_STATED } from './words';

export type TutoringAnalysis = {
  themes: string[];
  characters: { name: string; role: CharacterRole }[];
  setting: { time: string; place: string };
  discussion_questions: string[];
  content_type: 'fiction' | 'non-fiction';
  analyzed_at: string;
};

// The parts, each in a module of its own: characters and the place (characters.ts), the time
// (time.ts), the themes (themes.ts), fiction or not (fiction.ts), the questions (questions.ts);
// the word lists they share are in words.ts.

// ---------------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------------

function minimal(now: Date, type: 'fiction' | 'non-fiction' = 'non-fiction'): TutoringAnalysis {
  return {
    themes: [],
    characters: [],
    setting: { time: NOT_STATED, place: NOT_STATED },
    discussion_questions: buildQuestions(type, [], [], NOT_STATED),
    content_type: type,
    analyzed_at: safeIso(now),
  };
}

function safeIso(now: Date): string {
  return Number.isNaN(now.getTime()) ? new Date().toISOString() : now.toISOString();
}

/** The tutoring analysis from what the first half found (null: a text without a letter). Never throws. */
export function analyseFound(found: PeopleAndPlaces | null, now = new Date()): TutoringAnalysis {
  try {
    if (found === null) return minimal(now);
    const { scan, keywordSample, people, places } = found;
    const placeTokens = new Set(places.flatMap((p) => p.split(/\s+/)));
    const characters = findCharacters(people, scan, placeTokens);
    const personTokens = new Set(characters.flatMap((c) => c.name.split(/\s+/).map((w) => w.replace(/\.$/, ''))));
    const place = findPlace(places, scan, personTokens);

    const nameTokens = new Set([...personTokens, ...placeTokens].map((w) => w.toLowerCase()));
    let themes: string[] = [];
    try {
      themes = findThemes(keywordSample, scan, nameTokens);
    } catch {
      themes = [];
    }

    const mentionRe = characters.length
      ? new RegExp(String.raw`\b(?:${[...personTokens].map(escapeRe).join('|')})\b`, 'g')
      : null;
    const mentions = mentionRe ? (scan.match(mentionRe) ?? []).length : 0;
    const content_type = classify(scan, mentions);

    return {
      themes,
      characters,
      setting: { time: findTime(scan), place },
      discussion_questions: buildQuestions(content_type, characters, themes, place),
      content_type,
      analyzed_at: safeIso(now),
    };
  } catch {
    return minimal(now);
  }
}
