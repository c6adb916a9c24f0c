import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AppFrame } from './App';

/** Everything a screen needs around it, for stories and tests: data cache, theme and global style. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AppFrame>{children}</AppFrame>
    </QueryClientProvider>
  );
}
