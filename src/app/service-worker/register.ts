/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from 'virtual:pwa-register';
import { serviceWorkerUpdate } from './update';

/**
 * How often an open app asks the server for a new version: a single-page app navigates without
 * loading a page, so the browser's own check (on each page load) seldom happens.
 */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Registers the service worker, once (a production build's; in development, Storybook and the
 * tests `virtual:pwa-register` does nothing). A new version installs in the background and waits;
 * the update prompt lets the listener reload into it, and nothing reloads before they ask.
 */
export function registerServiceWorker(): void {
  if (serviceWorkerUpdate.activate !== null) return;
  serviceWorkerUpdate.activate = registerSW({
    onNeedRefresh() {
      serviceWorkerUpdate.waiting = true;
    },
    onRegisteredSW(_url, registration) {
      if (registration === undefined) return;
      setInterval(() => {
        // Offline, or the server away: the next check will do.
        if (navigator.onLine) registration.update().catch(() => undefined);
      }, UPDATE_CHECK_INTERVAL_MS);
    },
  });
}
