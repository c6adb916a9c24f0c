import type { ReactNode } from 'react';
import { TopNav } from './TopNav';

/** The signed-in frame: the top bar and the screen as the page's main landmark. */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <TopNav />
      <main>{children}</main>
    </>
  );
}
