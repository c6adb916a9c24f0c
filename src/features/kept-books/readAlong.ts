import type { QueryClient } from '@tanstack/react-query';
import { getGetAudioTranscriptQueryKey } from '../../api/gen/endpoints/audio';
import { READ_ALONG_CACHE, readAlongKey } from './cache';

/**
 * A kept book's read-along, put into the data cache from the read-along cache (cache.ts says why
 * it is kept apart): the book page's read-along then reads it from there, online or not, just as
 * the kept audio plays. A chapter the data cache holds already is left as it is.
 */
export async function seedReadAlong(
  client: QueryClient,
  book: { id: string; readAlong: readonly number[] },
): Promise<void> {
  if (typeof caches === 'undefined' || book.readAlong.length === 0) return;
  const cache = await caches.open(READ_ALONG_CACHE).catch(() => null);
  if (!cache) return;
  await Promise.all(
    book.readAlong.map(async (chapter) => {
      const key = getGetAudioTranscriptQueryKey(book.id, { chapter });
      if (client.getQueryData(key) !== undefined) return;
      const response = await cache.match(readAlongKey(book.id, chapter)).catch(() => undefined);
      const transcript: unknown = await response?.json().catch(() => undefined);
      if (transcript !== undefined) client.setQueryData(key, transcript);
    }),
  );
}
