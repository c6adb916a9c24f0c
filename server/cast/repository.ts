/**
 * Where a book's cast is kept: one JSON file beside the book's other files (`jobs/<book id>/cast.json`,
 * deleted with the book), written whole. It holds the narrator's voice, the characters with their
 * voices, and per chapter (in reading order; a text is one chapter) its quoted spans with the
 * speaker each has now, the listener's corrections applied
 * (docs/adr/0059-a-books-cast.md). The only code that reads or writes the file.
 */
import { z } from 'zod';
import { readTextIfStored } from '../books/read';
import { castKey } from '../books/storage-keys';
import type { FileStorage } from '../storage/types';

const characterSchema = z.object({
  id: z.string(),
  name: z.string(),
  aliases: z.array(z.string()),
  gender: z.enum(['female', 'male', 'unknown']),
  voice_id: z.string(),
});

const spanSchema = z.object({
  char_start: z.number().int().nonnegative(),
  char_end: z.number().int().nonnegative(),
  speaker: z.string(),
  /** How sure attribution was (0..1); a listener's correction is sure (1). Absent in older casts. */
  confidence: z.number().min(0).max(1).optional(),
});

const storedCastSchema = z.object({
  narrator_voice: z.string(),
  characters: z.array(characterSchema),
  chapters: z.array(z.array(spanSchema)),
});

export type StoredSpan = z.infer<typeof spanSchema>;
export type StoredCast = z.infer<typeof storedCastSchema>;

export interface CastRepository {
  /** The book's cast; null when it has none (yet). */
  read(bookId: string): Promise<StoredCast | null>;
  write(bookId: string, cast: StoredCast): Promise<void>;
}

/** A stored cast that does not read as one: a bug or a hand edit, never the listener's input. */
export class MalformedCastError extends Error {
  constructor(bookId: string, detail: string) {
    super(`The cast of book ${bookId} is malformed: ${detail}`);
    this.name = 'MalformedCastError';
  }
}

export function createCastRepository(storage: FileStorage): CastRepository {
  return {
    async read(bookId) {
      const json = await readTextIfStored(storage, castKey(bookId));
      if (json === null) return null;
      let value: unknown;
      try {
        value = JSON.parse(json);
      } catch {
        throw new MalformedCastError(bookId, 'not JSON');
      }
      const parsed = storedCastSchema.safeParse(value);
      if (!parsed.success) throw new MalformedCastError(bookId, parsed.error.issues[0]?.message ?? 'invalid');
      return parsed.data;
    },
    async write(bookId, cast) {
      await storage.write(castKey(bookId), Buffer.from(JSON.stringify(cast), 'utf8'));
    },
  };
}
