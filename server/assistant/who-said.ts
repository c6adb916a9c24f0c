/**
 * X-ray's "who said that?": the speaker of a quoted line the listener has heard, found by its words
 * (or, without words, the last line heard). A full-cast book answers from its cast, the listener's
 * corrections included (through the read-along transcript, which carries who speaks each part);
 * any other book from the offline attribution run over the text heard so far.
 * Nothing past the listener's position is read: lines are taken from the heard sentences only.
 */
import type { BookSource } from '../books/source';
import { attributeInThread } from '../cast/attribute-in-thread';
import { NARRATOR } from '../cast/types';
import type { Heard } from './heard';
import { evidenceOf } from './evidence';
import { describePlace, indexTerms, type IndexedSentence, type SentencePlace } from './heard-index';
import type { ToolResult } from './tool-definitions';
import { shorten } from './text';

/** A quoted line the listener has heard, and who says it (null: the book does not say). */
interface HeardLine {
  text: string;
  speaker: string | null;
  /** Attribution's guess rather than the book's word. */
  guess: boolean;
  place: SentencePlace;
  /** Seconds from the book's start. */
  at: number;
}

/** Attribution's confidence under which a speaker is said as a guess (as the read-along marks it). */
const SURE_FROM = 0.6;
/** Share of the asked words a line must hold to be the one asked about. */
const MATCH_FROM = 0.6;
/** Words that point at the line just heard rather than quote one. */
const DEICTIC = /^(?:that|this|it|that line|this line|the last line|just now)?$/iu;

const unquoted = (text: string) =>
  text
    .replace(/^[\s"“”‘’'«»]+|[\s"“”‘’'«»]+$/gu, '')
    .replace(/[,;:]$/u, '')
    .trim();

/** Chapters (1-based; 1 for a book without a chapter list) a cast's lines are looked for in. */
async function chaptersToRead(h: Heard, query: string): Promise<number[]> {
  const last = h.sentences.at(-1)!;
  const current = last.place.chapter ?? 1;
  if (query === '') return current > 1 ? [current - 1, current] : [current];
  const found = await h.index.find(query, h.heardCount, { combine: 'and', limit: 5 });
  const chapters = new Set(found.map((p) => p.sentence.place.chapter ?? 1));
  return chapters.size > 0 ? [...chapters].sort((a, b) => a - b) : [current];
}

/** A full-cast book's heard lines in `chapter`, with the speakers its cast gives them now. */
async function castLines(
  books: BookSource,
  userId: string,
  h: Heard,
  chapter: number,
  names: Map<string, string>,
): Promise<HeardLine[]> {
  const transcript = await books.transcript(userId, h.book.id, chapter);
  const byQuote = new Map<number, HeardLine>();
  for (const sentence of transcript.sentences) {
    const at = transcript.chapter.start + sentence.start;
    if (at > h.positionSeconds) break;
    for (const span of sentence.spans ?? []) {
      if (span.quote_start === undefined) continue;
      const part = sentence.text.slice(span.char_start - sentence.charStart, span.char_end - sentence.charStart);
      const line = byQuote.get(span.quote_start);
      // A quote running over several sentences is one line.
      if (line !== undefined) line.text = `${line.text} ${part}`;
      else {
        byQuote.set(span.quote_start, {
          text: part,
          speaker: span.speaker === NARRATOR ? null : (names.get(span.speaker) ?? null),
          guess: span.uncertain === true,
          place: { chapter, chapterTitle: transcript.chapter.title, secondsIn: sentence.start },
          at,
        });
      }
    }
  }
  return [...byQuote.values()];
}

/**
 * Any book's heard lines, attributed offline from the heard text, chapter by chapter (so that a
 * name, an alias or a pronoun heard in an earlier chapter counts), but never past the position.
 */
async function attributedLines(h: Heard): Promise<HeardLine[]> {
  const chapters: { sentences: IndexedSentence[]; base: number; text: string }[] = [];
  for (const [i, sentence] of h.sentences.entries()) {
    const previous = h.sentences[i - 1];
    if (previous === undefined || previous.place.chapter !== sentence.place.chapter) {
      const next = h.sentences.findIndex((s, j) => j > i && s.place.chapter !== sentence.place.chapter);
      const end = next === -1 ? h.text.length : h.sentences[next]!.charStart;
      chapters.push({ sentences: [], base: sentence.charStart, text: h.text.slice(sentence.charStart, end) });
    }
    chapters.at(-1)!.sentences.push(sentence);
  }
  const attribution = await attributeInThread(chapters.map((c) => ({ text: c.text })));
  const names = new Map(attribution.characters.map((c) => [c.id, c.name]));
  return chapters.flatMap(({ sentences, base, text }, i) =>
    (attribution.chapters[i] ?? []).map((span) => {
      // The heard sentence the quote starts in places it.
      const sentence = sentences.findLast((s) => s.charStart <= base + span.charStart) ?? sentences[0]!;
      return {
        text: text.slice(span.charStart, span.charEnd),
        speaker: span.speaker === NARRATOR ? null : (names.get(span.speaker) ?? null),
        guess: span.confidence < SURE_FROM,
        place: sentence.place,
        at: sentence.start,
      };
    }),
  );
}

/** The line asked about: the best match of the asked words, or the last one heard when none are given. */
function lineAsked(lines: readonly HeardLine[], query: string): HeardLine | undefined {
  const ordered = [...lines].sort((a, b) => a.at - b.at);
  const asked = new Set(indexTerms(query));
  if (asked.size === 0) return ordered.at(-1);
  let best: { line: HeardLine; share: number } | undefined;
  for (const line of ordered) {
    const held = new Set(indexTerms(line.text));
    const share = [...asked].filter((t) => held.has(t)).length / asked.size;
    if (share >= MATCH_FROM && (best === undefined || share >= best.share)) best = { line, share };
  }
  return best?.line;
}

function answerFor(line: HeardLine): ToolResult {
  const evidence = evidenceOf({ text: unquoted(line.text), place: line.place, start: line.at });
  const { where } = evidence;
  const words = `"${shorten(evidence.text, 160)}"`;
  const data = {
    revealed: true,
    kind: 'said',
    speaker: line.speaker,
    guess: line.guess,
    line: evidence.text,
    evidence,
  };
  if (line.speaker === null) {
    return {
      answer: `The book doesn't say who says ${words} (${where}), and I can't tell from what you've heard.`,
      data,
    };
  }
  return {
    answer: line.guess
      ? `Most likely ${line.speaker}, ${where}: ${words} The book doesn't say so outright.`
      : `${line.speaker} says that, ${where}: ${words}`,
    data,
  };
}

/**
 * Who said a heard line: `query` holds some of its words ("the oil is low again"), or nothing,
 * "that" or "this" for the last line heard.
 */
export async function whoSaid(books: BookSource, userId: string, h: Heard, rawQuery: string): Promise<ToolResult> {
  const query = DEICTIC.test(rawQuery.trim()) ? '' : unquoted(rawQuery);
  if (h.heardCount === 0) {
    return {
      answer: `You haven't heard any of ${h.book.title} yet, so there's no line I can tell you about. Start listening, then ask me again.`,
      data: { revealed: false, kind: 'said' },
    };
  }
  const cast = await books.cast(userId, h.book.id);
  const names = new Map((cast?.characters ?? []).map((c) => [c.id, c.name]));
  const lines: HeardLine[] = [];
  if (cast === null) lines.push(...(await attributedLines(h)));
  else {
    for (const chapter of await chaptersToRead(h, query))
      lines.push(...(await castLines(books, userId, h, chapter, names)));
  }
  const line = lineAsked(lines, query);
  if (line !== undefined) return answerFor(line);
  if (query === '') {
    return {
      answer: `No one has spoken a line yet in what you've heard of ${h.book.title}: so far it's all the narrator.`,
      data: { revealed: false, kind: 'said' },
    };
  }
  const narration = await h.index.find(query, h.heardCount, { combine: 'and', limit: 1 });
  if (narration.length > 0) {
    const s = narration[0]!.sentence;
    return {
      answer: `That isn't a character's line: the narrator says it, ${describePlace(s.place)}: "${shorten(s.text, 160)}"`,
      data: { revealed: true, kind: 'said', speaker: null, narration: true, line: s.text },
    };
  }
  return {
    answer: `I couldn't find "${shorten(query, 80)}" in what you've heard of ${h.book.title} so far.`,
    data: { revealed: false, kind: 'said' },
  };
}
