import '@fontsource-variable/literata/wght.css';
import type { Preview } from '@storybook/react-vite';
import { mswLoader } from 'msw-storybook-addon/csf3';
import type { User } from '../src/api/gen/model';
import { configureSessionStorage, connectAuthToApi, resetAuth, TOKEN_KEY, USER_KEY } from '../src/features/auth';
import { VOICE_STORAGE_KEY } from '../src/features/voices/choice';
import { defaultHandlers } from '../src/mocks/handlers';
import { userFixture } from '../src/mocks/fixtures';
import type { ColorScheme } from '../src/styles/theme';
import { StoryShell } from './StoryShell';

/**
 * Story parameters understood here:
 * - route: the starting URL (default '/')
 * - routeStubs: paths rendered as 'Navigated to {path}' stubs
 * - auth: { user } to start signed in (default: signed out, auth still loading as in the app)
 * - msw.handlers: { environment | login | register | me | jobs: handler } overriding the defaults
 * - width: render the story in a box this many pixels wide (e.g. 360 for a phone)
 * - theme: 'light' or 'dark' (a `theme` global, from a toolbar, wins); default: the system's or the
 *   reader's stored choice, as in the app
 * - screen: { width, height } the story is run at by the test-runner (.storybook/test-runner.ts),
 *   e.g. a 390x844 phone, so media queries (the bottom navigation) apply as on the device
 */
const preview: Preview = {
  loaders: [mswLoader()],
  beforeEach: ({ parameters }) => {
    // The test-runner visits many stories in one page: every story starts with no session.
    configureSessionStorage(null);
    for (const storage of [localStorage, sessionStorage]) {
      storage.removeItem(TOKEN_KEY);
      storage.removeItem(USER_KEY);
    }
    // Nor a voice remembered by an earlier story's voice picker.
    localStorage.removeItem(VOICE_STORAGE_KEY);
    connectAuthToApi();
    const auth = parameters.auth as { user?: Partial<User> } | undefined;
    if (auth?.user) {
      const user = userFixture(auth.user);
      localStorage.setItem(TOKEN_KEY, 'story-token');
      localStorage.setItem(USER_KEY, JSON.stringify(user));
      resetAuth({ user, isAuthenticated: true, isLoading: false });
    } else {
      resetAuth();
    }
  },
  decorators: [
    (Story, { parameters, globals, id }) => (
      <StoryShell
        key={id}
        route={(parameters.route as string | undefined) ?? '/'}
        stubs={(parameters.routeStubs as string[] | undefined) ?? []}
        scheme={(globals.theme ?? parameters.theme) as ColorScheme | undefined}
      >
        {typeof parameters.width === 'number' ? (
          <div style={{ width: parameters.width }}>
            <Story />
          </div>
        ) : (
          <Story />
        )}
      </StoryShell>
    ),
  ],
  parameters: {
    // Keyed by endpoint, so a story replaces one endpoint and keeps the happy defaults for the rest.
    msw: { handlers: defaultHandlers },
    a11y: { test: 'error' },
    layout: 'fullscreen',
    controls: { matchers: { color: /(background|color)$/i, date: /Date$/i } },
  },
};

export default preview;
