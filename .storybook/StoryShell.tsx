import { useState, type ReactNode } from 'react';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AppProviders } from '../src/app/AppProviders';
import { createQueryClient } from '../src/app/queryClient';
import type { ColorScheme } from '../src/styles/theme';

export interface StoryShellProps {
  /** The URL the story starts at (parameters.route), e.g. '/login?forgot=1'. */
  route: string;
  /**
   * Paths that render a stub page instead of the story (parameters.routeStubs): a story proves a
   * navigation by finding the heading 'Navigated to {path}'.
   */
  stubs: string[];
  /** The theme (parameters.theme, or a toolbar's global): light or dark; default the reader's choice. */
  scheme?: ColorScheme;
  children: ReactNode;
}

/** Fresh per story: a query client without retries and an in-memory location. */
export function StoryShell({ route, stubs, scheme, children }: StoryShellProps) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    client.setDefaultOptions({ queries: { retry: false, refetchOnWindowFocus: false } });
    return client;
  });
  const [location] = useState(() => memoryLocation({ path: route }));
  return (
    <AppProviders queryClient={queryClient} scheme={scheme}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <Switch>
          {stubs.map((path) => (
            <Route key={path} path={path}>
              <main>
                <h1>{`Navigated to ${path}`}</h1>
              </main>
            </Route>
          ))}
          <Route>{children}</Route>
        </Switch>
      </Router>
    </AppProviders>
  );
}
