import { DomainError } from '../errors';
import type { PronunciationRepository } from './repository';
import { pronunciationKey, type Pronunciation } from './rules';

export interface PronunciationService {
  list(userId: string): Promise<Pronunciation[]>;
  /** Validates and saves the whole list; answers it as saved (trimmed). */
  replace(userId: string, entries: readonly Pronunciation[]): Promise<Pronunciation[]>;
}

/** Something to match: a letter, a digit or a symbol ("&", "€", an emoji); punctuation alone matches nothing useful. */
const HAS_WORD = /[\p{L}\p{N}\p{S}\p{Extended_Pictographic}]/u;
/** Something a voice can say. */
const SAYABLE = /[\p{L}\p{N}]/u;
/** Control characters (NUL among them) stop a voice mid-text; line breaks and tabs are blank space. */
const CONTROL = /[\p{Cc}\p{Cs}]/u;

/** The entry as the reader typed it, its invisible characters written out (U+0007). */
const show = (s: string) =>
  s.replace(/[\p{Cc}\p{Cs}]/gu, (c) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);

/** Why an entry (1-based `n`, already trimmed) cannot be used, or null when it can. */
function problemWith(entry: Pronunciation, n: number): string | null {
  const word = show(entry.text);
  if (CONTROL.test(entry.text))
    return `Entry ${n}: "${word}" holds a control character; type the word as the book prints it`;
  if (!HAS_WORD.test(entry.text)) return `Entry ${n}: "${word}" has no letters, digits or symbols to match`;
  if (entry.sayAs === '') return `Entry ${n}: say how to read "${word}"`;
  if (CONTROL.test(entry.sayAs)) return `Entry ${n}: how to read "${word}" holds a control character`;
  if (!SAYABLE.test(entry.sayAs)) return `Entry ${n}: how to read "${word}" needs letters or digits a voice can say`;
  return null;
}

/** A user's pronunciations: whole lists in and out, each entry's word unique (ignoring case). */
export function createPronunciationService(repo: PronunciationRepository): PronunciationService {
  return {
    list: (userId) => repo.forUser(userId),

    async replace(userId, entries) {
      const clean = entries.map((e) => ({ text: e.text.trim().replace(/\s+/gu, ' '), sayAs: e.sayAs.trim() }));
      const seen = new Map<string, number>();
      for (const [index, entry] of clean.entries()) {
        const n = index + 1;
        const problem = problemWith(entry, n);
        if (problem !== null) throw new DomainError('invalid', problem);
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
