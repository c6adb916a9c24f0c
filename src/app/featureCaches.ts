import type { QueryClient } from '@tanstack/react-query';
import { useLayoutEffect } from 'react';

type Attach = (client: QueryClient) => () => void;

/** The features' own attach functions, for callers that have their modules at hand. */
interface FeatureAttachers {
  player?: Attach;
  voiceAssistant?: Attach;
}

/**
 * Hands the app's data cache to the features that keep client state beside it (the player, the
 * voice assistant): once, for as long as the component that provides the cache is mounted.
 * Neither feature is part of a screen's first load: a feature whose attach function is not given
 * (stories and tests, which have the modules at hand, give them) is fetched here with import() and
 * attached as soon as it answers, long before a screen acts on an answer from the server (a book
 * page loads its book once the book's details are in). What reads the cache the moment it mounts
 * attaches the same cache itself first: the player's dock (src/app/layout/PlayerDock.tsx), whose
 * audio element brings back the last book, and the voice assistant's hooks
 * (src/features/voice-assistant/hooks.ts), on a page opened at its address.
 */
export function useFeatureCaches(client: QueryClient, { player, voiceAssistant }: FeatureAttachers = {}): void {
  useLayoutEffect(() => {
    const detachers = [
      attachFeature(client, player, () => import('../features/player/store').then((module) => module.attachPlayer)),
      attachFeature(client, voiceAssistant, () =>
        import('../features/voice-assistant/service').then((module) => module.attachVoiceAssistant),
      ),
    ];
    return () => {
      for (const detach of detachers) detach();
    };
  }, [client, player, voiceAssistant]);
}

/** Attaches `client` with `attach`, or with the function `load` fetches; returns the detach. */
function attachFeature(client: QueryClient, attach: Attach | undefined, load: () => Promise<Attach>): () => void {
  if (attach) return attach(client);
  const attached = { detach: null as (() => void) | null, gone: false };
  void load().then((loaded) => {
    if (!attached.gone) attached.detach = loaded(client);
  });
  return () => {
    attached.gone = true;
    attached.detach?.();
  };
}
