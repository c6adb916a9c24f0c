import { useSyncExternalStore } from 'react';
import type { ColorScheme } from './theme';

/**
 * Light or dark: the system's choice (prefers-color-scheme) until the reader picks one with the
 * toggle; that pick is kept in the browser (localStorage) and wins from then on.
 */
export type SchemePreference = ColorScheme | 'system';

const KEY = 'lectio.colorScheme';
const DARK_QUERY = '(prefers-color-scheme: dark)';
const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function media(): MediaQueryList | null {
  return typeof matchMedia === 'function' ? matchMedia(DARK_QUERY) : null;
}

export function schemePreference(): SchemePreference {
  const stored = storage()?.getItem(KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

/** The reader's pick ('system': follow the system again). */
export function setSchemePreference(preference: SchemePreference): void {
  if (preference === 'system') storage()?.removeItem(KEY);
  else storage()?.setItem(KEY, preference);
  for (const listener of listeners) listener();
}

/** The scheme in force now: the reader's pick, else the system's. */
export function currentScheme(): ColorScheme {
  const preference = schemePreference();
  if (preference !== 'system') return preference;
  return media()?.matches ? 'dark' : 'light';
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const query = media();
  query?.addEventListener('change', listener);
  // Another tab's toggle.
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY) listener();
  };
  if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    query?.removeEventListener('change', listener);
    if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}

/** The reader's pick ('system' until they make one), re-rendering when it changes. */
export function useSchemePreference(): SchemePreference {
  return useSyncExternalStore(subscribe, schemePreference, () => 'system');
}

/** The scheme in force, re-rendering when the system or the reader changes it. */
export function useColorScheme(): ColorScheme {
  return useSyncExternalStore(subscribe, currentScheme, () => 'light');
}
