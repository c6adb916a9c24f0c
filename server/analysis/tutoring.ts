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
import nlp from 'compromise';
import { retext } from 'retext';
import retextPos from 'retext-pos';
import retextKeywords from 'retext-keywords';
import { toString as nlcstToString } from 'nlcst-to-string';
import { VFile } from 'vfile';

export type CharacterRole = 'protagonist' | 'major character' | 'minor character';

export type TutoringAnalysis = {
  themes: string[];
  characters: { name: string; role: CharacterRole }[];
  setting: { time: string; place: string };
  discussion_questions: string[];
  content_type: 'fiction' | 'non-fiction';
  analyzed_at: string;
};

export const NOT_STATED = 'Not stated';

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
// Word lists
// ---------------------------------------------------------------------------------------------

const HONORIFICS = [
  'Mr',
  'Mrs',
  'Miss',
  'Ms',
  'Dr',
  'Sir',
  'Lady',
  'Lord',
  'Madam',
  'Madame',
  'Mme',
  'Mlle',
  'Captain',
  'Colonel',
  'Major',
  'General',
  'Professor',
  'Prof',
  'Aunt',
  'Uncle',
  'Father',
  'Mother',
  'Sister',
  'Brother',
  'King',
  'Queen',
  'Prince',
  'Princess',
  'Duke',
  'Duchess',
  'Count',
  'Countess',
  'Baron',
  'Lieutenant',
  'Sergeant',
  'Inspector',
  'Detective',
  'Rev',
  'Reverend',
  'Saint',
  'St',
];
const HONORIFIC_SET = new Set(HONORIFICS.map((h) => h.toLowerCase()));
const HONORIFIC_RE = new RegExp(
  String.raw`\b(${HONORIFICS.join('|')})\.?\s+((?:[A-Z][\p{Ll}'’-]+)(?:\s+[A-Z][\p{Ll}'’-]+)?)`,
  'gu',
);

const SPEECH_VERBS =
  'said|asked|replied|cried|answered|whispered|shouted|exclaimed|muttered|returned|continued|added|called|thought|smiled|laughed|sighed|nodded';
const SPEECH_AFTER_RE = new RegExp(String.raw`\b(?:${SPEECH_VERBS})\s+([A-Z][\p{Ll}'’-]+)`, 'gu');
const SPEECH_BEFORE_RE = new RegExp(String.raw`\b([A-Z][\p{Ll}'’-]+)\s+(?:${SPEECH_VERBS})\b`, 'gu');

/** Capitalised words that are not names. */
const NOT_NAMES = new Set(
  (
    'i he she it we you they me him her us them my his its our your their this that these those ' +
    'the a an and but or so yet for nor if then when while as at by in of on to up with from into ' +
    'there here what who whom whose which why how where yes no not oh ah well now thus still ' +
    'all some any each every both either neither one none nobody everyone someone anyone ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april may ' +
    'june july august september october november december god heaven chapter part book ' +
    'english french german christian christmas easter mamma papa madam sir mother father'
  ).split(' '),
);

const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each few for from further had has have ' +
    'having he her here hers herself him himself his how i if in into is it its itself just me more most ' +
    'my myself no nor not now of off on once only or other our ours ourselves out over own same she should ' +
    'so some such than that the their theirs them themselves then there these they this those through to ' +
    'too under until up very was we were what when where which while who whom why will with would you your ' +
    'yours yourself yourselves'
  ).split(' '),
);

/** Nouns too generic to be a theme. */
const GENERIC_NOUNS = new Set(
  (
    'one ones first last day days time times way ways thing things something nothing anything everything ' +
    'man men woman women people person part parts side moment kind sort lot bit yes no eyes eye hand hands ' +
    'head face room door word words year years minute minutes hour hours other others mr mrs miss sir lady ' +
    'lord chapter page place deal end case number fact point matter manner course half whole rest ' +
    'morning evening night week month today tomorrow yesterday use example sense account answer ' +
    'voice look mind heart self lot thousand hundred dear percent cent per'
  ).split(' '),
);

const SEASONS = ['spring', 'summer', 'autumn', 'winter'];
const DAY_TIMES = ['dawn', 'morning', 'noon', 'afternoon', 'evening', 'dusk', 'night', 'midnight'];
const HISTORIC: [RegExp, string][] = [
  [/\bmiddle ages\b/gi, 'the Middle Ages'],
  [/\bmedieval\b/gi, 'medieval times'],
  [/\bvictorian\b/gi, 'the Victorian era'],
  [/\bregency\b/gi, 'the Regency era'],
  [/\belizabethan\b/gi, 'the Elizabethan era'],
  [/\brenaissance\b/gi, 'the Renaissance'],
  [/\bancient (?:rome|greece|egypt|times)\b/gi, 'ancient times'],
  [/\bthe (?:great|first world|second world|civil) war\b/gi, 'wartime'],
  [/\bprehistoric\b/gi, 'prehistoric times'],
  [/\bin the future\b/gi, 'the future'],
];
const ORDINAL_WORDS =
  'first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-first';
const CENTURY_RE = new RegExp(String.raw`\b((?:${ORDINAL_WORDS})|\d{1,2}(?:st|nd|rd|th))[- ]century\b`, 'gi');
const YEAR_RE =
  /\b(?:in|of|since|during|until|by|year|summer|winter|spring|autumn|about|around|circa|c\.)\s+(1[0-9]{3}|20[0-9]{2})\b/gi;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function countWords(text: string): number {
  return (text.match(/\S+/g) ?? []).length;
}

function cleanName(raw: string): string {
  return raw
    .replace(/['’]s\b/g, '')
    .replace(/[^\p{L}\p{M}.'’\s-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.'’-]+|[.'’-]+$/g, '');
}

type NameParts = { honorific: string | null; tokens: string[] };

function splitName(name: string): NameParts {
  const words = name.split(/\s+/).filter(Boolean);
  let honorific: string | null = null;
  const first = words[0]?.replace(/\.$/, '') ?? '';
  if (words.length > 1 && HONORIFIC_SET.has(first.toLowerCase())) {
    honorific = first;
    words.shift();
  }
  const tokens = words
    .map((w) => w.replace(/\.$/, ''))
    .filter((w) => /^\p{Lu}/u.test(w) && !NOT_NAMES.has(w.toLowerCase()) && !HONORIFIC_SET.has(w.toLowerCase()));
  return { honorific, tokens };
}

type Entity = {
  variants: Set<string>;
  display: string;
  honorific: string | null;
  first: string | null;
  last: string | null;
  count: number;
};

function variantPattern(v: string): string {
  // "Mr. Bennet" matches "Mr Bennet" and "Mr.  Bennet"
  return v
    .split(/\s+/)
    .map(
      (w) =>
        escapeRe(w.replace(/\.$/, '')) + (w.endsWith('.') || HONORIFIC_SET.has(w.toLowerCase()) ? String.raw`\.?` : ''),
    )
    .join(String.raw`\s+`);
}

// ---------------------------------------------------------------------------------------------
// Characters and places
// ---------------------------------------------------------------------------------------------

/** People and places compromise finds in the (small) nlp sample: one parse for both. */
function nlpEntities(nlpSample: string): { people: string[]; places: string[] } {
  const people: string[] = [];
  const places: string[] = [];
  try {
    const doc = nlp(nlpSample);
    for (const p of doc.people().out('array') as string[]) people.push(cleanName(p));
    for (const p of doc.places().out('array') as string[]) places.push(cleanName(p));
  } catch {
    // compromise failed on odd input: the regex cues still work
  }
  return { people: people.filter(Boolean), places: places.filter(Boolean) };
}

/** Adds cheap regex cues over the scan sample: honorific + name, and names next to speech verbs. */
function addNameCues(people: string[], scan: string): string[] {
  people = [...people];
  for (const m of scan.matchAll(HONORIFIC_RE)) people.push(cleanName(`${m[1] ?? ''}. ${m[2] ?? ''}`));
  const speech = new Map<string, number>();
  for (const re of [SPEECH_AFTER_RE, SPEECH_BEFORE_RE]) {
    for (const m of scan.matchAll(re)) {
      const n = m[1] ?? '';
      if (!NOT_NAMES.has(n.toLowerCase()) && !HONORIFIC_SET.has(n.toLowerCase()))
        speech.set(n, (speech.get(n) ?? 0) + 1);
    }
  }
  for (const [n, c] of speech) if (c >= 2) people.push(n);
  return people.filter(Boolean);
}

function buildEntities(names: string[], placeTokens: Set<string>, strongPeople: Set<string>): Entity[] {
  const entities: Entity[] = [];
  const parsed = names
    .map((n) => ({ raw: n, ...splitName(n) }))
    // A speech-verb cue alone ("said Meryton") is not enough for a known place name.
    .filter((p) => p.tokens.length > 0 && p.tokens.length <= 3)
    .filter(
      (p) =>
        p.honorific !== null || p.tokens.length > 1 || !placeTokens.has(p.tokens[0] ?? '') || strongPeople.has(p.raw),
    );

  // Full names first (first + last), then honorific + surname, then single names.
  parsed.sort((a, b) => b.tokens.length - a.tokens.length || (a.honorific ? -1 : 1) - (b.honorific ? -1 : 1));
  for (const p of parsed) {
    const first = p.tokens.length >= 2 ? (p.tokens[0] ?? null) : null;
    const last = p.tokens.length >= 2 ? (p.tokens[p.tokens.length - 1] ?? null) : null;
    const variant = p.honorific ? `${p.honorific}. ${p.tokens.join(' ')}` : p.tokens.join(' ');
    if (p.tokens.length >= 2) {
      const existing = entities.find((e) => e.first === first && e.last === last);
      if (existing) existing.variants.add(variant);
      else
        entities.push({
          variants: new Set([variant, p.tokens.join(' ')]),
          display: p.tokens.join(' '),
          honorific: p.honorific,
          first,
          last,
          count: 0,
        });
      continue;
    }
    const single = p.tokens[0] as string;
    if (p.honorific) {
      // "Mr. Bennet": same person as a full-name entity only when the honorific was seen with it.
      const same = entities.find(
        (e) => e.last === single && e.honorific !== null && e.honorific.toLowerCase() === p.honorific?.toLowerCase(),
      );
      const sameKey = entities.find((e) => e.variants.has(variant));
      const target = same ?? sameKey;
      if (target) target.variants.add(variant);
      else
        entities.push({
          variants: new Set([variant]),
          display: variant,
          honorific: p.honorific,
          first: null,
          last: single,
          count: 0,
        });
      continue;
    }
    // A single name: merge with the unique entity whose first name (or surname) it is.
    if (entities.some((e) => e.variants.has(single))) continue;
    const byFirst = entities.filter((e) => e.first === single);
    const byLast = entities.filter((e) => e.last === single);
    if (byFirst.length === 1) (byFirst[0] as Entity).variants.add(single);
    else if (byFirst.length === 0 && byLast.length === 1) (byLast[0] as Entity).variants.add(single);
    else if (byFirst.length === 0 && byLast.length === 0) {
      entities.push({
        variants: new Set([single]),
        display: single,
        honorific: null,
        first: single,
        last: null,
        count: 0,
      });
    }
  }
  // A single-name entity that is the first name of exactly one full name merges into it.
  return entities.filter((e) => {
    if (e.variants.size !== 1 || e.last !== null) return true;
    const targets = entities.filter((o) => o !== e && o.first === e.first && o.last !== null);
    if (targets.length === 1) {
      (targets[0] as Entity).variants.add(e.display);
      return false;
    }
    return true;
  });
}

/** Counts every entity's mentions in one pass; longer variants win over shorter ones. */
function countMentions(entities: Entity[], scan: string): void {
  const owner = new Map<string, Entity>();
  const patterns: { pattern: string; key: string; len: number }[] = [];
  for (const e of entities) {
    for (const v of e.variants) {
      const key = v.replace(/\./g, '').replace(/\s+/g, ' ').toLowerCase();
      if (owner.has(key)) continue;
      owner.set(key, e);
      patterns.push({ pattern: variantPattern(v), key, len: v.length });
    }
  }
  if (patterns.length === 0) return;
  patterns.sort((a, b) => b.len - a.len);
  const re = new RegExp(
    String.raw`(?<![\p{L}\p{M}])(?:${patterns.map((p) => `(${p.pattern})`).join('|')})(?![\p{L}\p{M}])`,
    'gu',
  );
  for (const m of scan.matchAll(re)) {
    const idx = m.slice(1).findIndex((g) => g !== undefined);
    const p = patterns[idx];
    const e = p ? owner.get(p.key) : undefined;
    if (e) e.count++;
  }
}

function pickDisplay(e: Entity): string {
  if (e.first && e.last) return `${e.first} ${e.last}`;
  return e.display;
}

function findCharacters(
  nlpPeople: string[],
  scan: string,
  placeTokens: Set<string>,
): { name: string; role: CharacterRole }[] {
  const entities = buildEntities(addNameCues(nlpPeople, scan), placeTokens, new Set(nlpPeople));
  countMentions(entities, scan);
  const minMentions = countWords(scan) > 2000 ? 3 : 1;
  const ranked = entities.filter((e) => e.count >= minMentions).sort((a, b) => b.count - a.count);
  const seen = new Set<string>();
  const top: Entity[] = [];
  for (const e of ranked) {
    const name = pickDisplay(e);
    if (seen.has(name)) continue;
    seen.add(name);
    top.push(e);
    if (top.length === 8) break;
  }
  const best = top[0]?.count ?? 0;
  return top.map((e, i) => ({
    name: pickDisplay(e),
    role: i === 0 ? 'protagonist' : e.count >= best * 0.25 ? 'major character' : 'minor character',
  }));
}

function findPlace(places: string[], scan: string, personTokens: Set<string>): string {
  const counts = new Map<string, number>();
  for (const raw of places) {
    const p = raw.replace(/^(?:the|in|at|to|from)\s+/i, '').trim();
    if (p.length < 3 || !/^\p{Lu}/u.test(p)) continue;
    if (p.split(/\s+/).some((w) => personTokens.has(w) || NOT_NAMES.has(w.toLowerCase()))) continue;
    if (counts.has(p)) continue;
    const re = new RegExp(String.raw`(?<![\p{L}])${escapeRe(p).replace(/\s+/g, String.raw`\s+`)}(?![\p{L}])`, 'gu');
    counts.set(p, (scan.match(re) ?? []).length);
  }
  const ranked = [...counts.entries()].filter(([, c]) => c > 0).sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (!first) return NOT_STATED;
  if (second && second[1] >= first[1] * 0.5 && second[1] >= 2) return `${first[0]} and ${second[0]}`;
  return first[0];
}

// ---------------------------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------------------------

function mostFrequent(words: string[], text: string, min: number): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const w of words) {
    const c = (text.match(new RegExp(String.raw`\b${w}s?\b`, 'gi')) ?? []).length;
    if (c > bestCount) {
      best = w;
      bestCount = c;
    }
  }
  return bestCount >= min ? best : null;
}

function findTime(scan: string): string {
  const phrases: string[] = [];

  const years = new Map<string, number>();
  for (const m of scan.matchAll(YEAR_RE)) years.set(m[1] ?? '', (years.get(m[1] ?? '') ?? 0) + 1);
  const yearList = [...years.keys()].map(Number).sort((a, b) => a - b);
  const centuries = new Map<string, number>();
  for (const m of scan.matchAll(CENTURY_RE)) {
    const c = (m[1] ?? '').toLowerCase();
    centuries.set(c, (centuries.get(c) ?? 0) + 1);
  }
  let era: string | null = null;
  if (yearList.length > 0) {
    const lo = yearList[0] as number;
    const hi = yearList[yearList.length - 1] as number;
    era = lo === hi ? `in ${lo}` : hi - lo <= 30 ? `between ${lo} and ${hi}` : `from ${lo} to ${hi}`;
  } else if (centuries.size > 0) {
    const top = [...centuries.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
    era = `in the ${top} century`;
  } else {
    for (const [re, label] of HISTORIC) {
      if (re.test(scan)) {
        era = `in ${label}`;
        break;
      }
    }
  }
  if (era) phrases.push(era);

  const words = countWords(scan);
  const min = Math.max(2, Math.round(words / 20000));
  const season = mostFrequent(SEASONS, scan, min);
  if (season) phrases.push(`in ${season}`);
  const dayTime = mostFrequent(DAY_TIMES, scan, min);
  if (dayTime) {
    phrases.push(
      dayTime === 'night' || dayTime === 'midnight' || dayTime === 'noon' || dayTime === 'dawn' || dayTime === 'dusk'
        ? `often at ${dayTime}`
        : `often in the ${dayTime}`,
    );
  }
  if (phrases.length === 0) return NOT_STATED;
  const joined = phrases.join(', ');
  return joined.charAt(0).toUpperCase() + joined.slice(1);
}

// ---------------------------------------------------------------------------------------------
// Themes
// ---------------------------------------------------------------------------------------------

function isMostlyCapitalised(word: string, scan: string): boolean {
  const lower = (scan.match(new RegExp(String.raw`\b${escapeRe(word.toLowerCase())}\b`, 'g')) ?? []).length;
  const cap = word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
  const upper = (scan.match(new RegExp(String.raw`\b${escapeRe(cap)}\b`, 'g')) ?? []).length;
  return upper > lower;
}

function findThemes(sample: string, scan: string, nameTokens: Set<string>): string[] {
  const processor = retext().use(retextPos).use(retextKeywords, { maximum: 20 });
  const file = new VFile(sample);
  processor.runSync(processor.parse(file), file);
  const data = file.data as {
    keywords?: { stem: string; score: number; matches: { node: Parameters<typeof nlcstToString>[0] }[] }[];
    keyphrases?: { score: number; weight: number; matches: { nodes: Parameters<typeof nlcstToString>[0][] }[] }[];
  };

  const usable = (phrase: string): boolean => {
    const words = phrase.split(/\s+/);
    if (words.length === 0 || words.some((w) => w.length < 3 && words.length === 1)) return false;
    if (words.some((w) => !/^[\p{L}'’-]+$/u.test(w))) return false;
    if (STOP_WORDS.has(words[0] ?? '') || STOP_WORDS.has(words[words.length - 1] ?? '')) return false;
    if (words.length === 1 && GENERIC_NOUNS.has(phrase)) return false;
    if (words.every((w) => GENERIC_NOUNS.has(w) || STOP_WORDS.has(w))) return false;
    if (words.some((w) => nameTokens.has(w) || HONORIFIC_SET.has(w))) return false;
    return true;
  };

  const themes: string[] = [];
  const add = (raw: string) => {
    const phrase = raw.toLowerCase().replace(/\s+/g, ' ').trim();
    if (themes.length >= 8 || !usable(phrase) || themes.includes(phrase)) return;
    if (phrase.split(' ').some((w) => isMostlyCapitalised(w, scan))) return;
    // Skip a word already covered by a chosen phrase (and vice versa).
    if (themes.some((t) => t.split(' ').includes(phrase) || phrase.split(' ').includes(t))) return;
    themes.push(phrase);
  };

  const phrases = (data.keyphrases ?? [])
    .map((p) => ({
      text: (p.matches[0]?.nodes ?? []).map((n) => nlcstToString(n)).join(''),
      score: p.score * p.weight,
    }))
    .filter((p) => p.text.includes(' '))
    .slice(0, 3);
  const keywords = (data.keywords ?? []).map((k) => (k.matches[0] ? nlcstToString(k.matches[0].node) : ''));
  for (const k of keywords.slice(0, 4)) add(k);
  for (const p of phrases) add(p.text);
  for (const k of keywords.slice(4)) add(k);
  return themes;
}

// ---------------------------------------------------------------------------------------------
// Fiction or non-fiction
// ---------------------------------------------------------------------------------------------

function classify(scan: string, characterMentions: number): 'fiction' | 'non-fiction' {
  const words = Math.max(1, countWords(scan));
  const per1k = (n: number) => (n * 1000) / words;
  const quotes = per1k(
    (scan.match(/[“"][^“”"\n]{2,400}[”"]/g) ?? []).length +
      (scan.match(/(?:^|\s)‘[^‘’\n]{2,400}’(?=\s|[.,;:!?]|$)/gm) ?? []).length,
  );
  const speech = per1k((scan.match(new RegExp(String.raw`\b(?:${SPEECH_VERBS})\b`, 'g')) ?? []).length);
  const pronouns = per1k((scan.match(/\b(?:he|she|him|her|his)\b/gi) ?? []).length);
  const people = per1k(characterMentions);
  const digits = per1k((scan.match(/\b\d[\d,.]*%?/g) ?? []).length);
  const headings = per1k(
    scan
      .split('\n')
      .filter(
        (l) => /^\s*(?:#{1,6}\s|\d+(?:\.\d+)*\s+[A-Z]|[A-Z][^.!?]{2,60}$)/.test(l) && l.trim().split(/\s+/).length <= 8,
      ).length,
  );
  const academic = per1k(
    (
      scan.match(
        /\b(?:research|study|studies|data|evidence|analysis|according|percent|however|therefore|furthermore|example|results?|method|system|process|economy|government|population|theory|significant|include|including|such as)\b/gi,
      ) ?? []
    ).length,
  );
  const fictionScore = quotes * 1.5 + speech * 2 + pronouns * 0.3 + people * 0.5;
  const factScore = digits * 1.0 + headings * 1.0 + academic * 1.2;
  return fictionScore >= factScore ? 'fiction' : 'non-fiction';
}

// ---------------------------------------------------------------------------------------------
// Questions
// ---------------------------------------------------------------------------------------------

const GENERIC_QUESTIONS_FICTION = [
  'Which moment in the story surprised you most, and why?',
  'How does the opening prepare you for what follows?',
  'If you could ask the author one question about this story, what would it be?',
];
const GENERIC_QUESTIONS_NONFICTION = [
  'What is the main idea of this text, and how is it supported?',
  'Which passage stood out most to you, and why?',
  'What question would you ask the author if you could?',
];

/** "daughters", "good fortune" read well after "about"; a bare singular noun gets "the theme of". */
function readsAsPlural(theme: string): boolean {
  return theme.includes(' ') || (/s$/.test(theme) && !/(ss|us|is)$/.test(theme));
}

function buildQuestions(
  type: 'fiction' | 'non-fiction',
  characters: { name: string }[],
  themes: string[],
  place: string,
): string[] {
  const qs: string[] = [];
  const story = type === 'fiction' ? 'story' : 'text';
  const [a, b] = characters;
  const [t1, t2] = themes;
  if (a) {
    qs.push(
      type === 'fiction'
        ? `What does ${a.name} want most, and what stands in the way?`
        : `What role does ${a.name} play in this text, and why does it matter?`,
    );
  }
  if (a && b && type === 'fiction')
    qs.push(`How does the relationship between ${a.name} and ${b.name} change over the course of the story?`);
  if (place !== NOT_STATED) {
    qs.push(
      type === 'fiction'
        ? `How does the setting of ${place} shape what happens?`
        : `Why does ${place} matter to the subject of this text?`,
    );
  }
  if (t1) qs.push(`What does the ${story} suggest about ${readsAsPlural(t1) ? t1 : `the theme of ${t1}`}?`);
  if (t2) qs.push(`Which passage best shows the importance of ${t2}, and why?`);
  const generic = type === 'fiction' ? GENERIC_QUESTIONS_FICTION : GENERIC_QUESTIONS_NONFICTION;
  for (const g of generic) if (qs.length < 3) qs.push(g);
  return qs.slice(0, 5);
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
