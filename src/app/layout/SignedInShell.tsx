import { QueryClientContext, QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useContext, type ReactNode } from 'react';
import { createQueryClient } from '../queryClient';
import { AppLayout } from './AppLayout';

let appQueryClient: QueryClient | undefined;

/**
 * Around every signed-in screen, loaded with the first one (its own chunk): the data cache, one
 * for the page's life, unless a story or test provides its own, and the layout (top bar, player).
 */
export function SignedInShell({ children }: { children: ReactNode }) {
  const provided = useContext(QueryClientContext);
  const layout = <AppLayout>{children}</AppLayout>;
  if (provided) return layout;
  appQueryClient ??= createQueryClient();
  return <QueryClientProvider client={appQueryClient}>{layout}</QueryClientProvider>;
}
