import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLayoutEffect } from 'react';
import { useSnapshot } from 'valtio';
import { hearingOf, serviceStatusOf, statusQuery, useStarting, type StatusAnswer } from './data';
import { keptQuery, recapOf } from './history';
import { attachVoiceAssistant } from './service';
import { runtime, state, type Hearing, type Recap, type ServiceStatus } from './store';

/**
 * The app hands the feature its data cache once the feature's code has loaded
 * (src/app/featureCaches.ts); a page opened at its address may render the feature first. Its first
 * component then attaches the same cache, in a layout effect: before any effect of the page (the
 * status watch) reads it. The app's own attach is then a no-op, and this one is never undone here.
 */
function useAppCache(): void {
  const client = useQueryClient();
  useLayoutEffect(() => {
    if (runtime.cache === null) attachVoiceAssistant(client);
  }, [client]);
}

/** The voice assistant page's client state for rendering (re-renders on change). */
export function useVoiceAssistant() {
  useAppCache();
  return useSnapshot(state);
}

/** The server's latest word on the session (status, websocket URL, tools, mode, book), or null before it. */
export function useVoiceStatus(): StatusAnswer | null {
  return useQuery(statusQuery()).data ?? null;
}

/** The service's status as the page shows it: Starting, Error, or what the server last said. */
export function useServiceStatus(): ServiceStatus {
  const { serviceFailed } = useVoiceAssistant();
  return serviceStatusOf(serviceFailed, useStarting(), useVoiceStatus());
}

/** Who hears the reader, from the server's speech service and what this browser offers. */
export function useHearing(): Hearing {
  return hearingOf(useVoiceStatus());
}

/**
 * "Previously…" for a finished book: the recap the server offers once the book has rested
 * RECAP_AFTER_MINUTES (null when it offers none, or while it loads).
 */
export function useRecap(jobId: string, enabled: boolean): Recap | null {
  const kept = useQuery({ ...keptQuery(jobId), enabled });
  return enabled ? recapOf(kept.data) : null;
}

/** "Previously…" on the voice page: the loaded book's recap, until the reader dismisses it. */
export function useOfferedRecap(): Recap | null {
  const { keptFor, recapDismissed } = useVoiceAssistant();
  return useRecap(keptFor ?? '', keptFor !== null && !recapDismissed);
}
