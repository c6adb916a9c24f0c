/**
 * The Cache Storage cache that holds the books kept on this device, shared by the page (which
 * fills it, src/features/kept-books) and the service worker (which answers from it when the
 * network cannot, src/app/service-worker). Each kept response is stored under its same-origin URL
 * without the query string: audio comes through signed URLs whose query changes from one answer
 * to the next, so the path is the key. It sits in the shared layer because both sides import it.
 */
export const KEPT_BOOKS_CACHE = 'lectio-kept-books';

/**
 * The key a response is kept under: `url` made absolute (against the page's or the worker's own
 * location) with its query string and fragment dropped.
 */
export function keptKey(url: string): string {
  const absolute = new URL(url, self.location.href);
  absolute.search = '';
  absolute.hash = '';
  return absolute.href;
}
