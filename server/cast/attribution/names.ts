/**
 * The names a book gives its speakers, found with regular expressions: beside speech verbs, after
 * titles, in address, and the roles the book gives a name ("Samuel Harper, the keeper").
 */
import { cleanName } from '../../analysis/characters';
import { HONORIFIC_SET, NOT_NAMES } from '../../analysis/words';
import { NOT_SPEAKERS, PERSON_NOUNS, TAG_VERBS } from './lexicon';

const WORD = String.raw`\p{Lu}[\p{Ll}\p{M}'’-]+`;
const TITLES = [...HONORIFIC_SET].map((h) => h.charAt(0).toUpperCase() + h.slice(1)).join('|');
const NAME = String.raw`(?:(?:${TITLES})\.?\s+)?${WORD}`;
/** "Detective Sergeant Amir Khan": titles, the last of which stays with the name. */
const TITLED_RE = new RegExp(String.raw`\b(?:(?:${TITLES})\.?\s+)*((?:${TITLES})\.?\s+${WORD}(?:\s+${WORD})?)`, 'gu');
const AFTER_VERB_RE = new RegExp(String.raw`\b(?:${TAG_VERBS})(?:\s+\p{Ll}+ly)?\s+(${NAME}(?:\s+${WORD})?)`, 'gu');
const BEFORE_VERB_RE = new RegExp(
  String.raw`(?=\p{Lu})(?<![\p{L}\p{M}'’])(${NAME})(?:\s+\p{Ll}+ly)?\s+(?:${TAG_VERBS})(?![\p{L}])`,
  'gu',
);
/** "Tobias, listen" / "Miriam!": a name that opens a quote, before a comma or alone with "!". */
const VOCATIVE_RE = new RegExp(String.raw`["“‘']\s*(${WORD})(?:,\s|[,!]["”’'])`, 'gu');
const ACTS =
  'stood|sat|came|went|took|gave|got|ran|saw|felt|knew|held|kept|left|made|put|rose|fell|found|began|brought|' +
  'caught|drew|drank|ate|threw|shook|spoke|swore|woke|wore|wrote|hid|bit|struck|hung|leaned|leant|knelt|bent|' +
  'met|told|heard|thought|lay|led|lit|meant|paid|said|sent|shut|slept|spent|stole|swam|taught|tore|understood|wept|won|' +
  'was|is|had|has|did|does|could|would|will|can|must|might|should|frowns|turns|looks|smiles|shrugs';
/** "Tobias crossed the room.": a name opening a sentence, before a verb in the past. */
const ACTOR_RE = new RegExp(
  String.raw`(?:^|[.!?]["”’']?\s+)(${WORD}(?:\s+${WORD})?)\s+(?:\p{Ll}+ed|${ACTS})(?![\p{L}])`,
  'gmu',
);
/** A capitalised word after a lower-case word or a comma: a proper noun, not a sentence's first word. */
const PROPER_RE = new RegExp(String.raw`(?:\b(\p{Ll}+)|,)\s+(${WORD})(?:\s+(${WORD}))?`, 'gu');
/** Words before a place more often than before a person: "in Leeds", "towards Dover". */
const PLACE_WORDS = new Set(
  'in at to from into near towards toward across through past beyond around outside inside'.split(' '),
);

/** Which of these words the texts also write in lower case ("Morning came" / "in the morning"). */
function writtenInLowerCase(texts: readonly string[], words: string[]): Set<string> {
  const wanted = new Set(words.map((w) => w.toLowerCase()));
  const found = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(/\b[a-z]+\b/g)) if (wanted.has(m[0])) found.add(m[0]);
  return found;
}

function plausible(name: string): boolean {
  const words = cleanName(name).split(' ');
  const last = (words[words.length - 1] ?? '').toLowerCase();
  return (
    last !== '' &&
    !last.endsWith('ly') &&
    !NOT_NAMES.has(last) &&
    !NOT_SPEAKERS.has(last) &&
    !HONORIFIC_SET.has(last) &&
    !SPEECH_WORDS.has(last)
  );
}
const SPEECH_WORDS = new Set(TAG_VERBS.split('|'));

/**
 * Every name a book's texts give a speaker. Sure cues: a speech verb beside it, a title before it.
 * Weaker ones, kept only for words the book never writes in lower case ("Morning came" is no one):
 * a name opening a sentence before a verb, one a quote opens with in address, a proper noun seen
 * twice after a word that is not a preposition of place.
 */
export function discoverNames(texts: readonly string[]): string[] {
  const names = new Set<string>();
  const weak = new Set<string>();
  const pairs = new Set<string>();
  const proper = new Map<string, number>();
  for (const text of texts) {
    for (const m of text.matchAll(PROPER_RE)) {
      const word = m[2] ?? '';
      if (!PLACE_WORDS.has(m[1] ?? '')) proper.set(word, (proper.get(word) ?? 0) + 1);
      if (m[3] !== undefined) pairs.add(`${word} ${m[3]}`);
    }
    for (const m of text.matchAll(TITLED_RE)) names.add(m[1] ?? '');
    for (const re of [AFTER_VERB_RE, BEFORE_VERB_RE]) for (const m of text.matchAll(re)) names.add(m[1] ?? '');
    for (const re of [ACTOR_RE, VOCATIVE_RE]) for (const m of text.matchAll(re)) weak.add(m[1] ?? '');
  }
  for (const [word, count] of proper) if (count >= 2) weak.add(word);
  const lower = writtenInLowerCase(
    texts,
    [...weak, ...pairs].flatMap((w) => cleanName(w).split(' ')),
  );
  const unwritten = (name: string) =>
    cleanName(name)
      .split(' ')
      .every((w) => !lower.has(w.toLowerCase()));
  const found = new Set([...names, ...[...weak].filter(unwritten)].map(cleanName));
  // "Nell Harper" where the book also writes "Miss Harper" or "said Nell": a full name of a known part.
  const parts = new Set([...found].flatMap((n) => n.split(' ')));
  for (const pair of pairs) {
    const [first = '', last = ''] = pair.split(' ');
    if ((parts.has(first) || parts.has(last)) && plausible(first) && unwritten(pair)) found.add(cleanName(pair));
  }
  return [...found].filter(plausible);
}

const ROLE = String.raw`\p{Ll}+(?:\s+\p{Ll}+)?`;
/** "Samuel Harper, the keeper of Gull Rock," / "the keeper, Samuel Harper,". */
const APPOSITIVE_RE = new RegExp(
  String.raw`(${WORD}(?:\s+${WORD})?),\s+the\s+(${ROLE})(?:\s+of\s+[^,.;:!?]{1,40})?[,.;]` +
    String.raw`|\b[Tt]he\s+(${ROLE}),\s+(${WORD}(?:\s+${WORD})?)[,.;]`,
  'gu',
);

/** A word for someone: a person noun, or one made like one (lighthouse keeper, pianist, guardian, ferryman). */
function isRole(role: string): boolean {
  const noun = role.split(' ').at(-1) ?? '';
  return PERSON_NOUNS.has(noun) || /(?:keeper|maker|master|smith|wright|herd|ist|ian|man|woman|ess)$/u.test(noun);
}

/** Whether [start, end) overlaps one of the sorted quotes. */
function inQuote(quotes: readonly { start: number; end: number }[], start: number, end: number): boolean {
  let low = 0;
  let high = quotes.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((quotes[mid] as { end: number }).end <= start) low = mid + 1;
    else high = mid;
  }
  const next = quotes[low];
  return next !== undefined && next.start < end;
}

/** The roles a book gives its names in narration (outside the quotes of each text), as [name, "the keeper"] pairs. */
export function discoverRoles(
  chapters: readonly { text: string; quotes: readonly { start: number; end: number }[] }[],
): [string, string][] {
  const roles: [string, string][] = [];
  for (const { text, quotes } of chapters) {
    for (const m of text.matchAll(APPOSITIVE_RE)) {
      if (inQuote(quotes, m.index, m.index + m[0].length)) continue;
      const name = m[1] ?? m[4] ?? '';
      const role = (m[2] ?? m[3] ?? '').toLowerCase();
      if (plausible(name) && isRole(role)) roles.push([cleanName(name), `the ${role}`]);
    }
  }
  return roles;
}
