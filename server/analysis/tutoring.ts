/**
 * The tutoring analysis stored in a job's config.tutoring_analysis: themes, characters, setting,
 * discussion questions and whether the text reads as fiction or non-fiction.
 *
 * Speed: compromise is accurate but costs ~30 µs per character, so the text is sampled:
 * - a "scan" sample (first ~120 KB + 8 evenly spaced 10 KB slices, ~200 KB) is used for the cheap
 *   regex work: counting name mentions, honorific and speech-verb name cues, time cues, and the
 *   fiction/non-fiction features;
 * - a "keyword" sample (~80 KB) goes through retext-pos + retext-keywords;
 * - an "nlp" sample (~30 KB: the opening plus evenly spaced slices) goes through compromise for
 *   people and places.
 * analyseText never throws: any internal failure falls back to a minimal analysis.
 */
import { findCharacters, findPlace, nlpEntities, type CharacterRole } from './characters';
import { classify } from './fiction';
import { buildQuestions } from './questions';
import { findThemes } from './themes';
import { findTime } from './time';
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
// Sampling
// ---------------------------------------------------------------------------------------------

/** The opening `head` characters plus `slices` evenly spaced pieces of `sliceSize` from the rest. */
export function sampleText(text: string, head: number, slices: number, sliceSize: number): string {
  if (text.length <= head + slices * sliceSize) return text;
  const cutAtSpace = (pos: number, forward: boolean): number => {
    const limit = 200;
    for (let i = 0; i < limit; i++) {
      const p = forward ? pos + i : pos - i;
      if (p <= 0 || p >= text.length) return Math.max(0, Math.min(text.length, p));
      if (/\s/.test(text[p] ?? '')) return p;
    }
    return pos;
  };
  const parts = [text.slice(0, cutAtSpace(head, false))];
  const restStart = head;
  const step = (text.length - restStart) / slices;
  for (let i = 0; i < slices; i++) {
    const s = cutAtSpace(Math.floor(restStart + i * step + (step - sliceSize) / 2), true);
    const e = cutAtSpace(s + sliceSize, false);
    if (e > s) parts.push(text.slice(s, e));
  }
  return parts.join('\n\n');
}

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

/** Analyses a text for the tutoring features. Never throws. */
export function analyseText(text: string, now = new Date()): TutoringAnalysis {
  try {
    const clean = String(text ?? '')
      .replace(/\r\n?/g, '\n')
      .replace(/^\uFEFF/, '');
    if (!/\p{L}/u.test(clean)) return minimal(now);

    const scan = sampleText(clean, 120_000, 8, 10_000);
    const keywordSample = sampleText(clean, 50_000, 6, 5_000);
    const nlpSample = sampleText(clean, 18_000, 6, 2_000);

    const { people, places } = nlpEntities(nlpSample);
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
