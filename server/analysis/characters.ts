/**
 * Characters and the main place of a text: the people and places compromise found in a small
 * sample (./people-and-places.ts, in a thread of its own), completed by honorific and speech-verb
 * cues, merged into entities (one per person, whatever form of the name is used) and ranked by how
 * often the whole scan sample mentions them. No NLP model is loaded here: regular expressions only.
 */
import {
  countWords,
  escapeRe,
  ABBREVIATED_HONORIFICS,
  HONORIFIC_RE,
  HONORIFIC_SET,
  NOT_NAMES,
  NOT_STATED,
  SPEECH_AFTER_RE,
  SPEECH_BEFORE_RE,
} from './words';

export type CharacterRole = 'protagonist' | 'major character' | 'minor character';

export function cleanName(raw: string): string {
  return raw
    .replace(/['’]s\b/g, '')
    .replace(/[^\p{L}\p{M}.'’\s-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.'’-]+|[.'’-]+$/g, '');
}

/** A title as a name is written with it: "Mr.", "Dr.", but "Captain", "Sister". */
const titled = (honorific: string): string =>
  ABBREVIATED_HONORIFICS.has(honorific.toLowerCase()) ? `${honorific}.` : honorific;

type NameParts = { honorific: string | null; tokens: string[] };

function splitName(name: string): NameParts {
  const words = name.split(/\s+/).filter(Boolean);
  let honorific: string | null = null;
  const first = words[0]?.replace(/\.$/, '') ?? '';
  if (words.length > 1 && HONORIFIC_SET.has(first.toLowerCase())) {
    // A title in lower case is a word before the name ("his sister Margaret"), not part of it.
    honorific = /^\p{Lu}/u.test(first) ? first : null;
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

/** Merges names into people: "Captain Harris" and "Harris", "Elizabeth Bennet" and "Elizabeth". */
export function buildEntities(names: string[], placeTokens: Set<string>, strongPeople: Set<string>): Entity[] {
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
    const variant = p.honorific ? `${titled(p.honorific)} ${p.tokens.join(' ')}` : p.tokens.join(' ');
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

export function findCharacters(
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

export function findPlace(places: string[], scan: string, personTokens: Set<string>): string {
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
