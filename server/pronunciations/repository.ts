/**
 * The pronunciations module's repository: the ONLY code that reads or writes the table
 * `pronunciations` (server/db/migrations/index.ts lists every table's owner). A user's list is
 * replaced as a whole, in one transaction, so readers see the old list or the new one.
 */
import type { Db } from '../db/types';
import type { Pronunciation } from './rules';

export interface PronunciationRepository {
  /** The user's entries in the order they were saved. */
  forUser(userId: string): Promise<Pronunciation[]>;
  replace(userId: string, entries: readonly Pronunciation[]): Promise<void>;
}

export function createPronunciationRepository(db: Db): PronunciationRepository {
  return {
    async forUser(userId) {
      const { rows } = await db.query<{ text: string; say_as: string }>(
        'SELECT text, say_as FROM pronunciations WHERE user_id = $1 ORDER BY position',
        [userId],
      );
      return rows.map((r) => ({ text: r.text, sayAs: r.say_as }));
    },

    async replace(userId, entries) {
      await db.transaction(async (tx) => {
        await tx.query('DELETE FROM pronunciations WHERE user_id = $1', [userId]);
        if (entries.length === 0) return;
        await tx.query(
          `INSERT INTO pronunciations (user_id, position, text, say_as)
           SELECT $1, ordinality - 1, entry.text, entry.say_as
           FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS entry(text, say_as, ordinality)`,
          [userId, entries.map((e) => e.text), entries.map((e) => e.sayAs)],
        );
      });
    },
  };
}
