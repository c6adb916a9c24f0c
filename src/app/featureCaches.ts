import type { QueryClient } from '@tanstack/react-query';
import { useLayoutEffect } from 'react';
import { attachPlayer } from '../features/player/store';

type Attach = (client: QueryClient) => () => void;

/**
 * Hands the app's data cache to the features that keep client state beside it (the player, the
 * voice assistant): once, for as long as the component that provides the cache is mounted. A
 * layout effect, so the cache is attached before any screen's own effects (a player loading a book
 * on mount) run. The player's store is small and is imported as is. The voice assistant is not:
 * without `attachVoiceAssistant` (stories and tests, which have the module at hand, pass it), its
 * module is fetched here with import(). A page opened at its address may render the voice
 * assistant before that import answers: the feature's hooks then attach the same cache themselves
 * (src/features/voice-assistant/hooks.ts), and the attach here does nothing.
 */
export function useFeatureCaches(client: QueryClient, attachVoiceAssistant?: Attach): void {
  useLayoutEffect(() => {
    const detachPlayer = attachPlayer(client);
    const voice = { detach: attachVoiceAssistant?.(client) ?? null, gone: false };
    if (!attachVoiceAssistant) {
      void import('../features/voice-assistant/service').then((module) => {
        if (!voice.gone) voice.detach = module.attachVoiceAssistant(client);
      });
    }
    return () => {
      voice.gone = true;
      voice.detach?.();
      detachPlayer();
    };
  }, [client, attachVoiceAssistant]);
}
