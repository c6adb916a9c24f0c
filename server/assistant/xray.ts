/**
 * X-ray answers (who / what / where / when, and the story's setting) built from the passages the
 * listener has heard: a name's first and latest mention, a description, the places the story has
 * moved through and its time once the text has said it. Every quote says where it comes from.
 *
 * Only the heard sentences (HeardIndex.heard / find with the heard count) are read; the book's
 * analysis is used only for names that occur in them.
 */
import type { BookAnalysis } from '../books/book';
import { describePlace, type HeardIndex, type IndexedSentence } from './heard-index';
import { entityPattern, shorten, spokenList, titleCase } from './text';
import { evidenceOf, personMentions, prose } from './evidence';

export const XRAY_KINDS = ['who', 'what', 'where', 'when', 'setting', 'said'] as const;
export type XrayKind = (typeof XRAY_KINDS)[number];

export interface XrayInput {
  title: string;
  analysis: BookAnalysis | null;
  index: HeardIndex;
  /** Heard sentences (from the first). */
  heardCount: number;
}

export interface XrayResult {
  answer: string;
  data: Record<string, unknown>;
}

const HONORIFICS = new Set(
  'mr mrs ms miss dr sir lady lord madam madame captain colonel major general professor aunt uncle father mother sister brother king queen prince princess duke duchess count countess baron lieutenant sergeant inspector detective reverend saint'.split(
    ' ',
  ),
);
const NOT_PLACES = new Set(
  'i god heaven hell christmas easter monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december english french german spanish italian christian the a an his her their my our your'.split(
    ' ',
  ),
);
const PLACE_NOUNS =
  'school|hall|house|manor|castle|village|town|city|street|road|lane|church|farm|inn|park|abbey|court|lodge|square|river|island|bay|forest|wood|woods|hill|hills|mountain|mountains|station|palace|tower|cottage|academy|college|harbour|harbor|port|valley|moor|moors|coast|lake|sea';
const NAME = String.raw`\p{Lu}[\p{L}'’-]+`;
/** A proper name after a preposition of place, with an optional trailing place noun. */
const PLACE_RE = new RegExp(
  String.raw`(?<![\p{L}])(?:at|in|on|to|from|near|into|towards?|reached|left|visited|outside|inside|across|through|(?:coast|city|town|village|county|country|kingdom|land|streets?|outskirts|shores?|island|isle)\s+of)\s+(?:the\s+)?(${NAME}(?:\s+(?:of\s+)?${NAME}){0,3}(?:\s+(?:${PLACE_NOUNS}))?)(?![\p{L}])`,
  'gu',
);
const PERSON_CUE =
  /^(?:said|asked|replied|cried|answered|whispered|shouted|exclaimed|muttered|thought|smiled|laughed|sighed|nodded|told|felt|wanted|knew|looked|wrote|rowed|walked|ran|came|went)\b/iu;
const TIME_RE =
  /(?<![\p{L}])(?:(?:(?:in|of|during|since|by)\s+)?(?:the\s+)?(?:year|summer|winter|spring|autumn)\s+of\s+(?:1[0-9]{3}|20[0-9]{2})|(?:in|of|during|since|by|that)\s+(?:the\s+)?(?:(?:early|late|mid)[\s-]+)?(?:(?:year\s+)?1[0-9]{3}|20[0-9]{2}|(?:\p{L}+teenth|[0-9]{1,2}(?:st|nd|rd|th))\s+century|spring|summer|autumn|fall|winter|January|February|March|April|June|July|August|September|October|November|December))(?![\p{L}])/iu;

/** Mentions a character needs before an answer calls them major (or the protagonist): never on one. */
const MENTIONS_FOR_IMPORTANCE = 2;

function quote(s: IndexedSentence, max = 160): string {
  return `"${shorten(s.text, max)}"`;
}

/** Places named in the heard sentences, in order of first mention, with how often each occurs. */
export function heardPlaces(
  sentences: readonly IndexedSentence[],
  analysis: BookAnalysis | null,
): { name: string; count: number; first: IndexedSentence; last: IndexedSentence }[] {
  const text = sentences.map((s) => s.text).join(' ');
  const personTokens = new Set(
    (analysis?.characters ?? []).flatMap((c) => c.name.split(/\s+/).map((w) => w.replace(/\.$/, '').toLowerCase())),
  );
  const candidates = new Map<string, IndexedSentence>();
  for (const s of sentences) {
    for (const m of s.text.matchAll(PLACE_RE)) {
      const name = m[1]!.replace(/['’]s$/u, '');
      const tokens = name.split(/\s+/).filter((w) => w.toLowerCase() !== 'of');
      const first = tokens[0]!.toLowerCase();
      if (HONORIFICS.has(first) || NOT_PLACES.has(first) || tokens.some((w) => personTokens.has(w.toLowerCase())))
        continue;
      if (!candidates.has(name)) candidates.set(name, s);
    }
  }
  // The analysis's place, when the heard text names it.
  for (const place of (analysis?.setting?.place ?? '').split(/\s+and\s+|,\s*/u)) {
    const p = place.trim();
    if (p.length < 3 || candidates.has(p) || /^not stated$/iu.test(p)) continue;
    const first = sentences.find((s) => entityPattern(p).test(s.text));
    if (first !== undefined) candidates.set(p, first);
  }
  const out: { name: string; count: number; first: IndexedSentence; last: IndexedSentence }[] = [];
  for (const name of candidates.keys()) {
    const pattern = entityPattern(name);
    const global = new RegExp(pattern.source, 'giu');
    // A name used like a person ("Bessie said", "told Bessie") is not a place.
    const usedAsPerson = [...text.matchAll(global)].some((m) =>
      PERSON_CUE.test(text.slice(m.index + m[0].length).trimStart()),
    );
    if (usedAsPerson) continue;
    const mentions = sentences.filter((s) => pattern.test(s.text));
    if (mentions.length === 0) continue;
    out.push({ name, count: mentions.length, first: mentions[0]!, last: mentions[mentions.length - 1]! });
  }
  // A shorter name inside a longer one ("Thornfield" in "Thornfield Hall") is the same place.
  const merged = out.filter(
    (p) => !out.some((q) => q !== p && q.name.length > p.name.length && entityPattern(p.name).test(q.name)),
  );
  return merged.sort((a, b) => a.first.index - b.first.index);
}

function settingAnswer(
  input: XrayInput,
  sentences: readonly IndexedSentence[],
  only: 'place' | 'time' | 'both',
): XrayResult {
  const places = heardPlaces(sentences, input.analysis);
  const timeSentence = sentences.find((s) => TIME_RE.test(s.text));
  const timePhrase = timeSentence?.text.match(TIME_RE)?.[0].replace(/^(?:in|of|during|since|by|that)\s+/iu, '') ?? null;
  const parts: string[] = [];
  if (only !== 'time') {
    if (places.length === 0) {
      const opening = sentences[0]!;
      parts.push(
        `So far ${input.title} hasn't named where it takes place. It opens ${describePlace(opening.place)}: ${quote(opening)}`,
      );
    } else {
      const main =
        places.length > 4
          ? [...places]
              .sort((a, b) => b.count - a.count)
              .slice(0, 4)
              .sort((a, b) => a.first.index - b.first.index)
          : places;
      const first = main[0]!;
      if (main.length === 1) {
        parts.push(`From what you've heard, the story takes place around ${first.name}.`);
        parts.push(`You heard it ${describePlace(first.first.place)}: ${quote(first.first)}`);
      } else {
        parts.push(`From what you've heard, the story moves from ${main.map((p) => p.name).join(' to ')}.`);
        parts.push(`It begins around ${first.name}, ${describePlace(first.first.place)}: ${quote(first.first)}`);
        const latest = [...main].sort((a, b) => b.last.index - a.last.index)[0]!;
        if (latest.last.index !== first.first.index)
          parts.push(`Most recently, ${describePlace(latest.last.place)}: ${quote(latest.last)}`);
      }
    }
  }
  if (only !== 'place') {
    if (timeSentence !== undefined && timePhrase !== null) {
      const already = parts.some((p) => p.includes(shorten(timeSentence.text, 160)));
      parts.push(
        already
          ? `As for when: ${timePhrase}.`
          : `As for when, it is ${timePhrase}: you heard ${describePlace(timeSentence.place)}, ${quote(timeSentence)}`,
      );
    } else if (only === 'time') {
      parts.push(`So far ${input.title} hasn't said when it is set.`);
    }
  }
  return {
    answer: parts.join(' '),
    data: {
      kind: 'setting',
      places: places.map((p) => ({
        name: p.name,
        mentions: p.count,
        first_mention: p.first.text,
        where: describePlace(p.first.place),
      })),
      time: timePhrase,
      time_passage: timeSentence?.text ?? null,
      ...(places[0] !== undefined && { evidence: evidenceOf(places[0].first) }),
    },
  };
}

/** Sentences naming `entity` (or, for "Mr. Rochester", just "Rochester"). */
function mentionsOf(
  sentences: readonly IndexedSentence[],
  entity: string,
): { pattern: RegExp; mentions: IndexedSentence[] } {
  let pattern = entityPattern(entity);
  let mentions = sentences.filter((s) => pattern.test(s.text));
  if (mentions.length === 0) {
    const last = entity
      .split(/\s+/)
      .filter((w) => /^\p{Lu}[\p{L}'’-]{2,}$/u.test(w) && !HONORIFICS.has(w.toLowerCase()))
      .pop();
    if (last !== undefined && last !== entity) {
      pattern = entityPattern(last);
      mentions = sentences.filter((s) => pattern.test(s.text));
    }
  }
  return { pattern, mentions };
}

/** A mention that says what the name is ("X, a ...", "X was ...", "a ... named X"). */
function describing(mentions: readonly IndexedSentence[], pattern: RegExp): IndexedSentence | undefined {
  const src = pattern.source;
  const copula = new RegExp(
    `${src}(?:\\s*,\\s*(?:a|an|the|her|his|their|my)\\s|\\s+(?:was|is|had been|seemed|looked|kept|lived|worked)\\b)|\\b(?:named|called)\\s+${src}`,
    'iu',
  );
  return mentions.find((s) => copula.test(s.text));
}

const CAST = /^(?:all\s+)?(?:the\s+)?(?:characters|cast|people(?:\s+in\s+it)?|main\s+characters)$/iu;
const LEAD = /^(?:the\s+)?(?:main\s+character|protagonist|hero|heroine|lead)$/iu;

/** "Who are the characters?": the analysis's characters heard so far, each with where they first appeared. */
function castAnswer(
  input: XrayInput,
  sentences: readonly IndexedSentence[],
  heard: { name: string; role: string }[],
): XrayResult {
  const firsts = heard
    .map((c) => ({ c, first: sentences.find((s) => entityPattern(c.name).test(s.text)) }))
    .filter((x): x is { c: { name: string; role: string }; first: IndexedSentence } => x.first !== undefined)
    .sort((a, b) => a.first.index - b.first.index);
  if (firsts.length === 0) {
    return {
      answer: `I can't name the characters of ${input.title} from what you've heard yet. Ask me about a name you heard.`,
      data: { kind: 'cast', characters: [] },
    };
  }
  const list = firsts.map(({ c }) => (c.role === 'protagonist' ? `${c.name} (the protagonist)` : c.name));
  const lead = firsts[0]!;
  return {
    answer: `So far you've met ${spokenList(list)}. ${lead.c.name} comes first, ${describePlace(lead.first.place)}: ${quote(lead.first)}`,
    data: {
      kind: 'cast',
      characters: firsts.map(({ c, first }) => ({
        name: c.name,
        role: c.role,
        first_mention: first.text,
        where: describePlace(first.place),
      })),
    },
  };
}

/** The heard character a name means: "Crane", "Mr. Crane" and "Elias Crane" all mean Elias Crane. */
function personNamed<C extends { name: string }>(entity: string, characters: readonly C[]): C | undefined {
  const words = (name: string) =>
    name
      .split(/\s+/)
      .map((w) => w.replace(/\.$/u, '').toLowerCase())
      .filter((w) => w !== '' && !HONORIFICS.has(w));
  const asked = words(entity);
  if (asked.length === 0) return undefined;
  return characters.find((c) => {
    const own = words(c.name);
    return asked.every((w) => own.includes(w));
  });
}

/** "What is in the tin box?": the heard sentence that says what is inside it. */
function contentsAnswer(sentences: readonly IndexedSentence[], container: string): XrayResult | null {
  const pattern = entityPattern(container);
  const inside = prose(sentences).filter(
    (s) => pattern.test(s.text) && /\b(?:inside|contain(?:s|ed)?|held|holds|lay|lies|within|in\s+it)\b/iu.test(s.text),
  );
  const latest = inside[inside.length - 1];
  if (latest === undefined) return null;
  return {
    answer: `You heard what is in ${/^(?:the|a|an)\s/iu.test(container) ? container : `the ${container}`} ${describePlace(latest.place)}: ${quote(latest)}`,
    data: { revealed: true, kind: 'what', name: container, evidence: evidenceOf(latest) },
  };
}

export async function xrayLookup(input: XrayInput, rawQuery: string, kind: XrayKind | null): Promise<XrayResult> {
  const sentences = input.index.heard(input.heardCount);
  const entity = rawQuery.trim();
  if (sentences.length === 0) {
    return {
      answer: `You haven't heard any of ${input.title} yet, so I can't tell you about it without spoiling it. Start listening, then ask me again.`,
      data: { revealed: false, kind },
    };
  }
  if (kind === 'setting' || kind === 'when' || entity === '') {
    return settingAnswer(
      input,
      sentences,
      kind === 'when' ? 'time' : kind === 'setting' || entity === '' ? 'both' : 'place',
    );
  }

  const contents = /^(?:in|inside)\s+(.+)$/iu.exec(entity);
  if (contents !== null) {
    const answer = contentsAnswer(sentences, contents[1]!.replace(/^(?:the|a|an)\s+/iu, ''));
    if (answer !== null) return answer;
    return xrayLookup(input, contents[1]!.replace(/^(?:the|a|an)\s+/iu, ''), kind);
  }

  const heardText = sentences.map((s) => s.text).join(' ');
  const heardCharacters = (input.analysis?.characters ?? []).filter((c) => entityPattern(c.name).test(heardText));
  if (CAST.test(entity)) return castAnswer(input, sentences, heardCharacters);
  if (LEAD.test(entity)) {
    const lead = heardCharacters.find((c) => c.role === 'protagonist');
    if (lead !== undefined) return xrayLookup(input, lead.name, kind);
  }

  // A heard character is counted by every form of their name ("Elias Crane", "Crane", "Elias").
  const person = personNamed(entity, heardCharacters);
  const found = person
    ? {
        pattern: entityPattern(person.name),
        mentions: personMentions(
          sentences,
          person.name,
          heardCharacters.filter((c) => c !== person).map((c) => c.name),
        ).mentions,
      }
    : mentionsOf(sentences, entity);
  const { pattern } = found;
  // A heading ("Chapter 3: Crane") is neither a mention nor evidence.
  const mentions = prose(found.mentions);
  if (mentions.length === 0) {
    // A description in lower case ("the red room") may be heard in other words: BM25 with every term.
    if (!/\p{Lu}/u.test(entity)) {
      const passages = (await input.index.find(entity, input.heardCount, { combine: 'and', limit: 4 })).filter(
        (p) => prose([p.sentence]).length === 1,
      );
      if (passages.length > 0) {
        const best = passages[0]!.sentence;
        return {
          answer: `Here's what you've heard about ${entity}, ${describePlace(best.place)}: ${quote(best)}`,
          data: {
            revealed: true,
            name: entity,
            passages: passages.slice(0, 2).map((p) => p.sentence.text),
            evidence: evidenceOf(best),
          },
        };
      }
    }
    const name = titleCase(entity);
    return {
      answer: `${name} hasn't appeared in what you've heard so far — keep listening!`,
      data: { revealed: false, name },
    };
  }

  const first = mentions[0]!;
  const latest = mentions[mentions.length - 1]!;
  const display = person?.name ?? first.text.match(pattern)?.[0] ?? titleCase(entity);
  const character = person ?? heardCharacters.find((c) => entityPattern(c.name).test(display) || pattern.test(c.name));
  const place =
    character === undefined
      ? heardPlaces(sentences, input.analysis).find((p) => pattern.test(p.name) || entityPattern(p.name).test(display))
      : undefined;
  const parts: string[] = [];
  if (character !== undefined) {
    const role = character.role.toLowerCase();
    // Importance is earned in the heard text: never "major" on a mention or two.
    const important = /\b(?:protagonist|major|main|central|lead)\b/u.test(role);
    if (!important || mentions.length >= MENTIONS_FOR_IMPORTANCE)
      parts.push(`${display} is ${role === 'protagonist' ? 'the protagonist' : `a ${role}`}.`);
  } else if (place !== undefined) {
    parts.push(`${display} is a place in the story.`);
  }
  const description = describing(mentions, pattern);
  if (kind === 'where' && character !== undefined) {
    parts.push(`The last you heard of ${display} was ${describePlace(latest.place)}: ${quote(latest)}`);
    if (latest !== first) parts.push(`${display} first appeared ${describePlace(first.place)}.`);
  } else {
    // A bare mention ("Bingley.") says little: quote the first one with some substance as well.
    const substantive = mentions.find((s) => s.text.split(/\s+/).length >= 6) ?? first;
    parts.push(
      `${display} first ${place !== undefined ? 'comes up' : 'appears'} ${describePlace(first.place)}: ${quote(first)}`,
    );
    if (substantive !== first && substantive !== description)
      parts.push(`Then, ${describePlace(substantive.place)}: ${quote(substantive)}`);
    if (description !== undefined && description !== first)
      parts.push(`You also heard, ${describePlace(description.place)}: ${quote(description)}`);
    parts.push(`Mentioned ${mentions.length === 1 ? 'once' : `${mentions.length} times`} so far.`);
    if (latest !== first && latest !== description)
      parts.push(`Most recently, ${describePlace(latest.place)}: ${quote(latest)}`);
  }
  return {
    answer: parts.join(' '),
    data: {
      revealed: true,
      kind: kind ?? 'who',
      name: display,
      role: character?.role ?? null,
      mentions: mentions.length,
      first_mention: first.text,
      first_mention_where: describePlace(first.place),
      latest_mention: latest.text,
      latest_mention_where: describePlace(latest.place),
      key_sentences: [
        ...new Set([first, description, latest].filter((s): s is IndexedSentence => s !== undefined)),
      ].map((s) => s.text),
      evidence: evidenceOf(kind === 'where' && character !== undefined ? latest : (description ?? first)),
    },
  };
}
