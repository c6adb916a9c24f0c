import type { ReactNode } from 'react';
import { PlayerAudio } from '../../features/player';
import { TopNav } from './TopNav';

/**
 * The signed-in frame: the top bar, the screen as the page's main landmark, and the one audio
 * element, kept here so a book goes on playing from one page to the next.
 */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <TopNav />
      <main>{children}</main>
      <PlayerAudio />
    </>
  );
}
