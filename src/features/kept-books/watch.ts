import type { QueryClient } from '@tanstack/react-query';
import { getGetProgressQueryKey, getGetProgressUrl } from '../../api/gen/endpoints/progress';
import { KEPT_BOOKS_CACHE } from '../../lib/kept-cache';
import { jsonResponse, keptKey } from './cache';
import { sendUnsentPlaces } from './queue';
import { kept } from './state';

/**
 * For the app's life: unsent places are sent when the app starts online and whenever the browser
 * comes back online, and a kept book's kept saved place follows every place the data cache learns
 * (the player's saves, another device's place read online), so the book resumes there offline.
 * Returns the function that stops watching.
 */
export function watchKeptBooks(
  client: QueryClient,
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
): () => void {
  const send = () => void sendUnsentPlaces(client);
  target.addEventListener('online', send);
  send();
  const stopCache = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const [path] = event.query.queryKey;
    const book = Object.keys(kept.books).find((id) => getGetProgressQueryKey(id)[0] === path);
    const record: unknown = event.query.state.data;
    if (book && record && typeof caches !== 'undefined') void keepSavedPlace(book, record);
  });
  return () => {
    target.removeEventListener('online', send);
    stopCache();
  };
}

async function keepSavedPlace(jobId: string, record: unknown): Promise<void> {
  try {
    const cache = await caches.open(KEPT_BOOKS_CACHE);
    await cache.put(keptKey(getGetProgressUrl(jobId)), jsonResponse(record));
  } catch {
    // The kept copy stays as it was.
  }
}
