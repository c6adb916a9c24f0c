import { proxy } from 'valtio';

/**
 * A new version of the app, installed and waiting: `waiting` shows the update prompt, `activate`
 * (set when the worker is registered) lets it take over, after which the page reloads.
 */
export const serviceWorkerUpdate = proxy({
  waiting: false,
  activate: null as (() => Promise<void>) | null,
});

/** The listener asked for the new version: the waiting worker takes over and the page reloads. */
export async function applyUpdate(): Promise<void> {
  await serviceWorkerUpdate.activate?.();
}
