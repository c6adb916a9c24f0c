import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ColorScheme } from '../styles/theme';
import { AppFrame } from './App';

/**
 * Everything a screen needs around it, for stories and tests: data cache, theme (`scheme` forces
 * light or dark) and global style.
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
  return (
    <QueryClientProvider client={queryClient}>
      <AppFrame scheme={scheme}>{children}</AppFrame>
    </QueryClientProvider>
  );
}
