import type { ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { GlobalStyle } from '../styles/GlobalStyle';
import { theme } from '../styles/theme';
import { AppRoutes } from './routes';

/**
 * Theme and global style around every screen. The data cache (React Query) is not here: only
 * signed-in screens use it, and it comes with their shell (layout/SignedInShell.tsx), so the
 * sign-in page loads without it.
 */
export function AppFrame({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <GlobalStyle />
      {children}
    </ThemeProvider>
  );
}

/** The SPA on the browser's own location (wouter's default router). */
export function App() {
  return (
    <AppFrame>
      <AppRoutes />
    </AppFrame>
  );
}
