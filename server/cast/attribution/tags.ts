/**
 * Speech tags next to a quote: "said Marta", "Marta said", "she whispered", "asked the captain"
 * after it, and "Marta said," or "said Marta," before it (the tag that opens a quote, or the one
 * between the halves of a broken quote).
 */
import { NOT_NAMES } from '../../analysis/words';
import { NOT_SPEAKERS, SUBJECT_PRONOUNS, TAG_VERBS } from './lexicon';
import type { Quote } from './quotes';

export type Tag = {
  /** The words that name the speaker: a name, a pronoun or "the captain". */
  subject: string;
  /** Where the subject starts in the text. */
  at: number;
  /** Sure to belong to this quote: a tag after a quote that ends in a comma, one before that ends in a comma. */
  strong: boolean;
};

/** Who a tag names: a name, "the captain", "the March Hare" (a name with "the"), "his wife", a pronoun. */
const SUBJECT = String.raw`(?:(?:Mr|Mrs|Ms|Dr|St|Mme|Mlle|Prof|Rev)\.\s+)?\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){0,2}|[Tt]he(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){1,2}|[Tt]he(?:\s+\p{Ll}[\p{Ll}-]*){1,3}|[Hh](?:is|er)\s+(?:wife|husband)|[Hh]e|[Ss]he|[Tt]hey|I|[Ww]e`;
/** The same, taking as few words after "the" as it can: the subject of "the captain turned and said". */
const SUBJECT_FIRST = SUBJECT.replace('{1,3}', '{1,3}?');
const ADVERB = String.raw`(?:\s+\p{Ll}+ly)?`;
const VERB = String.raw`(?:${TAG_VERBS})(?![\p{L}])`;
/** After a quote: ", said Marta" / " Marta said" / " she whispered". */
const AFTER_RE = new RegExp(
  String.raw`^[\s,;:—–-]*(?:${VERB}${ADVERB}\s+(?<late>${SUBJECT})|(?<early>${SUBJECT})${ADVERB}\s+${VERB})`,
  'du',
);
/** Before a quote: "Marta said, " / "said Marta, " / "Marta said to him:" / "Seven looked up and said,". */
const BEFORE_RE = new RegExp(
  String.raw`(?<![\p{L}\p{M}'’])(?:(?<early>${SUBJECT_FIRST})${ADVERB}(?:(?:\s+[\p{Ll}'’]+){1,6},?\s+and)?\s+${VERB}|${VERB}${ADVERB}\s+(?<late>${SUBJECT}))` +
    String.raw`${ADVERB}(?:\s+(?:to|at)\s+(?:the\s+)?[\p{L}'’-]+)?\s*(?<mark>[,:—–-]?)\s*$`,
  'du',
);

/** Capitalised words that open a sentence without naming anyone. */
const NOT_SUBJECTS = new Set([...NOT_NAMES, ...NOT_SPEAKERS].filter((w) => !SUBJECT_PRONOUNS.has(w)));

const HAS_VERB_RE = new RegExp(String.raw`\b(?:${TAG_VERBS})\b`, 'u');

/** The closing of a quote that a tag goes on: "Come here," / "Why?" / "Wait—". */
function endsOpen(text: string, q: Quote): boolean {
  return /[,!?—–…-]/u.test(text[q.end - 2] ?? '');
}

/** How far a tag is looked for from its quote. */
const REACH = 120;

/** The tag after a quote, in the narration up to the next quote or the paragraph's end. */
export function tagAfter(text: string, q: Quote, limit: number): Tag | null {
  const end = Math.min(limit, q.end + REACH);
  const m = AFTER_RE.exec(text.slice(q.end, end));
  if (!m) return null;
  const subject = m.groups?.late ?? m.groups?.early ?? '';
  const at = q.end + (m.indices?.groups?.late ?? m.indices?.groups?.early ?? [0])[0];
  return { subject, at, strong: m.groups?.late !== undefined || endsOpen(text, q) };
}

/** The tag before a quote, in the narration since the previous quote or the paragraph's start. */
export function tagBefore(text: string, q: Quote, limit: number): Tag | null {
  let start = Math.max(limit, q.start - REACH);
  if (!HAS_VERB_RE.test(text.slice(start, q.start))) return null;
  // "Then the captain turned and said,": a word that names no one is skipped for the one after it.
  for (let tries = 0; tries < 3; tries++) {
    const m = BEFORE_RE.exec(text.slice(start, q.start));
    if (!m) return null;
    const subject = m.groups?.early ?? m.groups?.late ?? '';
    const at = start + (m.indices?.groups?.early ?? m.indices?.groups?.late ?? [0])[0];
    if (!NOT_SUBJECTS.has(subject.toLowerCase())) return { subject, at, strong: (m.groups?.mark ?? '') !== '' };
    start = at + subject.length;
  }
  return null;
}

/** A quote's own tag: a strong one after it, else a strong one before it, else any. */
export function tagOf(text: string, q: Quote, before: number, after: number): Tag | null {
  const next = tagAfter(text, q, after);
  if (next?.strong) return next;
  const previous = tagBefore(text, q, before);
  if (previous?.strong) return previous;
  return next ?? previous;
}
