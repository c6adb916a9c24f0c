import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useFeatureCaches } from '../featureCaches';
import { AppLayout } from './AppLayout';

/**
 * Around every signed-in screen, loaded with the first one (its own chunk): the layout (top bar,
 * player). The data cache is the app's (App.tsx), shared with the signed-out screens; the shell
 * hands it to the player and the voice assistant, which only signed-in screens use.
 */
export function SignedInShell({ children }: { children: ReactNode }) {
  useFeatureCaches(useQueryClient());
  return <AppLayout>{children}</AppLayout>;
}
