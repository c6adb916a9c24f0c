/**
 * Timing maps: `<audio key>.timing.json` beside every MP3, one entry per sentence with its time
 * span in the audio (seconds) and its character span in the job's text (UTF-16 offsets into the
 * stored source text). Exact when the engine speaks one sentence per request; otherwise a
 * chunk's time is shared among its sentences in proportion to their length.
 */
import { z } from 'zod';

export interface TimingEntry {
  /** Seconds into the audio. */
  start: number;
  end: number;
  /** UTF-16 offsets into the job's stored text. */
  char_start: number;
  char_end: number;
}

const timingEntrySchema = z.object({
  start: z.number().nonnegative(),
  end: z.number().nonnegative(),
  char_start: z.number().int().nonnegative(),
  char_end: z.number().int().nonnegative(),
});

/** A stored timing map, as the pipeline writes it (an array) or as earlier fixtures wrapped it ({sentences: [...]}). */
export const timingFileSchema: z.ZodType<TimingEntry[], unknown> = z.union([
  z.array(timingEntrySchema),
  z.object({ sentences: z.array(timingEntrySchema) }).transform((f) => f.sentences),
]);

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

/** Chapter maps joined into a book's: each chapter's times shifted by the audio before it, chars by its offset in the book's text. */
export function concatTimings(
  parts: readonly { entries: readonly TimingEntry[]; timeOffset: number; charOffset: number }[],
): TimingEntry[] {
  return parts.flatMap((p) =>
    p.entries.map((e) => ({
      start: round(e.start + p.timeOffset),
      end: round(e.end + p.timeOffset),
      char_start: e.char_start + p.charOffset,
      char_end: e.char_end + p.charOffset,
    })),
  );
}
