import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { GlobalStyle } from '../styles/GlobalStyle';
import { theme } from '../styles/theme';
import { appQueryClient } from './queryClient';
import { AppRoutes } from './routes';

/** Theme and global style around every screen (the data cache comes with App or AppProviders). */
export function AppFrame({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <GlobalStyle />
      {children}
    </ThemeProvider>
  );
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
