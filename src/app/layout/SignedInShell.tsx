import type { ReactNode } from 'react';
import { AppLayout } from './AppLayout';

/**
 * Around every signed-in screen, loaded with the first one (its own chunk): the layout (top bar,
 * player). The data cache is the app's (App.tsx), shared with the signed-out screens.
 */
export function SignedInShell({ children }: { children: ReactNode }) {
  return <AppLayout>{children}</AppLayout>;
}
