/**
 * A full-cast chapter read span by span: its pieces (whole sentences, as the engine takes them) cut
 * again wherever the speaker changes, each part with its speaker's voice (narration the narrator's,
 * each quoted span its speaker's); then the timing map's parts of one sentence joined back into
 * that sentence, so the map keeps one entry per sentence whoever speaks in it.
 */
import type { Piece } from './synthesis';
import type { TimingEntry } from './timing';

export interface CastVoices {
  narrator: string;
  /** Quoted spans in text order, each with its speaker's voice. */
  spans: readonly { charStart: number; charEnd: number; voice: string }[];
}

/** A chapter's voices as the synthesize step reads them. */
export interface ChapterVoices extends CastVoices {
  /** Changes exactly when what the chapter's voices say changes (recorded by synthesize as `cast`). */
  signature: string;
}

const HAS_WORDS = /[\p{L}\p{N}]/u;
const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);

interface Part {
  start: number;
  end: number;
  voice: string;
}

/** [start, end) cut where a quoted span starts or ends, each part with its voice, blank space trimmed. */
function partsOf(text: string, start: number, end: number, cast: CastVoices): Part[] {
  const cuts = new Set([start, end]);
  for (const s of cast.spans) {
    if (s.charStart > start && s.charStart < end) cuts.add(s.charStart);
    if (s.charEnd > start && s.charEnd < end) cuts.add(s.charEnd);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const parts: Part[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    let a = points[i]!;
    let b = points[i + 1]!;
    const span = cast.spans.find((s) => s.charStart <= a && s.charEnd >= b);
    while (a < b && isSpace(text[a])) a++;
    while (b > a && isSpace(text[b - 1])) b--;
    if (a === b) continue;
    const voice = span?.voice ?? cast.narrator;
    const last = parts.at(-1);
    // Punctuation alone ("." after a closing quote) is read with the part before it; two parts of
    // one voice are one request.
    if (last !== undefined && (last.voice === voice || !HAS_WORDS.test(text.slice(a, b)))) last.end = b;
    else parts.push({ start: a, end: b, voice });
  }
  // Punctuation alone at the start goes with the part after it.
  if (parts.length > 1 && !HAS_WORDS.test(text.slice(parts[0]!.start, parts[0]!.end))) {
    parts[1]!.start = parts[0]!.start;
    parts.shift();
  }
  return parts;
}

/** The pieces cut where the speaker changes, each with its voice; the sentences of each clipped to it. */
export function voicedPieces(text: string, pieces: readonly Piece[], cast: CastVoices): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    for (const part of partsOf(text, piece.start, piece.end, cast)) {
      const sentences = piece.sentences
        .map((s) => ({ start: Math.max(s.start, part.start), end: Math.min(s.end, part.end) }))
        .filter((s) => s.end > s.start);
      out.push({
        start: part.start,
        end: part.end,
        sentences: sentences.length > 0 ? sentences : [{ start: part.start, end: part.end }],
        voice: part.voice,
      });
    }
  }
  return out;
}

/**
 * Timing entries of sentence parts (in text order, as the synthesis wrote them) joined into one
 * entry per sentence of `sentences`: from its first part's start to its last part's end, with
 * every part's words.
 */
export function joinSentenceParts(
  entries: readonly TimingEntry[],
  sentences: readonly { start: number; end: number }[],
): TimingEntry[] {
  const out: TimingEntry[] = [];
  let s = 0;
  let current: { sentence: number; entry: TimingEntry } | null = null;
  for (const entry of entries) {
    while (s < sentences.length && sentences[s]!.end <= entry.char_start) s++;
    const inside = s < sentences.length && sentences[s]!.start <= entry.char_start;
    if (!inside) {
      current = null;
      out.push(entry);
      continue;
    }
    if (current !== null && current.sentence === s) {
      const joined = current.entry;
      joined.end = Math.max(joined.end, entry.end);
      if (entry.words !== undefined) joined.words = [...(joined.words ?? []), ...entry.words];
      continue;
    }
    const sentence: { start: number; end: number } = sentences[s]!;
    current = {
      sentence: s,
      entry: {
        ...entry,
        char_start: sentence.start,
        char_end: sentence.end,
        ...(entry.words !== undefined && { words: [...entry.words] }),
      },
    };
    out.push(current.entry);
  }
  return out;
}
