import { lazy, Suspense, type ReactNode } from 'react';
import { BottomNav } from './BottomNav';
import { TopNav } from './TopNav';

// The player (its <audio> element, store and Media Session) is a chunk of its own, fetched once
// the first signed-in screen is up: no screen waits for it, and what it grows into (a mini-player)
// stays out of every screen's first load.
const PlayerAudio = lazy(() => import('../../features/player/PlayerAudio').then((m) => ({ default: m.PlayerAudio })));
const OutageBanner = lazy(() =>
  import('../../features/player/OutageBanner').then((m) => ({ default: m.OutageBanner })),
);
const MiniPlayer = lazy(() => import('../../features/player/MiniPlayer').then((m) => ({ default: m.MiniPlayer })));

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
        <PlayerAudio />
        <MiniPlayer />
      </Suspense>
      <BottomNav />
    </>
  );
}
