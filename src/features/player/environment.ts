import { defaultEnvironment, type PlayerEnvironment } from './settings';
import { runtime } from './store';

/** The player's environment (settings.ts): the one in force, and swapping it in tests. */

/** The environment in force (kept in the store's runtime holder). */
export function environment(): PlayerEnvironment {
  return runtime.environment ?? defaultEnvironment;
}

/** Replaces parts of the environment (null: back to the defaults). */
export function configurePlayer(patch: Partial<PlayerEnvironment> | null): void {
  runtime.environment = patch ? { ...defaultEnvironment, ...patch } : null;
}
