import '@fontsource-variable/literata/wght.css';
import '@fontsource-variable/inter/wght.css';
import type { Preview } from '@storybook/react-vite';
import { mswLoader } from 'msw-storybook-addon/csf3';
import { configure } from 'storybook/test';
import type { User } from '../src/api/gen/model';
import { configureSessionStorage, connectAuthToApi, resetAuth, TOKEN_KEY, USER_KEY } from '../src/features/auth';
import { VOICE_STORAGE_KEY } from '../src/features/voices/choice';
import { resetConnection } from '../src/features/player/connection';
import { LAST_BOOK_KEY } from '../src/features/player/settings';
import { defaultHandlers } from '../src/mocks/handlers';
import { userFixture } from '../src/mocks/fixtures';
import type { ColorScheme } from '../src/styles/theme';
import { ReviewFrame } from './review/ReviewFrame';
import { VIEWPORTS } from './review/viewports';
import { StoryShell } from './StoryShell';

// A play function's findBy… and waitFor wait for what a reader would see appear: a mocked answer,
// a lazy screen. One second (Testing Library's default) is short on a busy machine, where the
// stories run beside other test steps; five is still far below the runner's time per story.
configure({ asyncUtilTimeout: 5_000 });

/**
 * Story parameters understood here:
 * - route: the starting URL (default '/')
 * - routeStubs: paths rendered as 'Navigated to {path}' stubs
 * - auth: { user } to start signed in (default: signed out, auth still loading as in the app)
 * - msw.handlers: { environment | login | register | me | jobs: handler } overriding the defaults
 * - width: render the story in a box this many pixels wide (e.g. 360 for a phone)
 * - theme: 'light' or 'dark' (the toolbar's `theme` global wins); default: the system's or the
 *   reader's stored choice, as in the app
 * - screen: { width, height } the story is run at by the test-runner (.storybook/test-runner.ts),
 *   e.g. a 390x844 phone, so media queries (the bottom navigation) apply as on the device
 *
 * Globals (the toolbar; also `&globals=theme:dark;viewport.value:phone` in a story's URL):
 * - theme: light or dark through the app's own theme provider, on every story
 * - viewport: phone 390x844, tablet, desktop 1280x800 (review/viewports.ts); a story that only
 *   makes sense on one size sets `globals: { viewport: { value: 'phone' } }`
 * - fonts: 'pinned' replaces the system font with the self-hosted Inter, so a screenshot is the
 *   same on every machine (the visual review sets it; review/ReviewFrame.tsx)
 */
const preview: Preview = {
  // A docs page for every story file: what the screen is for (the meta's comment), each state's
  // story with its one line (the story's comment), the props that matter (controls).
  tags: ['autodocs'],
  globalTypes: {
    theme: {
      description: 'Light or dark, through the app’s theme provider',
      toolbar: {
        title: 'Theme',
        icon: 'mirror',
        items: [
          { value: 'system', title: 'The reader’s choice (system)' },
          { value: 'light', title: 'Light', icon: 'sun' },
          { value: 'dark', title: 'Dark', icon: 'moon' },
        ],
        dynamicTitle: true,
      },
    },
    fonts: { description: 'pinned: the self-hosted Inter instead of the system font (visual review)' },
  },
  initialGlobals: {
    theme: 'system',
    fonts: 'system',
    viewport: { value: undefined, isRotated: false },
  },
  // The worker script is fetched beside iframe.html, not from the server's root: the static build
  // works from any folder (e.g. https://host/review/storybook/).
  loaders: [
    mswLoader(async () => {
      const { setupWorker } = await import('msw/browser');
      const worker = setupWorker();
      await worker.start({ quiet: true, onUnhandledRequest: 'bypass', serviceWorker: { url: 'mockServiceWorker.js' } });
      return worker;
    }),
  ],
  beforeEach: ({ parameters }) => {
    // The test-runner visits many stories in one page: every story starts with no session.
    configureSessionStorage(null);
    for (const storage of [localStorage, sessionStorage]) {
      storage.removeItem(TOKEN_KEY);
      storage.removeItem(USER_KEY);
    }
    // Nor a voice remembered by an earlier story's voice picker.
    localStorage.removeItem(VOICE_STORAGE_KEY);
    // Nor the last book an earlier story played, nor its outage.
    localStorage.removeItem(LAST_BOOK_KEY);
    resetConnection();
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
    (Story, { parameters, globals, id, viewMode }) => (
      <StoryShell
        key={id}
        route={(parameters.route as string | undefined) ?? '/'}
        stubs={(parameters.routeStubs as string[] | undefined) ?? []}
        scheme={schemeOf(globals.theme) ?? (parameters.theme as ColorScheme | undefined)}
      >
        <ReviewFrame globals={globals} docs={viewMode === 'docs'}>
          {typeof parameters.width === 'number' ? (
            <div style={{ width: parameters.width }}>
              <Story />
            </div>
          ) : (
            <Story />
          )}
        </ReviewFrame>
      </StoryShell>
    ),
  ],
  parameters: {
    // Keyed by endpoint, so a story replaces one endpoint and keeps the happy defaults for the rest.
    msw: { handlers: defaultHandlers },
    a11y: { test: 'error' },
    layout: 'fullscreen',
    viewport: { options: VIEWPORTS },
    controls: { matchers: { color: /(background|color)$/i, date: /Date$/i } },
  },
};

function schemeOf(global: unknown): ColorScheme | undefined {
  return global === 'light' || global === 'dark' ? global : undefined;
}

export default preview;
