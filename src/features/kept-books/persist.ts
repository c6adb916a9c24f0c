import { INDEX_KEY, kept, runtime, UNSENT_KEY } from './state';

/**
 * Writes the kept index and the unsent places to the browser's storage (state.ts reads them back
 * on the next start). A storage that refuses (full, private mode) keeps them for this visit only.
 */
function writeStored(key: string, value: object): void {
  try {
    if (Object.keys(value).length === 0) runtime.storage?.removeItem(key);
    else runtime.storage?.setItem(key, JSON.stringify(value));
  } catch {
    // Refused: the state stays right for this visit.
  }
}

export function writeIndex(): void {
  writeStored(INDEX_KEY, kept.books);
}

export function writeUnsent(): void {
  writeStored(UNSENT_KEY, kept.unsent);
}
