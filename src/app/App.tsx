import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AppTheme } from '../styles/AppTheme';
import type { ColorScheme } from '../styles/theme';
import { appQueryClient } from './queryClient';
import { AppRoutes } from './routes';

/**
 * Theme (light or dark, docs/product.md#look) and global style around every screen (the data cache
 * comes with App or AppProviders). `scheme` forces one theme (stories); else the reader's choice.
 */
export function AppFrame({ scheme, children }: { scheme?: ColorScheme; children: ReactNode }) {
  return <AppTheme scheme={scheme}>{children}</AppTheme>;
}

/**
 * The SPA on the browser's own location (wouter's default router), with its one data cache: all
 * server data (the environment on the sign-in page too) lives in React Query.
 */
export function App() {
  return (
    <QueryClientProvider client={appQueryClient}>
      <AppFrame>
        <AppRoutes />
      </AppFrame>
    </QueryClientProvider>
  );
}
