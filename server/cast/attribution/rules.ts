/**
 * Who speaks each quote of a chapter, paragraph by paragraph: the quote's own tag, a tag elsewhere
 * in its paragraph, an action beat (the paragraph's narration names who acts), the turn of a
 * two-person exchange, and last a low-confidence guess. A pronoun resolves only to someone the
 * current or recent paragraphs of the same scene name; a scene break forgets who was there.
 */
import { NARRATOR, type SpokenSpan } from '../types';
import { NARRATOR_NOUNS, SUBJECT_PRONOUNS, TAG_VERBS } from './lexicon';
import type { ChapterLayout, Mention, PronounKind } from './mentions';
import type { Cast, Person } from './cast';
import type { Quote } from './quotes';
import { tagOf } from './tags';

/** A speaker and how sure; an aside (an epigraph, a scare quote) is the narrator's and no line of the exchange. */
type Guess = { speaker: string; confidence: number; aside?: boolean };

/** How many paragraphs back a pronoun or an exchange may look for its person. */
const RECENT = 4;

type Scene = {
  /** Who was there, in the order they were named or spoke, with the paragraph. */
  seen: { person: Person; paragraph: number }[];
  /** The speakers of the scene's quote paragraphs, surest ones only, in order. */
  speakers: string[];
  /** Quote paragraphs since the last one with a tag or a beat. */
  untagged: number;
  /** Narration paragraphs since the last quote. */
  gap: number;
  /** Whom the last quote paragraph spoke to: the next line is likely their answer. */
  addressed: Set<string>;
  /** Who acts in the narration since the last quote paragraph, in order: the first may speak next. */
  actors: Person[];
};

const newScene = (): Scene => ({ seen: [], speakers: [], untagged: 0, gap: 0, addressed: new Set(), actors: [] });

type Context = { layout: ChapterLayout; cast: Cast; scene: Scene; paragraph: number; addressed: Set<string> };

/** The people of the scene's recent paragraphs, most recent first, each once. */
function recentPeople(ctx: Context): Person[] {
  const people: Person[] = [];
  for (let i = ctx.scene.seen.length - 1; i >= 0; i--) {
    const s = ctx.scene.seen[i];
    if (!s || s.paragraph < ctx.paragraph - RECENT) break;
    if (!people.includes(s.person)) people.push(s.person);
  }
  return people;
}

/** How far back before a pronoun its person is looked for in a paragraph, in characters. */
const PRONOUN_REACH = 600;

/** The mentions of a paragraph (in text order) within PRONOUN_REACH before `at`. */
function mentionsBefore(mentions: readonly Mention[], at: number): Mention[] {
  let low = 0;
  let high = mentions.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((mentions[mid] as Mention).at < at) low = mid + 1;
    else high = mid;
  }
  const found: Mention[] = [];
  for (let i = low - 1; i >= 0 && (mentions[i] as Mention).at >= at - PRONOUN_REACH; i--)
    found.unshift(mentions[i] as Mention);
  return found;
}

/**
 * "she" at `at`: the last one acting earlier in the paragraph who may be a woman (one the book
 * calls she before one whose gender it never tells), else the scene's most recent woman.
 */
function resolvePronoun(kind: PronounKind, at: number, ctx: Context): Guess | null {
  const free = (p: Person) => p !== ctx.cast.narrator && !ctx.addressed.has(p.id);
  const fits = (p: Person) => p.gender === kind && free(p);
  const may = (p: Person) => (p.gender === kind || p.gender === 'unknown') && free(p);
  const here = mentionsBefore(ctx.layout.mentions[ctx.paragraph] ?? [], at).filter((m) => m.person && may(m.person));
  const actor = here.filter((m) => m.subject).at(-1) ?? here.at(-1);
  if (actor?.person) {
    if (actor.person.gender !== kind) {
      // "Kit grinned. 'Yes,' he said.": now the book has said what Kit is.
      if (kind === 'male' || kind === 'female') actor.person.gender = kind;
      return { speaker: actor.person.id, confidence: 0.7 };
    }
    return { speaker: actor.person.id, confidence: 0.85 };
  }
  // "The inspector listened. 'A lantern,' he said.": the last one acting in the narration just before.
  const previous = ctx.layout.paragraphs[ctx.paragraph - 1];
  if (
    previous &&
    !ctx.layout.paragraphs[ctx.paragraph]?.sceneStart &&
    ctx.layout.opening[ctx.paragraph - 1]?.length === 0
  ) {
    const acting = mentionsBefore(ctx.layout.mentions[ctx.paragraph - 1] ?? [], previous.end + 1)
      .filter((m) => m.subject && m.person && fits(m.person))
      .at(-1);
    if (acting?.person) return { speaker: acting.person.id, confidence: 0.75 };
  }
  const recent = recentPeople(ctx).filter(fits);
  const first = recent[0];
  if (!first) {
    const unknown = recentPeople(ctx).find(may);
    return unknown ? { speaker: unknown.id, confidence: 0.5 } : null;
  }
  if (recent.length === 1) return { speaker: first.id, confidence: 0.8 };
  // Two of the same gender: the one who did not speak last is answering.
  const last = ctx.scene.speakers.at(-1);
  const other = recent.find((p) => p.id !== last);
  return { speaker: (first.id === last && other ? other : first).id, confidence: 0.6 };
}

/** The speaker a tag's subject names. */
function resolveSubject(subject: string, at: number, ctx: Context): Guess | null {
  const pronoun = SUBJECT_PRONOUNS.get(subject.toLowerCase());
  if (pronoun === 'first-person') return { speaker: NARRATOR, confidence: 0.9 };
  if (pronoun === 'plural') return null;
  if (pronoun) return resolvePronoun(pronoun, at, ctx);
  const spouse = /^(his|her)\s+(?:wife|husband)$/i.exec(subject);
  if (spouse) {
    const holder = resolvePronoun(spouse[1]?.toLowerCase() === 'his' ? 'male' : 'female', at, ctx);
    const person = holder && ctx.cast.spouseOf(ctx.cast.people.find((p) => p.id === holder.speaker) as Person);
    return person ? { speaker: person.id, confidence: 0.85 } : null;
  }
  if (/^the\s+\p{Lu}/iu.test(subject) && /^the\s+\p{Lu}/u.test(subject.replace(/^The/, 'the'))) {
    // "the March Hare", "the Caterpillar": a name that comes with "the".
    const person = ctx.cast.resolveName(subject.replace(/^the\s+/i, ''));
    return person ? { speaker: person.id, confidence: 0.95 } : null;
  }
  if (/^the\s/i.test(subject)) {
    const person = ctx.cast.resolveNoun(subject);
    if (person) return { speaker: person.id, confidence: 0.9 };
    const words = subject.toLowerCase().split(/\s+/);
    return words.some((w) => NARRATOR_NOUNS.has(w)) ? { speaker: NARRATOR, confidence: 0.9 } : null;
  }
  const person = ctx.cast.resolveName(subject);
  return person ? { speaker: person.id, confidence: 0.95 } : null;
}

/** The one who acts in the paragraph's narration ("Marta frowned."), as its speaker. */
function beat(ctx: Context): Guess | null {
  const mentions = ctx.layout.mentions[ctx.paragraph] ?? [];
  const ordered = [...mentions.filter((m) => m.subject), ...mentions.filter((m) => !m.subject)];
  for (const m of ordered) {
    const guess = mentionGuess(m, ctx);
    if (guess) return { speaker: guess.speaker, confidence: Math.min(guess.confidence, m.subject ? 0.8 : 0.55) };
  }
  return null;
}

function mentionGuess(m: Mention, ctx: Context): Guess | null {
  if (m.person) return ctx.addressed.has(m.person.id) ? null : { speaker: m.person.id, confidence: 0.8 };
  if (m.pronoun === 'first-person') return { speaker: NARRATOR, confidence: 0.8 };
  if (m.pronoun === 'male' || m.pronoun === 'female') {
    const g = resolvePronoun(m.pronoun, m.at, ctx);
    return g ? { speaker: g.speaker, confidence: g.confidence - 0.1 } : null;
  }
  return null;
}

/** The one the last line spoke to, answering; or the one who acts in the narration just before. */
function answerOrArrival(ctx: Context): Guess | null {
  const { speakers, gap, addressed, actors } = ctx.scene;
  const last = speakers.at(-1);
  const free = (id: string) => id !== last && !ctx.addressed.has(id);
  const answering = [...addressed].filter(free);
  if (answering.length === 1 && gap === 0) return { speaker: answering[0] as string, confidence: 0.75 };
  // "Crane ignored the cup. He turned to Nell. 'Were you awake?'": the first to act just before speaks.
  const actor = actors[0];
  return actor && gap > 0 && free(actor.id) ? { speaker: actor.id, confidence: 0.6 } : null;
}

/** An untagged line in an exchange: the other one of the last two speakers, or someone else who is there. */
function turn(ctx: Context): Guess {
  const reply = answerOrArrival(ctx);
  if (reply) return reply;
  const { speakers, untagged, gap } = ctx.scene;
  const last = speakers.at(-1);
  const other = [...speakers].reverse().find((s) => s !== last);
  const sure = Math.max(0.5, 0.8 - 0.04 * untagged - 0.1 * gap);
  if (last !== undefined && ctx.addressed.has(last) && other === undefined) {
    const someone = recentPeople(ctx).find((p) => p.id !== last);
    if (someone) return { speaker: someone.id, confidence: 0.55 };
  }
  if (last !== undefined && other !== undefined) {
    if (ctx.addressed.has(other)) return { speaker: last, confidence: 0.45 };
    return { speaker: other, confidence: ctx.addressed.has(last) ? Math.min(0.9, sure + 0.1) : sure };
  }
  const others = recentPeople(ctx).filter((p) => p.id !== last && !ctx.addressed.has(p.id));
  const someone = others[0];
  // The one other person there answers; of several, the most recent is only a guess.
  if (someone) return { speaker: someone.id, confidence: others.length === 1 ? 0.6 : 0.4 };
  if (last !== undefined && !ctx.addressed.has(last)) return { speaker: last, confidence: 0.25 };
  return { speaker: NARRATOR, confidence: 0.1 };
}

const TITLE = String.raw`(?:Mr|Mrs|Ms|Dr|St|Mme|Mlle|Prof|Rev)`;
/** A name (with its title) at a quote's start or after a clause, before a comma or the end of a sentence. */
const VOCATIVE_RE = new RegExp(
  String.raw`(?:^|[,;!?]\s+|(?<!\b${TITLE})\.\s+|\b(?:dear|Dear|my)\s+)` +
    String.raw`((?:\p{Lu}\p{Ll}+\.?\s+)?\p{Lu}[\p{Ll}'’-]+)(?=\s*[,!?.;—–]|\s*$)`,
  'gu',
);

/** "Tobias, listen" / "Listen, Tobias." / "Miss Harper?": the people a quote speaks to. */
function addressed(text: string, q: Quote, cast: Cast): Set<string> {
  const ids = new Set<string>();
  // Where a name in address stands: near the start or the end of the quote.
  const body =
    q.end - q.start > 400
      ? `${text.slice(q.start + 1, q.start + 250)} … ${text.slice(q.end - 150, q.end - 1)}`
      : text.slice(q.start + 1, q.end - 1);
  for (const m of body.matchAll(VOCATIVE_RE)) {
    const person = cast.resolveName(m[1] ?? '');
    if (person) ids.add(person.id);
  }
  return ids;
}

/** A quote set off by a dash and a name alone ("— Seneca"): an epigraph, in the narrator's voice. */
function epigraph(text: string, q: Quote, limit: number): boolean {
  return /^\s*[—–-]+\s*\p{Lu}[^.!?]*$/u.test(text.slice(q.end, Math.min(limit, q.end + 80)));
}

const SPEECH_VERB_AT_END = new RegExp(String.raw`\b(?:${TAG_VERBS})\s*$`, 'u');

/**
 * A word or two in quotes inside a sentence, not after a speech verb: a title or a scare quote
 * ("he called it "the thing" and laughed"), the narrator's, not a line.
 */
function inline(text: string, q: Quote): boolean {
  const inner = text.slice(q.start + 1, q.end - 1);
  if (/[,.!?;:—–…-]$/u.test(inner) || inner.split(/\s+/).length > 4) return false;
  const before = text.slice(Math.max(0, q.start - 30), q.start);
  return (
    /\p{Ll}\s$/u.test(before) && !SPEECH_VERB_AT_END.test(before) && /^\s\p{Ll}/u.test(text.slice(q.end, q.end + 2))
  );
}

function quoteGuesses(indexes: readonly number[], ctx: Context): (Guess | null)[] {
  const { text, quotes, paragraphs } = ctx.layout;
  return indexes.map((i) => {
    const q = quotes[i] as Quote;
    const before = Math.max(paragraphs[q.paragraph]?.start ?? 0, quotes[i - 1]?.end ?? 0);
    const after = Math.min(paragraphs[q.lastParagraph]?.end ?? text.length, quotes[i + 1]?.start ?? Infinity);
    if (epigraph(text, q, after)) return { speaker: NARRATOR, confidence: 0.9, aside: true };
    if (inline(text, q)) return { speaker: NARRATOR, confidence: 0.6, aside: true };
    const tag = tagOf(text, q, before, after);
    return tag ? resolveSubject(tag.subject, tag.at, ctx) : null;
  });
}

/** A line without its own tag takes its paragraph's: the nearest tagged quote's (three at most away), the one before first. */
function fromNeighbours(guesses: readonly (Guess | null)[]): (Guess | null)[] {
  return guesses.map((g, i) => {
    if (g) return g;
    for (let d = 1; d < Math.min(guesses.length, 4); d++) {
      const near = [guesses[i - d], guesses[i + d]].find((n) => n && !n.aside);
      if (near) return { speaker: near.speaker, confidence: near.confidence - 0.05 };
    }
    return null;
  });
}

function remember(ctx: Context, speaker: Guess, tagged: boolean): void {
  const { scene, paragraph, layout, cast } = ctx;
  for (const m of layout.mentions[paragraph] ?? []) if (m.person) scene.seen.push({ person: m.person, paragraph });
  const person = cast.people.find((p) => p.id === speaker.speaker);
  if (person) scene.seen.push({ person, paragraph });
  if (scene.seen.length > 200) scene.seen.splice(0, 100);
  if (speaker.confidence >= 0.4) scene.speakers.push(speaker.speaker);
  if (scene.speakers.length > 20) scene.speakers.splice(0, 10);
  scene.untagged = tagged ? 0 : scene.untagged + 1;
  scene.gap = 0;
  scene.addressed = ctx.addressed;
  scene.actors = [];
}

/** A paragraph without a quote of its own: who it names is there, who acts in it has come in. */
function narrationOnly(ctx: Context): void {
  const { scene, paragraph, layout } = ctx;
  const named = new Set<string>();
  let acting = 0;
  for (const m of layout.mentions[paragraph] ?? []) {
    if (!m.person) continue;
    scene.seen.push({ person: m.person, paragraph });
    named.add(m.person.id);
    if (m.subject && !scene.actors.includes(m.person)) scene.actors.push(m.person);
    if (m.subject) acting++;
  }
  if (scene.seen.length > 200) scene.seen.splice(0, 100);
  if (scene.actors.length > 8) scene.actors.length = 8;
  // Narration in which two people or more act sets a new stage: an exchange goes on only between
  // those it names.
  if (acting >= 2) scene.speakers = scene.speakers.filter((s) => named.has(s));
  // The end of a speech running over paragraphs is no pause in the exchange.
  if ((layout.narration[paragraph] ?? []).length === 0) return;
  if (++scene.gap >= 3) scene.speakers = [];
}

/** The spans of one chapter, each with its speaker. */
export function attributeChapter(layout: ChapterLayout, cast: Cast): SpokenSpan[] {
  const spans: SpokenSpan[] = [];
  let scene = newScene();
  layout.paragraphs.forEach((p, paragraph) => {
    if (p.sceneStart) scene = newScene();
    const indexes = layout.opening[paragraph] ?? [];
    const ctx: Context = { layout, cast, scene, paragraph, addressed: new Set() };
    if (indexes.length === 0) {
      narrationOnly(ctx);
      return;
    }
    for (const i of indexes)
      for (const id of addressed(layout.text, layout.quotes[i] as Quote, cast)) ctx.addressed.add(id);
    const tagged = quoteGuesses(indexes, ctx);
    const anyTag = tagged.some((g) => g !== null && !g.aside);
    const near = fromNeighbours(tagged);
    const fallback = near.some((g) => g === null) ? (beat(ctx) ?? turn(ctx)) : null;
    const guesses = near.map((g) => g ?? (fallback as Guess));
    indexes.forEach((i, k) => {
      const q = layout.quotes[i] as Quote;
      const g = guesses[k] as Guess;
      spans.push({ charStart: q.start, charEnd: q.end, speaker: g.speaker, confidence: round(g.confidence) });
    });
    const spoken = guesses.filter((g) => !g.aside);
    if (spoken.length === 0) {
      narrationOnly(ctx);
      return;
    }
    const surest = spoken.reduce((a, b) => (b.confidence > a.confidence ? b : a));
    remember(ctx, surest, anyTag || (fallback !== null && fallback.confidence >= 0.7));
  });
  return spans;
}

const round = (n: number): number => Math.round(Math.max(0, Math.min(1, n)) * 100) / 100;
