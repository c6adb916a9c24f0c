import { proxy } from 'valtio';

/**
 * Whether the browser says it is online (`navigator.onLine`), kept current by its `online` and
 * `offline` events. The browser can only say when it surely is offline (no network at all); a
 * network that does not reach the server still counts as online here.
 */
export const connectivity = proxy({ online: typeof navigator === 'undefined' ? true : navigator.onLine });

/** Follows the browser's `online` and `offline` events from the first import on, for the page's life. */
if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    connectivity.online = true;
  });
  window.addEventListener('offline', () => {
    connectivity.online = false;
  });
}
