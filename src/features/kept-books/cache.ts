import { getGetAudioTranscriptUrl } from '../../api/gen/endpoints/audio';
import { KEPT_BOOKS_CACHE, keptKey } from '../../lib/kept-cache';

/**
 * Where a kept book's bytes live: Cache Storage. The kept books' cache (KEPT_BOOKS_CACHE) holds
 * every response the player asks for, under its URL without the query string, and the service
 * worker answers from it when the network cannot. The read-along's chapters differ only in their
 * query (`?chapter=2`), so they cannot share that key: they are kept in a cache of their own under
 * their whole URL, and put into the data cache for the book page (readAlong.ts).
 */
export const READ_ALONG_CACHE = 'lectio-kept-read-along';

/** Why a book could not be kept, in words for the reader. */
export const KEEP_MESSAGES = {
  quota: 'There is not enough space on this device to keep this book. Free some space and try again.',
  refused: 'This browser does not let Lectio keep books on this device (a private window may not).',
  network: 'The download stopped before the book was kept. Check your connection and try again.',
  notReady: 'Only a finished book can be kept on this device.',
} as const;

/** Storage could not take the book: the browser refused it, or there is no room. */
export class KeepError extends Error {
  constructor(readonly reason: keyof typeof KEEP_MESSAGES) {
    super(KEEP_MESSAGES[reason]);
    this.name = 'KeepError';
  }
}

/** The kept books' cache and the read-along cache, or a KeepError when the browser has none. */
export async function openCaches(): Promise<{ books: Cache; readAlong: Cache }> {
  if (typeof caches === 'undefined') throw new KeepError('refused');
  try {
    const [books, readAlong] = await Promise.all([caches.open(KEPT_BOOKS_CACHE), caches.open(READ_ALONG_CACHE)]);
    return { books, readAlong };
  } catch (error) {
    throw asKeepError(error);
  }
}

/** A storage failure as a KeepError (no room, or refused); anything else as it is. */
export function asKeepError(error: unknown): unknown {
  if (error instanceof KeepError) return error;
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'QuotaExceededError') return new KeepError('quota');
  if (name === 'SecurityError' || name === 'NotAllowedError') return new KeepError('refused');
  return error;
}

/** The read-along cache's key for one chapter of a book: its whole URL, query included. */
export function readAlongKey(jobId: string, chapter: number): string {
  return new URL(getGetAudioTranscriptUrl(jobId, { chapter }), self.location.href).href;
}

/** A JSON answer as the server would send it, to keep. */
export function jsonResponse(body: unknown): Response {
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
}

/** Deletes every kept response of a book (its keys, and its read-along chapters). */
export async function deleteKept(keys: readonly string[], jobId: string, readAlong: readonly number[]): Promise<void> {
  if (typeof caches === 'undefined') return;
  const open = await openCaches().catch(() => null);
  if (!open) return;
  await Promise.all([
    ...keys.map((key) => open.books.delete(key)),
    ...readAlong.map((chapter) => open.readAlong.delete(readAlongKey(jobId, chapter))),
  ]);
}

export { keptKey };
