/**
 * A book's timing map: `<audio key>.timing.json` beside every MP3, one entry per sentence with its
 * time span in the audio (seconds) and its character span in the text the job read (UTF-16
 * offsets into the stored source text); when the voice timed each word, a sentence also lists its
 * words. The conversion writes it (server/jobs/timing.ts); this file holds its one schema and
 * the one reading of a stored map, for every reader (the transcript, the assistant, and the book
 * joining its chapters' maps).
 */
import { z } from 'zod';
import type { FileStorage } from '../storage/types';
import { readTextIfStored } from './read';
import { timingKey } from './storage-keys';

export interface TimingEntry {
  /** Seconds into the audio. */
  start: number;
  end: number;
  /** UTF-16 offsets into the job's stored text. */
  char_start: number;
  char_end: number;
  words?: TimedWord[];
}

export interface TimedWord {
  start: number;
  end: number;
  char_start: number;
  char_end: number;
}

const spanSchema = z.object({
  start: z.number().nonnegative(),
  end: z.number().nonnegative(),
  char_start: z.number().int().nonnegative(),
  char_end: z.number().int().nonnegative(),
});
/** A sentence's span, and its words' when the voice timed them. */
const timingEntrySchema = spanSchema.extend({ words: z.array(spanSchema).optional() });

/** A stored timing map, as the pipeline writes it (an array) or as earlier fixtures wrapped it ({sentences: [...]}). */
export const timingFileSchema: z.ZodType<TimingEntry[], unknown> = z.union([
  z.array(timingEntrySchema),
  z.object({ sentences: z.array(timingEntrySchema) }).transform((f) => f.sentences),
]);

/** A timing map's entries from its stored JSON; null when it is not JSON or not a timing map. */
export function parseTimingMap(json: string): TimingEntry[] | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const parsed = timingFileSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * The stored timing map of the audio at `audioKey`, in the order it was written; null when there
 * is none or it cannot be read as one. A storage that fails otherwise fails the call.
 */
export async function readTimingMap(storage: FileStorage, audioKey: string): Promise<TimingEntry[] | null> {
  const json = await readTextIfStored(storage, timingKey(audioKey));
  return json === null ? null : parseTimingMap(json);
}
