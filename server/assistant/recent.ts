/**
 * What just happened: a short, faithful summary of a span the listener has heard (the last few
 * minutes, the last chapter, or the stretch before a break), built from the heard sentences only.
 * Extractive: the summary is the span's own sentences that carry its people and its repeated
 * words, in story order, within a word budget, never a chapter heading. It names who is in the
 * span. Questions about what lies ahead get a kind refusal instead.
 */
import type { BookAnalysis } from '../books/book';
import { describePlace, indexTerms, type IndexedSentence } from './heard-index';
import { isHeading, personMentions } from './evidence';
import { entityPattern, formatTime, shorten, spokenList } from './text';

export const RECENT_SPANS = ['recent', 'last_chapter', 'this_chapter', 'recap'] as const;
export type RecentSpan = (typeof RECENT_SPANS)[number];

/** "The last few minutes": how far back a "what just happened" reaches. */
export const RECENT_SECONDS = 5 * 60;
/** Words of a summary: about 20-40 s spoken for a recap, a little less for a quick answer. */
const WORD_BUDGET: Record<RecentSpan, number> = { recent: 60, last_chapter: 70, this_chapter: 70, recap: 70 };

const RECENT_QUESTION =
  /\b(?:what\s+(?:just\s+)?happened(?:\s+(?:just\s+now|recently|lately|last|a\s+moment\s+ago))?\s*[?.!]*$|what\s+did\s+i\s+(?:just\s+)?miss|what\s+(?:has\s+)?just\s+happened|what(?:'s|’s|\s+is)\s+(?:been\s+)?(?:just\s+)?happening|remind\s+me\s+what\s+(?:just\s+)?happened|catch\s+me\s+up|previously\b|recap\b|what\s+happened\s+(?:in|during)\s+(?:the\s+)?(?:last|previous|this|current)\s+chapter)/iu;
const LAST_CHAPTER = /\b(?:last|previous)\s+chapter\b/iu;
const THIS_CHAPTER = /\b(?:this|current)\s+chapter\b/iu;

/** "What just happened?", "What did I miss?", "Remind me what happened in the last chapter": its span; null when not one. */
export function parseRecentQuestion(text: string): RecentSpan | null {
  const t = text.trim().replace(/\s+/g, ' ');
  if (!RECENT_QUESTION.test(t)) return null;
  if (LAST_CHAPTER.test(t)) return 'last_chapter';
  if (THIS_CHAPTER.test(t)) return 'this_chapter';
  if (/^(?:previously|recap)\b/iu.test(t)) return 'recap';
  return 'recent';
}

const AHEAD_QUESTION =
  /\b(?:how\s+(?:does|will)\s+(?:it|this|the\s+(?:story|book|novel))\s+end|(?:what|who)\s+happens\s+(?:at\s+the\s+end|in\s+the\s+end|next|later|after\s+(?:this|that))|what\s+(?:will|is\s+going\s+to)\s+happen|the\s+ending\b|\bthe\s+end\s+of\s+the\s+(?:book|story|novel)|who\s+(?:wins|dies|survives|is\s+the\s+(?:killer|murderer|culprit|villain))|(?:does|will|do|is)\s+[\p{L}'’.\s]{1,40}?\s+(?:die|dies|survive|win|live|escape|marry|get\s+married|come\s+back|return|find\s+out|leave|stay|learn|discover|kill|fall\s+in\s+love|going\s+to\s+die)\b|spoil)/iu;

/** A question about what the listener has not heard yet ("How does it end?", "Does Tobias die?"). */
export function isAheadQuestion(text: string): boolean {
  return AHEAD_QUESTION.test(text.trim().replace(/\s+/g, ' '));
}

/** A refusal that says why: the answer lies past where the listener is. */
export function aheadRefusal(title: string, positionSeconds: number, heardAny: boolean): string {
  const where = heardAny ? `you're at ${formatTime(positionSeconds)} in ${title}` : `you haven't started ${title} yet`;
  return `That's still ahead of you: ${where}, and I only talk about what you've already heard, so I won't spoil it. Keep listening, and ask me again once you've heard that part.`;
}

/** The sentences of a span, in order. */
export function spanSentences(
  heard: readonly IndexedSentence[],
  span: RecentSpan,
  positionSeconds: number,
): IndexedSentence[] {
  const last = heard[heard.length - 1];
  if (last === undefined) return [];
  const chapter = last.place.chapter;
  if (span === 'this_chapter' || (span === 'last_chapter' && (chapter === null || chapter <= 1)))
    return heard.filter((s) => s.place.chapter === chapter);
  if (span === 'last_chapter') return heard.filter((s) => s.place.chapter === chapter! - 1);
  const from = positionSeconds - RECENT_SECONDS;
  // A recap covers the stretch before the stop, whatever its chapters.
  if (span === 'recap') return heard.filter((s) => s.start >= from);
  // What just happened: the last few minutes within the chapter playing (its start turned the story).
  const recent = heard.filter((s) => s.start >= from && s.place.chapter === chapter && !isHeading(s));
  // Too little in the window (a chapter just begun): the last few sentences anyway.
  return recent.length >= 3 ? recent : heard.filter((s) => s.start >= from).slice(-6);
}

/** The people of a span: the analysis's characters it names, else names it repeats. */
export function whoIn(sentences: readonly IndexedSentence[], analysis: BookAnalysis | null): string[] {
  const characters = analysis?.characters ?? [];
  // "Crane" and "Elias" are Elias Crane, unless another character shares the name.
  const known = characters
    .filter(
      (c) =>
        personMentions(
          sentences,
          c.name,
          characters.filter((o) => o !== c).map((o) => o.name),
        ).mentions.length > 0,
    )
    .map((c) => c.name);
  if (known.length > 0) return known;
  const counts = new Map<string, number>();
  for (const s of sentences) {
    // Capitalised words that do not open the sentence: names, mostly.
    for (const m of s.text.slice(1).matchAll(/(?<![.!?]\s)(?<=\s)\p{Lu}[\p{Ll}'’-]{2,}/gu)) {
      const name = m[0].replace(/['’]s$/u, '');
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([name]) => name);
}

/** The span's most telling sentences, in story order, within `budget` words. */
export function summarize(sentences: readonly IndexedSentence[], who: readonly string[], budget: number): string[] {
  const prose = sentences.filter((s) => !isHeading(s));
  if (prose.length === 0) return [];
  const termCounts = new Map<string, number>();
  for (const s of prose) for (const t of indexTerms(s.text)) termCounts.set(t, (termCounts.get(t) ?? 0) + 1);
  const people = who.map((name) => entityPattern(name.split(/\s+/)[0]!));
  const scored = prose.map((s, i) => {
    const words = s.text.split(/\s+/).length;
    let score = 0;
    for (const p of people) if (p.test(s.text)) score += 2;
    for (const t of indexTerms(s.text)) if ((termCounts.get(t) ?? 0) >= 2) score += 1;
    if (words < 5) score -= 2;
    // Later sentences matter a little more: they are what "just" happened.
    score += (i / prose.length) * 1.5;
    return { s, score: score / Math.sqrt(Math.max(words, 8) / 8), words };
  });
  const chosen = new Set<IndexedSentence>();
  let used = 0;
  for (const { s, words } of [...scored].sort((a, b) => b.score - a.score)) {
    if (used + words > budget && chosen.size > 0) continue;
    chosen.add(s);
    used += words;
    if (used >= budget * 0.8) break;
  }
  return prose.filter((s) => chosen.has(s)).map((s) => shorten(s.text, 220));
}

export interface RecentInput {
  title: string;
  analysis: BookAnalysis | null;
  heard: readonly IndexedSentence[];
  positionSeconds: number;
}

/** The answer to "what just happened" (or the recap after a break) over the heard span. */
export function recentEvents(input: RecentInput, span: RecentSpan): { answer: string; data: Record<string, unknown> } {
  const sentences = spanSentences(input.heard, span, input.positionSeconds);
  if (sentences.length === 0) {
    return {
      answer: `You haven't heard any of ${input.title} yet, so nothing has happened for you so far. Start listening, then ask me again.`,
      data: { span, summary: [], who: [], from: null },
    };
  }
  const who = whoIn(sentences, input.analysis);
  const summary = summarize(sentences, who, WORD_BUDGET[span]);
  const first = sentences.find((s) => !isHeading(s)) ?? sentences[0]!;
  const intro =
    span === 'recap'
      ? `Previously in ${input.title}:`
      : span === 'last_chapter' || span === 'this_chapter'
        ? `In chapter ${first.place.chapter ?? 1}${first.place.chapterTitle && !/^chapter\b/iu.test(first.place.chapterTitle) ? `, “${first.place.chapterTitle}”` : ''}:`
        : `Here's what just happened, since ${describePlace(first.place).replace(/^in /u, '')}:`;
  const people = who.length > 0 ? ` That part is about ${spokenList(who.map((n) => n))}.` : '';
  const closing = span === 'recap' ? ' Now, back to the story.' : '';
  return {
    answer: `${intro} ${summary.join(' ')}${people}${closing}`.replace(/\s+/g, ' ').trim(),
    data: {
      span,
      summary,
      who,
      from: { where: describePlace(first.place), position_seconds: first.start },
    },
  };
}
