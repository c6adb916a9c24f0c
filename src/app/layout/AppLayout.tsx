import { lazy, Suspense, type ReactNode } from 'react';
import { BottomNav } from './BottomNav';
import { TopNav } from './TopNav';

// The player (its <audio> element, store, Media Session and the mini-player) is a chunk of its
// own, fetched once the first signed-in screen is up: no screen waits for it, and none of it is in
// a screen's first load. So is the outage banner, which renders from the player's store.
const PlayerDock = lazy(() => import('./PlayerDock').then((m) => ({ default: m.PlayerDock })));
const OutageBanner = lazy(() =>
  import('../../features/player/OutageBanner').then((m) => ({ default: m.OutageBanner })),
);

/**
 * The signed-in frame: the top bar, the screen as the page's main landmark, the one audio element,
 * kept here so a book goes on playing from one page to the next, the mini-player that controls it,
 * and on a phone the bottom navigation (the mini-player sits above it).
 */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <TopNav />
      <Suspense fallback={null}>
        <OutageBanner />
      </Suspense>
      <main>{children}</main>
      <Suspense fallback={null}>
        <PlayerDock />
      </Suspense>
      <BottomNav />
    </>
  );
}
