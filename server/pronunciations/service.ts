import { DomainError } from '../errors';
import type { PronunciationRepository } from './repository';
import { pronunciationKey, type Pronunciation } from './rules';

export interface PronunciationService {
  list(userId: string): Promise<Pronunciation[]>;
  /** Validates and saves the whole list; answers it as saved (trimmed). */
  replace(userId: string, entries: readonly Pronunciation[]): Promise<Pronunciation[]>;
}

const HAS_WORD = /[\p{L}\p{N}]/u;

/** A user's pronunciations: whole lists in and out, each entry's word unique (ignoring case). */
export function createPronunciationService(repo: PronunciationRepository): PronunciationService {
  return {
    list: (userId) => repo.forUser(userId),

    async replace(userId, entries) {
      const clean = entries.map((e) => ({ text: e.text.trim().replace(/\s+/gu, ' '), sayAs: e.sayAs.trim() }));
      const seen = new Map<string, number>();
      for (const [index, entry] of clean.entries()) {
        const n = index + 1;
        if (!HAS_WORD.test(entry.text)) {
          throw new DomainError('invalid', `Entry ${n}: "${entry.text}" has no letters or digits to match`);
        }
        if (entry.sayAs === '') throw new DomainError('invalid', `Entry ${n}: say how to read "${entry.text}"`);
        const key = pronunciationKey(entry.text);
        const first = seen.get(key);
        if (first !== undefined) {
          throw new DomainError('invalid', `"${entry.text}" is listed twice (entries ${first} and ${n})`);
        }
        seen.set(key, n);
      }
      await repo.replace(userId, clean);
      return clean;
    },
  };
}
