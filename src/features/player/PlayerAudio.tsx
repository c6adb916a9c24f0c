import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { watchMediaSession } from './mediaSession';
import { installPlayerShortcuts } from './shortcuts';
import { attachMedia, connectPlayerCache, watchPageHide } from './store';

/**
 * The app's one <audio> element. It hands itself to the player store (which drives it) and
 * watches the page being hidden (to save the place), the Media Session and the keyboard shortcuts
 * (shortcuts.ts), and gives the store the
 * data cache its saves update. Mounted once, around the signed-in screens, so a book keeps playing
 * from one page to the next.
 */
export function PlayerAudio() {
  const audio = useRef<HTMLAudioElement>(null);
  const queryClient = useQueryClient();
  useEffect(() => connectPlayerCache(queryClient), [queryClient]);
  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    const detach = attachMedia(element);
    const stopPageHide = watchPageHide();
    const stopSession = watchMediaSession();
    const stopShortcuts = installPlayerShortcuts();
    return () => {
      stopShortcuts();
      stopSession();
      stopPageHide();
      detach();
    };
  }, []);
  return <audio ref={audio} preload="metadata" data-testid="player-audio" />;
}
