import type { ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { useColorScheme } from './colorScheme';
import { GlobalStyle } from './GlobalStyle';
import { themes, type ColorScheme } from './theme';

/**
 * The app's theme provider: the light or the dark theme object (theme.ts), as the system or the
 * reader's toggle says, with the global style. `scheme` forces one (a story, a screenshot).
 */
export function AppTheme({ scheme, children }: { scheme?: ColorScheme; children: ReactNode }) {
  const chosen = useColorScheme();
  return (
    <ThemeProvider theme={themes[scheme ?? chosen]}>
      <GlobalStyle />
      {children}
    </ThemeProvider>
  );
}
