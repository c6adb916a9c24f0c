import { state } from './state';

/** A correction was kept: `chapters` (none when the book had not converted them yet) are read again. */
export function correctionKept(jobId: string, chapters: readonly number[], now = Date.now()): void {
  if (chapters.length === 0) return;
  const before = state.reconverting[jobId]?.chapters ?? [];
  const all = [...new Set([...before, ...chapters])].sort((a, b) => a - b);
  state.reconverting[jobId] = { chapters: all, since: now };
}

/** The book has converted its changed chapters again. */
export function reconversionDone(jobId: string): void {
  delete state.reconverting[jobId];
}

/** Forgets every book's re-conversion (a story or a test starting afresh). */
export function resetCast(): void {
  state.reconverting = {};
}
