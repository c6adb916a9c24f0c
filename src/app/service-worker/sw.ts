// The service worker (vite-plugin-pwa builds it with `injectManifest`, which writes the list of
// the app shell's files into `self.__WB_MANIFEST`). It precaches the shell, answers navigations
// with the precached index.html, and answers the requests of the books kept on this device from
// their cache. Updates wait until the listener asks for them (the "Update available" prompt).
import type { WorkboxPlugin } from 'workbox-core/types.js';
import {
  addPlugins,
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { RangeRequestsPlugin } from 'workbox-range-requests';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, NetworkOnly } from 'workbox-strategies';
import { KEPT_BOOKS_CACHE } from '../../lib/kept-cache';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

/** A response the server says must never be stored (`Cache-Control: no-store`). */
const noStore = (response: Response) => /(^|,)\s*no-store\s*(,|$)/i.test(response.headers.get('cache-control') ?? '');

/**
 * The app shell's cache takes complete answers only (200), never one the server marked no-store:
 * such a file fails the install, and the worker already running goes on serving the old shell.
 */
const shellCacheable: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => (response.status === 200 && !noStore(response) ? response : null),
};

addPlugins([shellCacheable]);
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/**
 * Navigations are the single-page app's routes: the precached index.html answers them, online or
 * not. Not the server's own pages: the API, files (a podcast feed's .xml) and the probes.
 */
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/api(\/|\?|$)/, /^\/(healthz|readyz|metrics)(\?|$)/, /^[^?]*\/[^/?]*\.[^/?]*(\?|$)/],
  }),
);

/**
 * The kept books' cache is written by the page when a listener keeps a book, under each URL's path
 * without its query (src/lib/kept-cache.ts); the worker only reads it, and stores nothing else.
 */
const readOnly: WorkboxPlugin = { cacheWillUpdate: async () => null };
const keptMatch: CacheQueryOptions = { ignoreSearch: true, ignoreVary: true };
/** Audio (and covers): the kept bytes, a Range request answered with the part it asks for. */
const keptFile = new CacheFirst({
  cacheName: KEPT_BOOKS_CACHE,
  matchOptions: keptMatch,
  plugins: [readOnly, new RangeRequestsPlugin()],
});
/** The API's JSON: the server's fresh answer, the kept copy only when the network fails. */
const keptJson = new NetworkFirst({
  cacheName: KEPT_BOOKS_CACHE,
  matchOptions: keptMatch,
  networkTimeoutSeconds: 10,
  plugins: [readOnly],
});
const passThrough = new NetworkOnly();

const isJson = (response: Response) =>
  /^application\/([\w.-]+\+)?json\b/i.test(response.headers.get('content-type') ?? '');

/**
 * Every other same-origin GET: answered from the kept books when its path is kept, else sent on to
 * the network untouched (nothing of it is stored: no stale answers for a listener online).
 */
registerRoute(
  ({ request, url, sameOrigin }) => sameOrigin && request.method === 'GET' && url.protocol.startsWith('http'),
  async (options) => {
    const kept = await caches.open(KEPT_BOOKS_CACHE).then((cache) => cache.match(options.request, keptMatch));
    if (kept === undefined) return passThrough.handle(options);
    return isJson(kept) ? keptJson.handle(options) : keptFile.handle(options);
  },
);

// The "Reload" of the update prompt (workbox-window's messageSkipWaiting): the waiting worker
// takes over, and the page reloads when it does.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
