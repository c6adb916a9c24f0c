import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ColorScheme } from '../styles/theme';
import { AppFrame } from './App';
import { attachPlayer } from '../features/player/store';
import { attachVoiceAssistant } from '../features/voice-assistant/service';
import { useFeatureCaches } from './featureCaches';

/**
 * Everything a screen needs around it, for stories and tests: data cache (handed to the player
 * and the voice assistant too), theme (`scheme` forces light or dark) and global style.
 */
export function AppProviders({
  queryClient,
  scheme,
  children,
}: {
  queryClient: QueryClient;
  scheme?: ColorScheme;
  children: ReactNode;
}) {
  useFeatureCaches(queryClient, { player: attachPlayer, voiceAssistant: attachVoiceAssistant });
  return (
    <QueryClientProvider client={queryClient}>
      <AppFrame scheme={scheme}>{children}</AppFrame>
    </QueryClientProvider>
  );
}
