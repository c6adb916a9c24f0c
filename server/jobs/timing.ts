/**
 * Writing timing maps: `<audio key>.timing.json` beside every MP3, one entry per sentence with its
 * time span in the audio (seconds) and its character span in the job's text (UTF-16 offsets into
 * the stored source text); its shape, its schema and its reading are server/books/timing.ts'.
 * Exact when the engine speaks one sentence per request; otherwise a
 * chunk's time is shared among its sentences in proportion to their length. When the engine
 * timed each word (a voice server's captions, native eSpeak-NG's word events), a sentence also
 * lists its words, and sentences start where their first word does.
 */
import type { TimingEntry } from '../books/timing';

export type { TimingEntry } from '../books/timing';

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Entries for the sentences of one synthesized piece spanning [t0, t1) seconds. */
export function proportionalTimings(
  sentences: readonly { start: number; end: number }[],
  t0: number,
  t1: number,
): TimingEntry[] {
  const total = sentences.reduce((sum, s) => sum + (s.end - s.start), 0);
  const out: TimingEntry[] = [];
  let t = t0;
  for (const s of sentences) {
    const share = total === 0 ? 0 : ((s.end - s.start) / total) * (t1 - t0);
    out.push({ start: round(t), end: round(t + share), char_start: s.start, char_end: s.end });
    t += share;
  }
  const last = out[out.length - 1];
  if (last) last.end = round(t1);
  return out;
}

/**
 * Entries for the sentences of one piece spanning [t0, t1) seconds whose words the engine timed
 * (`words`: seconds from t0, characters in the job's text). Sentences start at their first word
 * when every sentence has one; otherwise they share the piece's time by length, words attached.
 */
export function wordTimedEntries(
  sentences: readonly { start: number; end: number }[],
  words: readonly { start: number; end: number; charStart: number; charEnd: number }[],
  t0: number,
  t1: number,
): TimingEntry[] {
  const entries = proportionalTimings(sentences, t0, t1);
  const bySentence = sentences.map((s) =>
    words
      .filter((w) => w.charStart >= s.start && w.charStart < s.end)
      .map((w) => ({
        start: round(Math.min(t1, t0 + w.start)),
        end: round(Math.min(t1, t0 + Math.max(w.end, w.start))),
        char_start: w.charStart,
        char_end: Math.min(w.charEnd, s.end),
      })),
  );
  const everyTimed = bySentence.every((ws) => ws.length > 0);
  for (const [i, entry] of entries.entries()) {
    const ws = bySentence[i]!;
    if (ws.length > 0) entry.words = ws;
    if (everyTimed && i > 0) entry.start = ws[0]!.start;
  }
  if (everyTimed) {
    entries[0]!.start = round(t0);
    for (let i = 0; i < entries.length - 1; i++) entries[i]!.end = entries[i + 1]!.start;
  }
  return entries;
}

/** An entry moved later by `seconds` (its words too). */
export function shiftEntry(entry: TimingEntry, seconds: number, chars = 0): TimingEntry {
  return {
    ...entry,
    start: round(entry.start + seconds),
    end: round(entry.end + seconds),
    char_start: entry.char_start + chars,
    char_end: entry.char_end + chars,
    ...(entry.words !== undefined && {
      words: entry.words.map((w) => ({
        start: round(w.start + seconds),
        end: round(w.end + seconds),
        char_start: w.char_start + chars,
        char_end: w.char_end + chars,
      })),
    }),
  };
}

/**
 * Chapter maps joined into a book's, as JSON: each chapter's times shifted by the audio before it,
 * chars by its offset in the book's text. Produced a chapter at a time, so a 10 MB text's map
 * (some 100,000 sentences) is never whole in memory; the bytes are those of `JSON.stringify` of
 * the whole array.
 */
export async function* timingMapJson(
  parts: AsyncIterable<{ entries: readonly TimingEntry[]; timeOffset: number; charOffset: number }>,
): AsyncGenerator<Buffer> {
  yield Buffer.from('[');
  let first = true;
  for await (const p of parts) {
    if (p.entries.length === 0) continue;
    const json = p.entries.map((e) => JSON.stringify(shiftEntry(e, p.timeOffset, p.charOffset))).join(',');
    yield Buffer.from(first ? json : `,${json}`);
    first = false;
  }
  yield Buffer.from(']');
}
