import { useEffect } from 'react';
import { useTheme } from 'styled-components';
import { registerServiceWorker } from '../service-worker/register';
import { OfflineBanner } from './OfflineBanner';
import { UpdatePrompt } from './UpdatePrompt';

/**
 * What the app says about itself over every page: that the browser is offline, that a new version
 * waits. It also registers the service worker, which production builds only have (elsewhere
 * `virtual:pwa-register` does nothing); in the mocked mode msw's worker holds that scope. The
 * player's dock renders it (./PlayerDock.tsx, a chunk fetched after the first signed-in screen),
 * so it is in no screen's first load; a signed-out page has no kept books to tell about.
 */
export default function AppNotices() {
  useEffect(() => {
    if (import.meta.env.VITE_MOCK_API !== 'true') registerServiceWorker();
  }, []);
  // The browser's own bar (an installed app's title bar) takes the page colour of the theme in
  // force: index.html's pair follows the system, the reader's toggle may say otherwise.
  const page = useTheme().colors.background;
  useEffect(() => {
    for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) meta.content = page;
  }, [page]);
  return (
    <>
      <OfflineBanner />
      <UpdatePrompt />
    </>
  );
}
